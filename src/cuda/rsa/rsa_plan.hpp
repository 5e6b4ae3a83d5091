// Host side of RSA on the GPU: exponentiation tasks (one per CRT half, public operation or raw modexp), grouped
// into launches by modulus size and exponent kind, split under a job limit, packed into the limb-interleaved layout of
// src/cuda/rsa/rsa_ops.hpp and unpacked back; plus a host emulation of a launch through the same per-thread body, for the
// CPU tests. Plain C++ (no CUDA): built and tested in every configuration.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda/rsa/rsa_kernel_variant.hpp"
#include "cuda/rsa/rsa_ops.hpp"
#include "rsa/modulus.hpp"

namespace cryptaccel::cuda {

/// One exponentiation out = base^exponent mod modulus, in the host's 64-bit limbs (modulus->limbs limbs for base and
/// out; out may alias base). The modulus' constants (R^2, n0) were computed once per key on the host.
struct RsaTask {
  const rsa::Modulus* modulus = nullptr;
  const rsa::limb* exponent = nullptr;
  std::size_t exponent_limbs = 0;  ///< limbs of `exponent`; at most modulus->limbs
  std::size_t exponent_bits = 0;   ///< secret kind: the public bound on its bits (the window count follows)
  RsaExpKind kind = RsaExpKind::secret;
  const rsa::limb* base = nullptr;
  rsa::limb* out = nullptr;
};

/// One launch: tasks of one modulus word count, one kind and (secret kind) one exponent bound.
struct RsaLaunch {
  std::size_t words = 0;          ///< N, 32-bit words per modulus (twice the host limbs)
  RsaExpKind kind = RsaExpKind::secret;
  std::uint32_t e_words = 0;      ///< E
  std::uint32_t e_bits = 0;
  RsaKernel kernel = RsaKernel::thread;  ///< the variant that runs it
  std::vector<std::size_t> tasks;  ///< indices into the task span, in order
  std::size_t count() const { return tasks.size(); }
  /// 32-bit words of the packed buffer (RsaLayout).
  std::uint64_t buffer_words() const { return RsaLayout::of(count(), words, e_words).words; }
};

/// Jobs per launch by default: enough to fill an H100 several times over (132 SMs x 2048 threads = 270 336) while a
/// 4096-bit launch's buffer stays at about 400 MiB.
inline constexpr std::size_t kRsaMaxJobsPerLaunch = std::size_t{1} << 19;

/// The launches for `tasks`: grouped by (modulus words, kind, exponent bound), in first-appearance order, each group
/// split into launches of at most `max_jobs`. A public exponent's E is the group's longest significant length (at
/// least one word). Each launch runs with `kernel` where that variant is built for its size, else with `thread`.
/// Throws InvalidArgument for a modulus size the kernels are not built for or an exponent longer than its modulus.
std::vector<RsaLaunch> rsa_plan(std::span<const RsaTask> tasks, std::size_t max_jobs = kRsaMaxJobsPerLaunch,
                                RsaKernel kernel = RsaKernel::thread);

/// Fills `buffer` (launch.buffer_words() words) with the launch's jobs in the layout of rsa_ops.hpp.
void rsa_pack(const RsaLaunch& launch, std::span<const RsaTask> tasks, rsa_word* buffer);

/// Copies each job's result (the x array of a finished launch's `buffer`) to its task's out.
void rsa_unpack(const RsaLaunch& launch, std::span<const RsaTask> tasks, const rsa_word* buffer);

/// The arguments of `launch` over its packed buffer (host or device memory).
RsaModexpArgs rsa_launch_args(const RsaLaunch& launch, rsa_word* buffer);

/// Runs a launch on the host through rsa_modexp_thread, job by job in reverse order: what the GPU's threads do
/// with the `thread` variant (EmulatedDevice through rsa_emulate of rsa_kernel_variant.hpp; the tests check it
/// against OpenSSL).
void rsa_emulate(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind);

/// Checks that the kernels are built for `words`-word moduli (rsa_dispatch_words); throws InvalidArgument if not.
void check_rsa_words(std::size_t words);

}  // namespace cryptaccel::cuda
