#include "api/job_validation.hpp"

#include <cstdint>
#include <string>

#include "common/ct.hpp"
#include "cryptaccel/modes.hpp"

namespace cryptaccel {
namespace {

/// Partial overlap of input and output would corrupt data; exact aliasing (in-place) is fine.
bool overlaps_partially(bytes_view in, mutable_bytes out) {
  if (in.empty() || out.empty()) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(in.data());
  const auto b = reinterpret_cast<std::uintptr_t>(out.data());
  return a != b && a < b + out.size() && b < a + in.size();
}

std::string check(const CipherSpec& spec, Direction dir, std::size_t xts_unit, const CipherJob& job) {
  const auto name = [&] { return spec.name(); };  // built only for an error message
  if (job.key.size() != spec.key_size())
    return "invalid key length " + std::to_string(job.key.size()) + " bytes for " + name() + " (expected " +
           std::to_string(spec.key_size()) + ")";
  switch (spec.mode) {
    case Mode::ecb:
      break;
    case Mode::gcm:
      if (job.iv.empty()) return "GCM nonce must not be empty";
      if (job.tag.size() < 4 || job.tag.size() > 16)
        return "invalid GCM tag length " + std::to_string(job.tag.size()) + " (expected 4..16 bytes)";
      break;
    case Mode::poly1305:
      if (job.iv.size() != 12)
        return "invalid nonce length " + std::to_string(job.iv.size()) + " bytes for chacha20-poly1305 (expected 12)";
      if (job.tag.size() != 16)
        return "invalid ChaCha20-Poly1305 tag length " + std::to_string(job.tag.size()) + " (expected 16)";
      break;
    default:
      if (job.iv.size() != 16)
        return "invalid IV length " + std::to_string(job.iv.size()) + " bytes for " + name() + " (expected 16)";
  }
  if (spec.mode == Mode::xts) {
    const std::size_t half = job.key.size() / 2;
    if (ct::equal(job.key.data(), job.key.data() + half, half)) return "XTS key halves must differ (IEEE 1619)";
    const std::size_t len = job.in.size();
    if (len < 16) return "XTS needs at least 16 bytes of data";
    if (xts_unit != 0 && (xts_unit < 16 || (len % xts_unit != 0 && len % xts_unit < 16)))
      return "XTS data units must be at least 16 bytes (unit " + std::to_string(xts_unit) + ", length " +
             std::to_string(len) + ")";
  }
  const std::size_t need = dir == Direction::encrypt && spec.pads() ? encrypted_size(spec, job.in.size()) : job.in.size();
  if (job.out.size() < need)
    return "output buffer too small: " + std::to_string(job.out.size()) + " < " + std::to_string(need) + " bytes";
  if (overlaps_partially(job.in, job.out)) return "input and output buffers overlap without being identical";
  return {};
}

}  // namespace

void validate_job(const CipherSpec& spec, Direction dir, std::size_t xts_unit, CipherJob& job) {
  job.out_len = 0;
  job.error.clear();
  job.status = JobStatus::pending;
  if (auto why = check(spec, dir, xts_unit, job); !why.empty()) {
    job.status = JobStatus::invalid_argument;
    job.error = std::move(why);
    return;
  }
  // ECB/CBC lengths: checked here so that every engine reports them alike.
  if (spec.mode != Mode::ecb && spec.mode != Mode::cbc) return;
  const std::size_t len = job.in.size();
  if (dir == Direction::encrypt && !spec.padding && len % 16) {
    job.status = JobStatus::invalid_argument;
    job.error = "data length is not a multiple of the block size (16)";
  } else if (dir == Direction::decrypt && len % 16) {
    job.status = JobStatus::bad_decrypt;
    job.error = "ciphertext length is not a multiple of the block size (16)";
  } else if (dir == Direction::decrypt && spec.padding && len == 0) {
    job.status = JobStatus::bad_decrypt;
    job.error = "bad decrypt: empty ciphertext has no padding";
  }
}

}  // namespace cryptaccel
