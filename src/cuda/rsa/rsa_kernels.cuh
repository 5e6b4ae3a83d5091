// The RSA exponentiation kernel template and its per-size launcher, shared by the translation units that instantiate
// it: rsa_kernels.cu (the dispatch by size) and rsa_kernels_w*.cu (one group of sizes each, so that a build compiles
// the large sizes in parallel: the 256-word kernels alone take minutes of nvcc/ptxas time). Device code only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/rsa/rsa_ops.hpp"

namespace cryptaccel::cuda {

inline constexpr int kRsaThreads = 128;

namespace rsa_detail {

/// The Montgomery product and square of src/algo/montgomery.hpp as calls rather than inlined copies: an
/// exponentiation calls them from four places, and inlining each (CA_HD is __forceinline__) multiplies the code of
/// the largest sizes, its compile time and instruction-cache misses.
struct CalledMont {
  template <std::size_t N, class W>
  __host__ __device__ __noinline__ static void mul(W* r, const W* a, const W* b, const W* n, W n0) {
    algo::bn::mont_mul<N>(r, a, b, n, n0);
  }
  template <std::size_t N, class W>
  __host__ __device__ __noinline__ static void sqr(W* r, const W* a, const W* n, W n0) {
    algo::bn::mont_sqr<N>(r, a, n, n0);
  }
};

template <std::size_t N, RsaExpKind Kind>
__global__ void __launch_bounds__(kRsaThreads) rsa_modexp_kernel(const RsaModexpArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < a.count; j += stride)
    rsa_modexp_thread<N, Kind, CalledMont>(a, j);
}

}  // namespace rsa_detail

/// Launches the N-word kernel of `kind` on `grid` blocks of kRsaThreads threads. Instantiated explicitly in
/// rsa_kernels_w*.cu only (the extern declarations below keep other translation units from compiling it again).
template <std::size_t N>
void launch_rsa_modexp_words(const RsaModexpArgs& a, RsaExpKind kind, unsigned grid, cudaStream_t s) {
  if (kind == RsaExpKind::secret)
    rsa_detail::rsa_modexp_kernel<N, RsaExpKind::secret><<<grid, kRsaThreads, 0, s>>>(a);
  else
    rsa_detail::rsa_modexp_kernel<N, RsaExpKind::public_e><<<grid, kRsaThreads, 0, s>>>(a);
}

// The sizes of rsa_dispatch_words (rsa_ops.hpp), each instantiated in exactly one rsa_kernels_w*.cu.
extern template void launch_rsa_modexp_words<16>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<32>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<48>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<64>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<96>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<128>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);
extern template void launch_rsa_modexp_words<256>(const RsaModexpArgs&, RsaExpKind, unsigned, cudaStream_t);

}  // namespace cryptaccel::cuda
