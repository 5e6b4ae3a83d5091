// The `cpu` engine: x86-64 crypto instructions on every core. Backends (one file each) are chosen here from CPUID;
// dispatch (src/engine/dispatch.cpp) spreads jobs and splits large messages over the thread pool.
//   AES, all modes        openssl_aes.cpp     OpenSSL EVP: AES-NI / VAES, PCLMULQDQ / VPCLMULQDQ GHASH, where the
//                                             kernels below do not serve
//   AES-CTR               aes_ctr_vaes.cpp    VAES, sixteen blocks in flight
//   AES ECB, CBC          aes_ecb_cbc_vaes.cpp  VAES (ECB, CBC decryption), AES-NI (CBC encryption, serial)
//   AES-GCM               aes_gcm_vaes.cpp    VAES counter mode + VPCLMULQDQ GHASH in one pass, one-shot and split
//   AES-XTS units <= 16 KiB  aes_xts_aesni.cpp  our AES-NI XTS kernel (key schedules once per call; kXtsKernelMaxUnit)
//   SHA-crypt             cpu_shacrypt.cpp    rounds of many candidates in lock-step on the multi-buffer SHA-2 kernels
//   hashes, Keccak-f      cpu_hash.cpp        multi-buffer SHA-NI / AVX2 kernels for batches, SHA-NI or OpenSSL EVP
//                                             one message at a time, SHA-NI / portable block functions for streaming
//   SM4 ECB/CBC/CTR/GCM   sm4_modes.cpp       SM4 S-box through AESENCLAST + PSHUFB affine maps (sm4_aesni_*.cpp),
//                                             PCLMULQDQ GHASH (ghash_pclmul.cpp)
//   RSA private 2048-4096 rsa_ifma_mb.cpp     IFMA: 4 operations of one size (8 CRT halves, one per lane) per call;
//                         rsa_ifma.cpp        one operation's two CRT halves at once; else OpenSSL (rsa_openssl.cpp)
//   GCM split over threads                    engine/gcm_split.cpp with this engine's building blocks (gcm_split_key)
//   one XTS data unit split over threads      engine/xts_split.cpp with aes_xts_aesni.cpp (our AES-NI XTS kernel that
//                                             starts at any block; xts_split_key)
#include "cpu/cpu_engine.hpp"
#include "cpu/chacha20_poly1305_evp.hpp"

#include <algorithm>

#include "cpu/aes_ctr_vaes.hpp"
#include "cpu/aes_ecb_cbc_vaes.hpp"
#include "cpu/aes_gcm_vaes.hpp"
#include "cpu/aes_xts_aesni.hpp"
#include "common/cpu_features.hpp"
#include "cpu/cpu_hash.hpp"
#include "cpu/cpu_shacrypt.hpp"
#include "cpu/openssl_aes.hpp"
#include "cpu/rsa_openssl.hpp"
#include "cpu/sm4_modes.hpp"

namespace cryptaccel::cpu {
namespace {

class CpuEngine final : public engine::Engine {
 public:
  std::string_view name() const override { return "cpu"; }
  std::string_view description() const override {
    return "x86-64 AES-NI/VAES, PCLMULQDQ, SHA-NI (AES through OpenSSL libcrypto, SM4 on AES-NI), on all cores";
  }
  std::string unavailable_reason() const override {
    const CpuFeatures& f = cpu_features();
    if (!f.aesni || !f.pclmulqdq) return "this CPU lacks AES-NI and PCLMULQDQ (features: " + f.names() + ")";
    return {};
  }
  bool runs_on_host_threads() const override { return true; }

  bool supports(const CipherSpec& spec, Direction) const override {
    if (spec.mode == Mode::poly1305) return true;
    return spec.cipher == BlockCipher::sm4 ? sm4_cpu_supports(spec) : openssl_aes_supports(spec);
  }
  void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                       const BatchOptions& options) const override {
    if (spec.mode == Mode::poly1305) {
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) chacha20_poly1305_run(dir, job);
      chacha20_poly1305_wipe_key();
      return;
    }
    if (spec.cipher == BlockCipher::sm4) {
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) sm4_cpu_run(spec, dir, job);
      return;
    }
    if (spec.mode == Mode::xts) {
      // Small data units (or every unit, when forced) on our AES-NI XTS kernel, the rest on OpenSSL's fused XTS
      // below (kXtsKernelMaxUnit says why).
      for (CipherJob& job : jobs) {
        const std::size_t unit = options.xts_unit != 0 ? std::min(options.xts_unit, job.in.size()) : job.in.size();
        if (job.status == JobStatus::pending && aes_xts_aesni_serves(unit))
          aes_xts_aesni_run(spec, dir, job, options.xts_unit);
      }
    }
    if (aes_ctr_vaes_serves(spec)) {  // AES-128/256-CTR on VAES (four blocks per instruction) where the CPU has it
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) aes_ctr_vaes_run(spec, job);
      return;
    }
    if (aes_ecb_cbc_vaes_serves(spec)) {  // AES-128/256 ECB and CBC on VAES / AES-NI, no EVP context per call
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) aes_ecb_cbc_vaes_run(spec, dir, job);
      return;
    }
    if (aes_gcm_vaes_serves(spec)) {  // AES-128/256-GCM, counter mode and GHASH in one pass on VAES + VPCLMULQDQ
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) aes_gcm_vaes_run(spec, dir, job);
      return;
    }
    EvpContext& ctx = EvpContext::for_this_thread();
    struct WipeOnExit {
      EvpContext& ctx;
      ~WipeOnExit() { ctx.wipe_key(); }
    } wipe{ctx};
    for (CipherJob& job : jobs)
      if (job.status == JobStatus::pending) openssl_aes_run(ctx, spec, dir, job, options.xts_unit);
  }
  std::unique_ptr<engine::GcmSplitKey> gcm_split_key(BlockCipher cipher, bytes_view key) const override {
    if (cipher == BlockCipher::sm4) return sm4_cpu_gcm_split_key(key);
    if (auto vaes = aes_gcm_vaes_split_key(cipher, key)) return vaes;
    return openssl_aes_gcm_split_key(cipher, key);
  }
  std::unique_ptr<engine::XtsSplitKey> xts_split_key(BlockCipher cipher, bytes_view key) const override {
    return aes_xts_aesni_split_key(cipher, key);
  }

  bool supports_hash(HashAlgorithm) const override { return true; }
  HashBlocksFn hash_blocks_function(HashAlgorithm algorithm) const override {
    return cpu_hash_blocks_function(algorithm);
  }
  void run_hash_jobs(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions&) const override {
    cpu_hash_batch(algorithm, jobs);
  }
  bool supports_keccak_batch() const override { return true; }
  void run_keccak_permutations(std::span<KeccakState> states) const override { cpu_keccak_permutations(states); }

  bool supports_rsa(std::size_t bits) const override { return bits <= 8192; }
  void run_rsa_private(std::span<const engine::RsaPrivateJob> jobs) const override { cpu_rsa_private(jobs); }
  void run_rsa_public(std::span<const engine::RsaPublicJob> jobs) const override { cpu_rsa_public(jobs); }
  void run_modexp(const rsa::Modulus& modulus, bytes_view exponent,
                  std::span<const engine::ModexpJob> jobs) const override {
    cpu_modexp(modulus, exponent, jobs);
  }

  bool supports_shacrypt(ShaCryptVariant) const override { return true; }
  void run_shacrypt_jobs(std::span<ShaCryptJob> jobs, const BatchOptions&) const override { cpu_shacrypt_batch(jobs); }
};

}  // namespace

const engine::Engine& cpu_engine() {
  static const CpuEngine engine;
  return engine;
}

}  // namespace cryptaccel::cpu
