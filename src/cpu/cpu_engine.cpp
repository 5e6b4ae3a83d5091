// The `cpu` engine: x86-64 crypto instructions on every core. Backends (one file each) are chosen here from CPUID;
// dispatch (src/engine/dispatch.cpp) spreads jobs and splits large messages over the thread pool.
//   AES, all modes        openssl_aes.cpp     OpenSSL EVP: AES-NI / VAES, PCLMULQDQ / VPCLMULQDQ GHASH
//   hashes (batches)      openssl_digest.cpp  OpenSSL EVP: SHA-NI, AVX2 / AVX-512 SHA-512 and Keccak
//   SHA-224/256 streaming sha256_shani.cpp    SHA-NI; other streaming hashes use the portable block functions
//   SM4 ECB/CBC/CTR/GCM   sm4_modes.cpp       SM4 S-box through AESENCLAST + PSHUFB affine maps (sm4_aesni_*.cpp),
//                                             PCLMULQDQ GHASH (ghash_pclmul.cpp)
//   GCM split over threads                    engine/gcm_split.cpp with this engine's building blocks (gcm_split_key)
// Keccak-f batches are not in this engine yet: `auto` serves them from `ref` (constant-time, bitsliced).
#include "cpu/cpu_engine.hpp"

#include "algo/hash_message.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/openssl_aes.hpp"
#include "cpu/openssl_digest.hpp"
#include "cpu/sha256_shani.hpp"
#include "cpu/sm4_modes.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cpu {
namespace {

void portable_blocks(HashAlgorithm algorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  algo::hash_blocks(engine::to_variant(algorithm), state, blocks, n);
}

void shani_blocks(HashAlgorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  std::uint32_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint32_t>(state[i]);
  sha256_shani_blocks(h, blocks, n);
  for (int i = 0; i < 8; ++i) state[i] = h[i];
}

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
    return spec.cipher == BlockCipher::sm4 ? sm4_cpu_supports(spec) : openssl_aes_supports(spec);
  }
  void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                       const BatchOptions& options) const override {
    if (spec.cipher == BlockCipher::sm4) {
      for (CipherJob& job : jobs)
        if (job.status == JobStatus::pending) sm4_cpu_run(spec, dir, job);
      return;
    }
    EvpContext ctx;
    for (CipherJob& job : jobs)
      if (job.status == JobStatus::pending) openssl_aes_run(ctx, spec, dir, job, options.xts_unit);
  }
  std::unique_ptr<engine::GcmSplitKey> gcm_split_key(BlockCipher cipher, bytes_view key) const override {
    if (cipher == BlockCipher::sm4) return sm4_cpu_gcm_split_key(key);
    return openssl_aes_gcm_split_key(cipher, key);
  }

  bool supports_hash(HashAlgorithm algorithm) const override { return openssl_digest_supports(algorithm); }
  HashBlocksFn hash_blocks_function(HashAlgorithm algorithm) const override {
    const bool sha256_family = algorithm == HashAlgorithm::sha224 || algorithm == HashAlgorithm::sha256;
    const CpuFeatures& f = cpu_features();
    if (sha256_family && f.sha_ni && f.ssse3) return &shani_blocks;
    return &portable_blocks;
  }
  void run_hash_jobs(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions&) const override {
    openssl_digest_run(algorithm, jobs);
  }
  bool supports_keccak_batch() const override { return false; }
  void run_keccak_permutations(std::span<KeccakState>) const override {}
};

}  // namespace

const engine::Engine& cpu_engine() {
  static const CpuEngine engine;
  return engine;
}

}  // namespace cryptaccel::cpu
