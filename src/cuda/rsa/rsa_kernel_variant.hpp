// The GPU's RSA exponentiation kernels: three ways to run the same operation (one launch of RsaModexpArgs, the
// limb-interleaved layout of rsa_ops.hpp), measured side by side by bench/gpu/run.sh rsa. The issue behind them asks
// for the fastest as the default: `group`, the fastest for RSA-2048 and RSA-4096 signatures and RSA-2048
// verification on the first H100 run (bench/results/2026-11-27-h100: 67 k vs 62 k (fp64) vs 51 k (thread) RSA-2048
// signatures/s; 18.3 k vs 9.3 k vs 5.9 k RSA-4096), and level with the others on RSA-1024.
//
//   thread  one exponentiation per thread, 32-bit IMAD CIOS (rsa_modexp_thread, rsa_ops.hpp)
//   fp64    one exponentiation per thread, Montgomery products from FP64 fused multiply-adds (rsa_fp64_ops.hpp)
//   group   one exponentiation per cooperative group of 8..32 lanes of a warp, as NVIDIA's CGBN (rsa_group_ops.hpp)
//
// The cuda engine takes the variant from CRYPTACCEL_CUDA_RSA_KERNEL (read per batch, so one process can measure all);
// a variant not built for a launch's modulus size runs that launch with `thread`. Each variant has an emulation in
// plain C++ (rsa_<variant>_emulate.cpp: EmulatedDevice, the CPU tests) and kernels (rsa_kernels*.cu).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cuda/rsa/rsa_ops.hpp"

namespace cryptaccel::cuda {

/// An RSA kernel variant (see the file comment).
enum class RsaKernel : std::uint8_t { thread = 0, fp64 = 1, group = 2 };

/// "thread", "fp64", "group".
std::string_view rsa_kernel_name(RsaKernel k);
/// The variant named `name`; throws InvalidArgument naming the choices for anything else.
RsaKernel parse_rsa_kernel(std::string_view name);
/// The variant used when CRYPTACCEL_CUDA_RSA_KERNEL is not set (see above).
inline constexpr RsaKernel kDefaultRsaKernel = RsaKernel::group;

/// CRYPTACCEL_CUDA_RSA_KERNEL when set (parse_rsa_kernel), else kDefaultRsaKernel.
RsaKernel rsa_kernel_from_env();
/// Whether variant `k` is built for `words`-word moduli (thread: every size of rsa_dispatch_words).
bool rsa_kernel_supports(RsaKernel k, std::size_t words);

/// Host emulation of one launch with variant `k` (what its GPU threads compute, job by job): EmulatedDevice.
/// Throws InvalidArgument when `k` is not built for `words`.
void rsa_emulate(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel k);

// Each variant's own entry points (rsa_fp64_emulate.cpp, rsa_group_emulate.cpp), used through the functions above.
bool rsa_fp64_supports(std::size_t words);
void rsa_emulate_fp64(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind);
bool rsa_group_supports(std::size_t words);
void rsa_emulate_group(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind);

}  // namespace cryptaccel::cuda
