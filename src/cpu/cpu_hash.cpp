#include "cpu/cpu_hash.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "algo/hash_message.hpp"
#include "algo/sm3.hpp"
#include "common/cpu_features.hpp"
#include "cpu/hash_lanes.hpp"
#include "cpu/openssl_digest.hpp"
#include "cpu/sha256_shani.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cpu {
namespace {

using algo::HashFamily;

/// Messages this long or longer are hashed one at a time (EVP / SHA-NI) unless there are enough of them to fill
/// every lane: a long message in a lane keeps the kernel running with idle lanes once the short ones are done.
constexpr std::size_t kLongMessageBytes = 64 * 1024;

HashFamily family_of(HashAlgorithm a) { return algo::hash_family(engine::to_variant(a)); }

// SHA-NI CPUs (Goldmont, Zen, Ice Lake and later) all have SSE4.1, which the SHA-NI code also uses.
bool has_shani(const CpuFeatures& f) { return f.sha_ni && f.ssse3; }
bool has_avx2(const CpuFeatures& f) { return f.avx2; }
bool has_avx512(const CpuFeatures& f) { return f.avx512f && f.avx512bw; }
/// The 16-lane SHA-256 kernel is the default on Intel CPUs (measured ahead of SHA-NI x2 there:
/// bench/results/2026-11-28-xeon-2c-sm4-gfni/sha256-batch-ab.txt) and on CPUs without SHA-NI; elsewhere (Zen 4,
/// whose 512-bit operations run as two halves, beside a fast SHA-NI) SHA-NI x2 stays first.
bool prefer_avx512_sha256(const CpuFeatures& f) { return f.intel || !has_shani(f); }

/// A multi-buffer kernel and when to use it.
struct KernelEntry {
  HashFamily family;
  const LaneKernel& (*kernel)();
  bool (*runs_here)(const CpuFeatures&);
  const char* needs;  ///< the feature runs_here checks, for messages
  /// Whether it is the default where it runs (nullptr: always); else it runs only when named (tests, benchmarks).
  bool (*preferred)(const CpuFeatures&);
  /// LaneOptions::drain_lanes for the default path: the number of busy lanes at or below which finishing their
  /// messages one at a time (SHA-NI where present, else the portable block function) beats running the kernel:
  /// kernel time per call-block over one-message time per block.
  std::size_t drain_lanes;
  /// Messages this long or longer go to the one-message path (EVP) however many there are: where that path's
  /// per-block speed beats the kernel's per-lane speed, and only its per-message overhead made lanes worth it.
  std::size_t single_from_bytes;
};

constexpr std::size_t kNever = SIZE_MAX;

// In order of preference for each family (the first that runs here is the default). The numbers were measured on
// AMD Zen 1 (EPYC 7001: SHA-NI, and AVX2 executed as two 128-bit halves), per lane and per 64-byte-ish block:
//   SHA-256  SHA-NI x2 30 ns, SHA-NI one message 53 ns, AVX2 x8 150 ns, portable ~500 ns
//   SHA-512  AVX2 x4 340 ns, OpenSSL (scalar, RORX) 280 ns + ~250 ns per message, portable 530 ns (128-byte blocks)
//   SM3      AVX2 x8 140 ns, OpenSSL 330 ns, portable ~700 ns
//   SHA3-256 AVX2 x4 435 ns, OpenSSL 480 ns, portable 620 ns (136-byte blocks)
// CPUs with full-width AVX2 (Intel since Haswell, AMD since Zen 2) should run the AVX2 kernels about twice as fast
// relative to scalar code; SHA-512's cut-over to OpenSSL is conservative there. On the Intel Xeon of
// bench/results/2026-11-28-xeon-2c-sm4-gfni (AVX-512, SHA-NI), batches of 4096 SHA-256 messages against OpenSSL one
// by one, medians of five: AVX-512 x16 1.56x at 64 B and 1.93x at 1 KiB, SHA-NI x2 1.49x and 1.22x.
const std::array<KernelEntry, 7>& kernels() {
  static const std::array<KernelEntry, 7> table = {{
      {HashFamily::sha256, &sha256_avx512_x16_kernel, &has_avx512, "AVX-512 F/BW", &prefer_avx512_sha256, 1, kNever},
      {HashFamily::sha256, &sha256_shani_x2_kernel, &has_shani, "SHA-NI", nullptr, 1, kNever},
      {HashFamily::sha256, &sha256_avx2_x8_kernel, &has_avx2, "AVX2", nullptr, 1, kNever},
      {HashFamily::sha512, &sha512_avx2_x4_kernel, &has_avx2, "AVX2", nullptr, 2, 256},
      {HashFamily::sm3, &sm3_avx512_x16_kernel, &has_avx512, "AVX-512 F/BW", nullptr, 1, kNever},
      {HashFamily::sm3, &sm3_avx2_x8_kernel, &has_avx2, "AVX2", nullptr, 1, kNever},
      {HashFamily::keccak, &keccak_avx2_x4_kernel, &has_avx2, "AVX2", nullptr, 2, kNever},
  }};
  return table;
}

const KernelEntry* default_kernel(HashAlgorithm a) {
  for (const KernelEntry& k : kernels())
    if (k.family == family_of(a) && k.runs_here(cpu_features()) && (!k.preferred || k.preferred(cpu_features())))
      return &k;
  return nullptr;
}

void portable_blocks(HashAlgorithm algorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  algo::hash_blocks(engine::to_variant(algorithm), state, blocks, n);
}

/// The portable block functions compiled for BMI1/BMI2 (ANDN for Keccak's chi, RORX for its rotations): 20% fewer
/// cycles per Keccak-f[1600] than the generic x86-64 build, and ahead of OpenSSL's EVP SHA-3 for short messages
/// (909 vs 940 TSC cycles for a 16-byte SHA3-256 on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes; 6364 vs
/// 5999 at 1 KiB, where OpenSSL's assembly permutation wins). `flatten` inlines the header's code, so it is
/// compiled for these features here.
__attribute__((target("bmi,bmi2"), flatten)) void bmi_blocks(HashAlgorithm algorithm, std::uint64_t state[25],
                                                             const std::uint8_t* blocks, std::size_t n) {
  algo::hash_blocks(engine::to_variant(algorithm), state, blocks, n);
}
bool has_bmi(const CpuFeatures& f) { return f.bmi1 && f.bmi2; }

/// SM3 alone, compiled for BMI2 (RORX): bmi_blocks serves every family from one large function, which cost a
/// one-block SM3 message about 80 TSC cycles more.
__attribute__((target("bmi,bmi2"), flatten)) void sm3_bmi_blocks(HashAlgorithm, std::uint64_t state[25],
                                                                 const std::uint8_t* blocks, std::size_t n) {
  std::uint32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = static_cast<std::uint32_t>(state[i]);
  algo::sm3_blocks(v, blocks, n);
  for (int i = 0; i < 8; ++i) state[i] = v[i];
}

/// Whether one Keccak message goes through bmi_blocks rather than OpenSSL: when it fits in one block with its
/// padding (one permutation). There the two tie, and EVP's fixed cost per message would come on top; from two
/// permutations on, OpenSSL's assembly permutation is ahead (about 720 against 780 TSC cycles; interleaved speed
/// runs at 256 bytes: 0.90x through bmi_blocks, bench/results/2026-11-28b-xeon-2c-short-msgs).
bool keccak_on_bmi(HashAlgorithm algorithm, std::size_t len) {
  return len < algo::hash_block_size(engine::to_variant(algorithm));
}

void shani_blocks(HashAlgorithm, std::uint64_t state[25], const std::uint8_t* blocks, std::size_t n) {
  std::uint32_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint32_t>(state[i]);
  sha256_shani_blocks(h, blocks, n);
  for (int i = 0; i < 8; ++i) state[i] = h[i];
}

/// A one-message state for run_messages: the 25-word state every block function takes (HashBlocksFn).
class BlocksFnState {
 public:
  BlocksFnState(engine::Engine::HashBlocksFn fn, HashAlgorithm algorithm) : fn_(fn), algorithm_(algorithm) {}
  ~BlocksFnState() { secure_wipe(s_, sizeof s_); }
  void init() { algo::hash_init(engine::to_variant(algorithm_), s_); }
  void absorb(const std::uint8_t* blocks, std::size_t n) { fn_(algorithm_, s_, blocks, n); }
  void digest(mutable_bytes out) { write_digest(algorithm_, s_, out); }

 private:
  engine::Engine::HashBlocksFn fn_;
  HashAlgorithm algorithm_;
  std::uint64_t s_[25];
};

/// SHA-224/256's state as the eight 32-bit words SHA-NI uses (a 25-word state would cost a conversion each way per
/// message).
class ShaNiState {
 public:
  explicit ShaNiState(HashAlgorithm algorithm) {
    std::uint64_t initial[25];
    algo::hash_init(engine::to_variant(algorithm), initial);
    for (int i = 0; i < 8; ++i) iv_[i] = static_cast<std::uint32_t>(initial[i]);
  }
  ~ShaNiState() { secure_wipe(h_, sizeof h_); }
  void init() { std::copy(iv_, iv_ + 8, h_); }
  void absorb(const std::uint8_t* blocks, std::size_t n) { sha256_shani_blocks(h_, blocks, n); }
  void digest(mutable_bytes out) {
    for (std::size_t i = 0; 4 * i < out.size(); ++i) algo::store_be32(out.data() + 4 * i, h_[i]);
  }

 private:
  std::uint32_t iv_[8], h_[8];
};

/// Every pending job of at least `min_bytes` bytes, one at a time on `state` (BlocksFnState, ShaNiState), with the
/// framing of hash_lanes.hpp: the whole blocks in place, then the padded final blocks.
template <class State>
void run_messages(State& state, HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes) {
  const std::size_t block = algo::hash_block_size(engine::to_variant(algorithm));
  alignas(32) std::uint8_t last[kFinalBlocksBytes];
  std::size_t used = 0;  // bytes of `last` to wipe
  for (HashJob& job : jobs) {
    if (job.status != JobStatus::pending || job.in.size() < min_bytes) continue;
    const std::size_t len = job.in.size(), whole = len / block;
    state.init();
    if (whole) state.absorb(job.in.data(), whole);
    const std::size_t n = build_final_blocks(algorithm, job.in.data() + whole * block, len - whole * block, len, last);
    state.absorb(last, n);
    used = std::max(used, n * block);
    state.digest(job.digest);
    job.status = JobStatus::ok;
  }
  secure_wipe(last, used);
}

/// Every pending job of at least `min_bytes` bytes, one at a time, with block function `fn`.
void run_one_by_one(engine::Engine::HashBlocksFn fn, HashAlgorithm algorithm, std::span<HashJob> jobs,
                    std::size_t min_bytes = 0) {
  BlocksFnState state(fn, algorithm);
  run_messages(state, algorithm, jobs, min_bytes);
}

/// SHA-224/256 messages one at a time on SHA-NI.
void run_shani_one_by_one(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes) {
  ShaNiState state(algorithm);
  run_messages(state, algorithm, jobs, min_bytes);
}

/// The fastest way to hash messages one at a time (pending ones of at least `min_bytes`): SHA-NI for SHA-224/256,
/// the BMI build of the portable Keccak for short SHA-3/SHAKE messages, OpenSSL's low-level SHA-512 functions for the
/// SHA-512 family, the BMI build of the portable SM3, else OpenSSL's EVP.
void run_single(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes = 0) {
  if (family_of(algorithm) == HashFamily::sha256 && has_shani(cpu_features())) {
    run_shani_one_by_one(algorithm, jobs, min_bytes);
  } else if (family_of(algorithm) == HashFamily::keccak && has_bmi(cpu_features())) {
    // Short messages on bmi_blocks, long ones on OpenSSL's permutation.
    for (HashJob& job : jobs) {
      if (job.status != JobStatus::pending || job.in.size() < min_bytes) continue;
      const std::span<HashJob> one(&job, 1);
      if (keccak_on_bmi(algorithm, job.in.size()) || !openssl_digest_supports(algorithm)) {
        run_one_by_one(&bmi_blocks, algorithm, one);
      } else {
        openssl_digest_run(algorithm, one);
      }
    }
  } else if (family_of(algorithm) == HashFamily::sm3) {
    // OpenSSL's SM3 is portable C behind EVP's fixed cost per message (about 180 TSC cycles); the block function
    // here is faster per block as well (BMI: 422 against 477 TSC cycles per block at 1 KiB, and 444 against 654 for
    // a whole 16-byte message, on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes).
    run_one_by_one(has_bmi(cpu_features()) ? &sm3_bmi_blocks : &portable_blocks, algorithm, jobs, min_bytes);
  } else if (family_of(algorithm) == HashFamily::sha512) {
    for (HashJob& job : jobs)
      if (job.status == JobStatus::pending && job.in.size() >= min_bytes) openssl_sha512_one(algorithm, job);
  } else if (openssl_digest_supports(algorithm)) {
    openssl_digest_run(algorithm, jobs, min_bytes);
  } else {
    run_one_by_one(&portable_blocks, algorithm, jobs, min_bytes);
  }
}

std::string missing_reason(const char* needs) {
  return std::string("needs ") + needs + " (this CPU, after CRYPTACCEL_CPU_MASK, has: " + cpu_features().names() + ")";
}

}  // namespace

std::vector<HashBackend> hash_backends(HashAlgorithm algorithm) {
  std::vector<HashBackend> out;
  const CpuFeatures& f = cpu_features();
  for (const KernelEntry& k : kernels())
    if (k.family == family_of(algorithm))
      out.push_back({k.kernel().name, k.runs_here(f) ? std::string() : missing_reason(k.needs)});
  if (family_of(algorithm) == HashFamily::sha256)
    out.push_back({"sha256-shani", has_shani(f) ? std::string() : missing_reason("SHA-NI")});
  out.push_back({"evp", openssl_digest_supports(algorithm) ? std::string() : "this OpenSSL lacks the algorithm"});
  return out;
}

std::string default_hash_backend(HashAlgorithm algorithm) {
  const KernelEntry* k = default_kernel(algorithm);
  return k ? k->kernel().name : "evp";
}

void run_hash_backend(std::string_view name, HashAlgorithm algorithm, std::span<HashJob> jobs) {
  const CpuFeatures& f = cpu_features();
  for (const KernelEntry& k : kernels()) {
    if (k.family != family_of(algorithm) || name != k.kernel().name) continue;
    if (!k.runs_here(f)) throw std::invalid_argument(std::string(name) + " " + missing_reason(k.needs));
    run_lanes(k.kernel(), algorithm, jobs, LaneOptions{});
    return;
  }
  if (name == "sha256-shani" && family_of(algorithm) == HashFamily::sha256) {
    if (!has_shani(f)) throw std::invalid_argument("sha256-shani " + missing_reason("SHA-NI"));
    run_shani_one_by_one(algorithm, jobs, 0);
    return;
  }
  if (name == "evp" && openssl_digest_supports(algorithm)) {
    openssl_digest_run(algorithm, jobs);
    return;
  }
  throw std::invalid_argument("no cpu hash backend '" + std::string(name) + "' for " +
                              std::string(hash_info(algorithm).name));
}

void cpu_hash_batch(HashAlgorithm algorithm, std::span<HashJob> jobs) {
  if (jobs.size() == 1) {  // the common call, one message: straight to the one-message path
    run_single(algorithm, jobs);
    return;
  }
  const KernelEntry* k = default_kernel(algorithm);
  if (!k) {
    run_single(algorithm, jobs);
    return;
  }
  const LaneKernel& kernel = k->kernel();
  std::size_t pending = 0, long_ones = 0;
  for (const HashJob& job : jobs) {
    if (job.status != JobStatus::pending) continue;
    ++pending;
    if (job.in.size() >= kLongMessageBytes) ++long_ones;
  }
  // Messages that the one-message path serves better: all from single_from_bytes on, and long ones too few to fill
  // the lanes.
  const std::size_t single_from = long_ones >= kernel.lanes ? k->single_from_bytes
                                                            : std::min(k->single_from_bytes, kLongMessageBytes);
  if (single_from != kNever) {
    std::size_t taken = 0;
    for (const HashJob& job : jobs) taken += job.status == JobStatus::pending && job.in.size() >= single_from;
    if (taken) run_single(algorithm, jobs, single_from);
    pending -= taken;
  }
  if (pending == 0) return;
  if (pending == 1) {
    run_single(algorithm, jobs);
    return;
  }
  run_lanes(kernel, algorithm, jobs, LaneOptions{k->drain_lanes, cpu_hash_blocks_function(algorithm)});
}

engine::Engine::HashBlocksFn cpu_hash_blocks_function(HashAlgorithm algorithm) {
  if (family_of(algorithm) == HashFamily::sha256 && has_shani(cpu_features())) return &shani_blocks;
  if (has_bmi(cpu_features())) return &bmi_blocks;
  return &portable_blocks;
}

void cpu_keccak_permutations(std::span<KeccakState> states) {
  if (has_avx2(cpu_features())) {
    keccak_f1600_avx2_x4(states);
    return;
  }
  for (KeccakState& s : states) algo::keccak_f1600(s.data());
}

}  // namespace cryptaccel::cpu
