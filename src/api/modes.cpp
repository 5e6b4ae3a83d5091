// One-shot encrypt/decrypt: a batch of one job, with failures turned into typed exceptions.
#include "cryptaccel/modes.hpp"

#include <algorithm>
#include <cstring>

#include "api/job_failure.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel {
namespace {

void check_tag_len(const CipherSpec& spec, std::size_t tag_len) {
  if (spec.mode == Mode::poly1305 && tag_len != 16)
    throw InvalidArgument("invalid ChaCha20-Poly1305 tag length " + std::to_string(tag_len) + " (expected 16)");
  if (spec.is_aead() && (tag_len < 4 || tag_len > 16))
    throw InvalidArgument("invalid GCM tag length " + std::to_string(tag_len) + " (expected 4..16 bytes)");
}

/// The AEAD parameters a call is refused for before its data is looked at (a wrong nonce length is a parameter error
/// even when the ciphertext is too short to hold a tag).
void check_aead_params(const CipherSpec& spec, const CipherParams& params) {
  check_tag_len(spec, params.tag_len);
  if (spec.mode == Mode::poly1305 && params.iv.size() != 12)
    throw InvalidArgument("invalid nonce length " + std::to_string(params.iv.size()) +
                          " bytes for chacha20-poly1305 (expected 12)");
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

std::size_t encrypt_into(const CipherSpec& spec, const CipherParams& params, bytes_view plaintext, mutable_bytes out,
                         std::string_view engine, std::string* engine_used) {
  check_aead_params(spec, params);
  const std::size_t body = spec.pads() ? encrypted_size(spec, plaintext.size()) : plaintext.size();
  const std::size_t tag_len = spec.is_aead() ? params.tag_len : 0;
  if (out.size() < body + tag_len)
    throw InvalidArgument("output buffer of " + std::to_string(out.size()) + " bytes is too small (" +
                          std::to_string(body + tag_len) + " needed)");
  CipherJob job{params.key, params.iv, plaintext, out.first(body), params.aad};
  if (spec.is_aead()) job.tag = out.subspan(body, tag_len);
  CipherJob jobs[] = {job};
  const BatchReport report = run_batch(spec, Direction::encrypt, jobs, BatchOptions{engine, params.xts_unit});
  if (engine_used) *engine_used = report.engine;
  throw_on_failure(jobs[0]);
  if (spec.is_aead() && jobs[0].out_len != body)  // the tag follows the ciphertext directly
    std::memmove(out.data() + jobs[0].out_len, out.data() + body, tag_len);
  return jobs[0].out_len + tag_len;
}

std::size_t decrypt_into(const CipherSpec& spec, const CipherParams& params, bytes_view ciphertext, mutable_bytes out,
                         std::string_view engine, std::string* engine_used) {
  check_aead_params(spec, params);
  bytes_view body = ciphertext;
  std::uint8_t tag[16] = {};
  if (spec.is_aead()) {
    if (ciphertext.size() < params.tag_len) throw BadDecrypt("ciphertext is shorter than the " + std::to_string(params.tag_len) + "-byte tag");
    body = ciphertext.first(ciphertext.size() - params.tag_len);
    std::memcpy(tag, ciphertext.data() + body.size(), params.tag_len);  // before an in-place decryption reaches it
  }
  if (out.size() < body.size())
    throw InvalidArgument("output buffer of " + std::to_string(out.size()) + " bytes is too small (" +
                          std::to_string(body.size()) + " needed)");
  CipherJob jobs[] = {CipherJob{params.key, params.iv, body, out.first(body.size()), params.aad,
                                mutable_bytes(tag, spec.is_aead() ? params.tag_len : 0)}};
  const BatchReport report = run_batch(spec, Direction::decrypt, jobs, BatchOptions{engine, params.xts_unit});
  if (engine_used) *engine_used = report.engine;
  if (jobs[0].status != JobStatus::ok) secure_wipe(out.data(), body.size());  // no unverified or unpadded plaintext
  throw_on_failure(jobs[0]);
  return jobs[0].out_len;
}

bytes encrypt(const CipherSpec& spec, const CipherParams& params, bytes_view plaintext, std::string_view engine,
              std::string* engine_used) {
  check_tag_len(spec, params.tag_len);
  bytes out(encrypted_size(spec, plaintext.size(), params.tag_len));
  out.resize(encrypt_into(spec, params, plaintext, out, engine, engine_used));
  return out;
}

bytes decrypt(const CipherSpec& spec, const CipherParams& params, bytes_view ciphertext, std::string_view engine,
              std::string* engine_used) {
  check_tag_len(spec, params.tag_len);
  bytes out(spec.is_aead() ? ciphertext.size() - std::min(ciphertext.size(), params.tag_len) : ciphertext.size());
  out.resize(decrypt_into(spec, params, ciphertext, out, engine, engine_used));
  return out;
}

}  // namespace cryptaccel
