// The fp64 RSA kernel variant (rsa_kernel_variant.hpp): one modular exponentiation per thread with Montgomery
// products from FP64 fused multiply-adds (rsa_fp64_modexp_thread of rsa_fp64_ops.hpp; the arithmetic and why in
// src/algo/montgomery_fp64.hpp), one kernel per modulus size (16, 32, 48, 64 words) and exponent kind, with the
// launch contract of the thread kernels (rsa_kernels.cuh: kRsaThreads threads per block, grid-stride loop).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_fp64_ops.hpp"
#include "cuda/rsa/rsa_kernels.cuh"
#include "cuda/rsa/rsa_kernels.hpp"

namespace cryptaccel::cuda {
namespace {

/// The fp64 product and square as calls rather than inlined copies (as rsa_kernels.cuh's CalledMont: an
/// exponentiation calls them from several places; one copy each bounds code size and compile time).
template <unsigned Bits>
struct CalledFp64Mont {
  template <std::size_t M, class W>
  __host__ __device__ __noinline__ static void mul(W* r, const W* a, const W* b, const W* n, W n0) {
    algo::bn::fp64::mont_mul<M, Bits>(r, a, b, n, n0);
  }
  template <std::size_t M, class W>
  __host__ __device__ __noinline__ static void sqr(W* r, const W* a, const W* n, W n0) {
    algo::bn::fp64::mont_mul<M, Bits>(r, a, a, n, n0);
  }
};

template <std::size_t N, RsaExpKind Kind>
__global__ void __launch_bounds__(kRsaThreads) rsa_fp64_kernel(const RsaModexpArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < a.count; j += stride)
    rsa_fp64_modexp_thread<N, Kind, CalledFp64Mont<algo::bn::fp64::Shape<N>::bits>>(a, j);
}

}  // namespace

void launch_rsa_modexp_fp64(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind, void* stream) {
  if (a.count == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const unsigned grid =
      static_cast<unsigned>(std::min<std::uint64_t>((a.count + kRsaThreads - 1) / kRsaThreads, 1u << 30));
  const bool built = rsa_dispatch_variant_words(words, [&](auto W) {
    constexpr std::size_t N = decltype(W)::value;
    if (kind == RsaExpKind::secret)
      rsa_fp64_kernel<N, RsaExpKind::secret><<<grid, kRsaThreads, 0, s>>>(a);
    else
      rsa_fp64_kernel<N, RsaExpKind::public_e><<<grid, kRsaThreads, 0, s>>>(a);
  });
  if (!built) throw InvalidArgument("rsa: no fp64 GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda
