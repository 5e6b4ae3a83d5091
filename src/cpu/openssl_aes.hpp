// The cpu engine's AES modes through OpenSSL libcrypto's EVP (AES-NI, VAES and VPCLMULQDQ code paths that OpenSSL
// selects from CPUID): OpenSSL is already at the limit for one AES stream per core, so the cpu engine calls it for
// that and adds its own threading, batching and splitting around it. Padding is checked here, in constant time
// (EVP's own padding check is not), and plaintext is wiped when a tag or padding check fails.
#pragma once
#include <cstddef>
#include <memory>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// An EVP cipher context reused across jobs and engine calls on one thread: setting up a context for a cipher
/// allocates, so jobs with the cipher of the previous job only load their key and IV (as `openssl speed` does).
/// The key schedule left in it is overwritten by wipe_key() at the end of every engine call.
class EvpContext {
 public:
  EvpContext();
  ~EvpContext();
  EvpContext(const EvpContext&) = delete;
  EvpContext& operator=(const EvpContext&) = delete;
  /// This thread's context.
  static EvpContext& for_this_thread();
  /// Replaces the loaded key schedule (and GCM's H) with one from a fixed non-secret key.
  void wipe_key() noexcept;
  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

/// Whether this backend implements `spec` (AES in every mode).
bool openssl_aes_supports(const CipherSpec& spec);

/// Runs one validated, pending AES job; sets status, out_len and error like the ref engine.
void openssl_aes_run(EvpContext& ctx, const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit);

/// AES-GCM building blocks for one job split over threads (src/engine/gcm_split.hpp): EVP's AES-CTR, cut where
/// GCM's 32-bit counter wraps (EVP's CTR carries into all 128 bits), and the PCLMULQDQ GHASH of ghash_pclmul.hpp.
std::unique_ptr<engine::GcmSplitKey> openssl_aes_gcm_split_key(BlockCipher cipher, bytes_view key);

}  // namespace cryptaccel::cpu
