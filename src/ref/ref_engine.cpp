// The `ref` engine: portable C++, constant-time bitsliced AES/SM4; dispatch spreads its jobs over host threads. The oracle for other engines.
#include "algo/hash_message.hpp"
#include "algo/keccak.hpp"
#include "algo/shacrypt.hpp"
#include "ref/ref_engine.hpp"
#include "engine/hash_variant.hpp"
#include "engine/shacrypt_portable.hpp"
#include "ref/cipher_modes.hpp"
#include "rsa/host_ops.hpp"

namespace cryptaccel::ref {
namespace {

using namespace engine;

void ref_hash_blocks(HashAlgorithm algorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  algo::hash_blocks(to_variant(algorithm), state, blocks, n);
}

class RefEngine final : public Engine {
 public:
  std::string_view name() const override { return "ref"; }
  std::string_view description() const override {
    return "portable C++20, spec-faithful, constant-time (bitsliced AES and SM4); the oracle for other engines";
  }
  std::string unavailable_reason() const override { return {}; }
  bool supports(const CipherSpec&, Direction) const override { return true; }
  bool runs_on_host_threads() const override { return true; }
  bool portable_reference() const override { return true; }
  void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                       const BatchOptions& options) const override {
    for (CipherJob& job : jobs)
      if (job.status == JobStatus::pending) ref::run_cipher_job(spec, dir, job, options.xts_unit);
  }

  std::unique_ptr<GcmSplitKey> gcm_split_key(BlockCipher cipher, bytes_view key) const override {
    return ref::make_gcm_split_key(cipher, key);
  }

  bool supports_hash(HashAlgorithm) const override { return true; }
  HashBlocksFn hash_blocks_function(HashAlgorithm) const override { return &ref_hash_blocks; }
  void run_hash_jobs(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions&) const override {
    for (HashJob& job : jobs) {
      if (job.status != JobStatus::pending) continue;
      algo::hash_message(to_variant(algorithm), job.in.data(), job.in.size(), job.digest.data(), job.digest.size());
      job.status = JobStatus::ok;
    }
  }
  bool supports_keccak_batch() const override { return true; }
  void run_keccak_permutations(std::span<KeccakState> states) const override {
    for (KeccakState& s : states) algo::keccak_f1600(s.data());
  }

  bool supports_rsa(std::size_t bits) const override { return bits <= 8192; }
  void run_rsa_private(std::span<const RsaPrivateJob> jobs) const override { rsa::ref_rsa_private(jobs); }
  void run_rsa_public(std::span<const RsaPublicJob> jobs) const override { rsa::ref_rsa_public(jobs); }
  void run_modexp(const rsa::Modulus& modulus, bytes_view exponent, std::span<const ModexpJob> jobs) const override {
    rsa::ref_modexp(modulus, exponent, jobs);
  }

  bool supports_shacrypt(ShaCryptVariant) const override { return true; }
  void run_shacrypt_jobs(std::span<ShaCryptJob> jobs, const BatchOptions&) const override {
    run_shacrypt_portable(jobs);
  }
};

}  // namespace

const Engine& ref_engine() {
  static const RefEngine engine;
  return engine;
}

}  // namespace cryptaccel::ref
