#include "cpu/chacha20_poly1305_evp.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "algo/poly1305.hpp"
#include "cryptaccel/types.hpp"
#include "common/openssl_ptr.hpp"

namespace cryptaccel::cpu {
namespace {

/// Messages (with their AAD) shorter than this go through the portable functions: EVP's per-message set-up costs
/// more than their arithmetic. `speed --engine ref --vs openssl` on the Xeon of bench/results/2026-11-28c-xeon-2c-
/// fresh-output, one thread: 2.18x OpenSSL at 16 bytes, 1.99x at 64, 0.95x at 256, 0.36x at 1 KiB.
constexpr std::size_t kPortableBelow = 256;

/// This thread's context with the cipher set up once (EVP_CipherInit_ex2 then only takes key and nonce per job).
EVP_CIPHER_CTX* context_for_this_thread() {
  thread_local CipherCtxPtr ctx = [] {
    CipherCtxPtr c(EVP_CIPHER_CTX_new());
    static EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr);
    if (c && (!cipher || EVP_CipherInit_ex2(c.get(), cipher, nullptr, nullptr, 1, nullptr) != 1)) c.reset();
    return c;
  }();
  return ctx.get();
}

void fail(CipherJob& job, JobStatus status, const char* why) {
  ERR_clear_error();
  job.status = status;
  job.out_len = 0;
  job.error = why;
}

/// EVP_CipherUpdate over any length (its length argument is an int).
bool update(EVP_CIPHER_CTX* ctx, std::uint8_t* out, const std::uint8_t* in, std::size_t len) {
  for (std::size_t done = 0; done < len;) {
    const int n = static_cast<int>(std::min<std::size_t>(len - done, INT_MAX / 2));
    int written = 0;
    if (EVP_CipherUpdate(ctx, out ? out + done : nullptr, &written, in + done, n) != 1) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void chacha20_poly1305_run(Direction dir, CipherJob& job) {
  const bool encrypt = dir == Direction::encrypt;
  if (job.in.size() + job.aad.size() < kPortableBelow) {
    // Short messages: the portable round functions, without EVP's set-up.
    const bool ok = encrypt ? (algo::chacha20_poly1305_seal(job.key.data(), job.iv.data(), job.aad.data(),
                                                            job.aad.size(), job.in.data(), job.out.data(),
                                                            job.in.size(), job.tag.data()),
                               true)
                            : algo::chacha20_poly1305_open(job.key.data(), job.iv.data(), job.aad.data(),
                                                           job.aad.size(), job.in.data(), job.out.data(),
                                                           job.in.size(), job.tag.data());
    if (!ok) return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
    job.out_len = job.in.size();
    job.status = JobStatus::ok;
    return;
  }
  EVP_CIPHER_CTX* ctx = context_for_this_thread();
  if (!ctx) return fail(job, JobStatus::invalid_argument, "this OpenSSL has no ChaCha20-Poly1305");
  const std::size_t len = job.in.size();
  if (EVP_CipherInit_ex2(ctx, nullptr, job.key.data(), job.iv.data(), encrypt ? 1 : 0, nullptr) != 1 ||
      (!encrypt && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, job.tag.data()) != 1) ||
      !update(ctx, nullptr, job.aad.data(), job.aad.size()) || !update(ctx, job.out.data(), job.in.data(), len))
    return fail(job, JobStatus::invalid_argument, "OpenSSL ChaCha20-Poly1305 failed");
  std::uint8_t unused[16];
  int written = 0;
  if (EVP_CipherFinal_ex(ctx, unused, &written) != 1) {
    if (!encrypt) {
      secure_wipe(job.out.data(), len);  // decrypted before the tag was known: wiped, never released
      return fail(job, JobStatus::auth_failed, "authentication failed: tag mismatch");
    }
    return fail(job, JobStatus::invalid_argument, "OpenSSL ChaCha20-Poly1305 failed");
  }
  if (encrypt && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, job.tag.data()) != 1)
    return fail(job, JobStatus::invalid_argument, "OpenSSL ChaCha20-Poly1305 failed");
  job.out_len = len;
  job.status = JobStatus::ok;
}

void chacha20_poly1305_wipe_key() {
  EVP_CIPHER_CTX* ctx = context_for_this_thread();
  const std::uint8_t zero_key[32] = {}, zero_nonce[12] = {};
  if (ctx && EVP_CipherInit_ex2(ctx, nullptr, zero_key, zero_nonce, 1, nullptr) != 1) ERR_clear_error();
}

}  // namespace cryptaccel::cpu
