// One-shot encrypt/decrypt: a batch of one job, with failures turned into typed exceptions.
#include "cryptaccel/modes.hpp"

#include "api/job_failure.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {
namespace {

void check_tag_len(const CipherSpec& spec, std::size_t tag_len) {
  if (spec.is_aead() && (tag_len < 4 || tag_len > 16))
    throw InvalidArgument("invalid GCM tag length " + std::to_string(tag_len) + " (expected 4..16 bytes)");
}

}  // namespace

std::size_t encrypted_size(const CipherSpec& spec, std::size_t plaintext_len, std::size_t tag_len) {
  if (spec.pads()) return (plaintext_len / 16 + 1) * 16;
  return plaintext_len + (spec.is_aead() ? tag_len : 0);
}

std::array<std::uint8_t, 16> xts_tweak(std::uint64_t n) {
  std::array<std::uint8_t, 16> t{};
  for (int i = 0; i < 8; ++i) t[i] = static_cast<std::uint8_t>(n >> (8 * i));
  return t;
}

bytes encrypt(const CipherSpec& spec, const CipherParams& params, bytes_view plaintext, std::string_view engine,
              std::string* engine_used) {
  check_tag_len(spec, params.tag_len);
  const std::size_t body = spec.pads() ? encrypted_size(spec, plaintext.size()) : plaintext.size();
  bytes out(body + (spec.is_aead() ? params.tag_len : 0));
  CipherJob job{params.key, params.iv, plaintext, mutable_bytes(out.data(), body), params.aad};
  if (spec.is_aead()) job.tag = mutable_bytes(out.data() + body, params.tag_len);
  CipherJob jobs[] = {job};
  const BatchReport report = run_batch(spec, Direction::encrypt, jobs, BatchOptions{engine, params.xts_unit});
  if (engine_used) *engine_used = report.engine;
  throw_on_failure(jobs[0]);
  out.resize(jobs[0].out_len + (spec.is_aead() ? params.tag_len : 0));
  return out;
}

bytes decrypt(const CipherSpec& spec, const CipherParams& params, bytes_view ciphertext, std::string_view engine,
              std::string* engine_used) {
  check_tag_len(spec, params.tag_len);
  bytes_view body = ciphertext;
  bytes tag;
  if (spec.is_aead()) {
    if (ciphertext.size() < params.tag_len) throw BadDecrypt("ciphertext is shorter than the GCM tag");
    body = ciphertext.first(ciphertext.size() - params.tag_len);
    tag.assign(ciphertext.end() - static_cast<std::ptrdiff_t>(params.tag_len), ciphertext.end());
  }
  bytes out(body.size());
  CipherJob jobs[] = {CipherJob{params.key, params.iv, body, out, params.aad, tag}};
  const BatchReport report = run_batch(spec, Direction::decrypt, jobs, BatchOptions{engine, params.xts_unit});
  if (engine_used) *engine_used = report.engine;
  throw_on_failure(jobs[0]);
  out.resize(jobs[0].out_len);
  return out;
}

}  // namespace cryptaccel
