// The cpu engine's SHA-crypt backend choice (see cpu_shacrypt.hpp for the table).
#include "cpu/cpu_shacrypt.hpp"
#include "engine/shacrypt_portable.hpp"

#include <array>
#include <stdexcept>

#include "algo/shacrypt.hpp"
#include "common/cpu_features.hpp"

namespace cryptaccel::cpu {
namespace {

/// A lane kernel that can run one variant's rounds, in order of preference.
struct ShaCryptKernel {
  ShaCryptVariant variant;
  const LaneKernel& (*kernel)();
  bool (*runs_here)(const CpuFeatures&);
  const char* needs;
  /// Batches of at most this many candidates run one at a time on the portable code (default path only): where
  /// that many portable block calls cost less than one kernel call.
  std::size_t portable_up_to;
};

// Zen 1 per lane-block: SHA-NI x2 30 ns and AVX2 x8 150 ns for SHA-256; AVX2 x4 340 ns for SHA-512, against
// 530 ns for the portable block function (src/cpu/cpu_hash.cpp has the measurements).
const std::array<ShaCryptKernel, 3>& kernels() {
  static const std::array<ShaCryptKernel, 3> table = {{
      {ShaCryptVariant::sha256, &sha256_shani_x2_kernel, [](const CpuFeatures& f) { return f.sha_ni && f.ssse3; },
       "SHA-NI", 0},
      {ShaCryptVariant::sha256, &sha256_avx2_x8_kernel, [](const CpuFeatures& f) { return f.avx2; }, "AVX2", 2},
      {ShaCryptVariant::sha512, &sha512_avx2_x4_kernel, [](const CpuFeatures& f) { return f.avx2; }, "AVX2", 2},
  }};
  return table;
}

constexpr std::string_view kPortable = "portable";

/// One job at a time with the specification's step-by-step code (what `ref` runs).
void run_portable(ShaCryptVariant variant, std::span<ShaCryptJob> jobs) { engine::run_shacrypt_portable(jobs, variant); }

std::string_view variant_name(ShaCryptVariant v) { return v == ShaCryptVariant::sha512 ? "sha512crypt" : "sha256crypt"; }

/// Runs the pending jobs of `variant` in `jobs` with backend `name` (assumed runnable); others stay pending.
/// `forced`: every batch through the kernel, however few candidates it has (tests).
void run_variant(std::string_view name, ShaCryptVariant variant, std::span<ShaCryptJob> jobs, bool forced) {
  if (name == kPortable) {
    run_portable(variant, jobs);
    return;
  }
  for (const ShaCryptKernel& k : kernels())
    if (k.variant == variant && name == k.kernel().name)
      shacrypt_run_lanes(k.kernel(), variant, jobs, forced ? 0 : k.portable_up_to);
}

}  // namespace

std::vector<HashBackend> shacrypt_backends(ShaCryptVariant variant) {
  std::vector<HashBackend> out;
  const CpuFeatures& f = cpu_features();
  for (const ShaCryptKernel& k : kernels()) {
    if (k.variant != variant) continue;
    out.push_back({k.kernel().name, k.runs_here(f) ? std::string()
                                                   : std::string("needs ") + k.needs +
                                                         " (this CPU, after CRYPTACCEL_CPU_MASK, has: " + f.names() + ")"});
  }
  out.push_back({std::string(kPortable), {}});
  return out;
}

std::string default_shacrypt_backend(ShaCryptVariant variant) {
  for (const HashBackend& b : shacrypt_backends(variant))
    if (b.missing.empty()) return b.name;
  return std::string(kPortable);
}

void run_shacrypt_backend(std::string_view name, std::span<ShaCryptJob> jobs) {
  ShaCryptVariant variant = ShaCryptVariant::sha256;
  bool known = false;
  for (ShaCryptVariant v : {ShaCryptVariant::sha256, ShaCryptVariant::sha512}) {
    for (const HashBackend& b : shacrypt_backends(v)) {
      if (b.name != name) continue;
      if (!b.missing.empty()) throw std::invalid_argument(std::string(name) + " " + b.missing);
      variant = v, known = true;
    }
  }
  if (!known) throw std::invalid_argument("no cpu SHA-crypt backend '" + std::string(name) + "'");
  if (name == kPortable) {
    for (ShaCryptVariant v : {ShaCryptVariant::sha256, ShaCryptVariant::sha512}) run_portable(v, jobs);
    return;
  }
  for (const ShaCryptJob& job : jobs)
    if (job.status == JobStatus::pending && job.setting->variant != variant)
      throw std::invalid_argument(std::string(name) + " runs " + std::string(variant_name(variant)) + " only");
  run_variant(name, variant, jobs, true);
}

void cpu_shacrypt_batch(std::span<ShaCryptJob> jobs) {
  for (ShaCryptVariant v : {ShaCryptVariant::sha256, ShaCryptVariant::sha512})
    run_variant(default_shacrypt_backend(v), v, jobs, false);
}

}  // namespace cryptaccel::cpu
