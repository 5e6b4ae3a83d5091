// RSA exponentiation kernels: one modular exponentiation per thread (rsa_modexp_thread of rsa_ops.hpp, the shared
// Montgomery arithmetic of src/algo/montgomery.hpp in 32-bit words), one kernel per modulus size (16..256 words) and
// exponent kind: secret (constant-time fixed windows: CRT halves, d, raw modexp) or public (binary, short for e =
// 65537: verify and encrypt). This file dispatches by variant (rsa_kernel_variant.hpp) and, for `thread`, by size;
// those kernels are in rsa_kernels.cuh, instantiated in rsa_kernels_w*.cu. The host driver is
// src/cuda/rsa/rsa_executor.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_kernels.cuh"
#include "cuda/rsa/rsa_kernels.hpp"

namespace cryptaccel::cuda {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace

void launch_rsa_modexp(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind, RsaKernel kernel, void* stream) {
  if (a.count == 0) return;
  if (!rsa_kernel_supports(kernel, words))
    throw InvalidArgument("rsa: no " + std::string(rsa_kernel_name(kernel)) + " GPU kernel for " +
                          std::to_string(32 * words) + "-bit operands");
  if (kernel == RsaKernel::fp64) {
    launch_rsa_modexp_fp64(a, words, kind, stream);
  } else if (kernel == RsaKernel::group) {
    launch_rsa_modexp_group(a, words, kind, stream);
  } else {
    const auto s = static_cast<cudaStream_t>(stream);
    const unsigned grid =
        static_cast<unsigned>(std::min<std::uint64_t>((a.count + kRsaThreads - 1) / kRsaThreads, 1u << 30));
    rsa_dispatch_words(words, [&](auto W) { launch_rsa_modexp_words<decltype(W)::value>(a, kind, grid, s); });
  }
  check(cudaGetLastError(), "RSA kernel launch");  // one check for every variant's launch
}

}  // namespace cryptaccel::cuda
