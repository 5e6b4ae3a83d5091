// RSA exponentiation kernels: one modular exponentiation per thread (rsa_modexp_thread of rsa_ops.hpp, the shared
// Montgomery arithmetic of src/algo/montgomery.hpp in 32-bit words), one kernel per modulus size (16..256 words) and
// exponent kind: secret (constant-time fixed windows: CRT halves, d, raw modexp) or public (binary, short for e =
// 65537: verify and encrypt). The host driver is src/cuda/rsa_executor.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa_kernels.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr int kThreads = 128;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

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
__global__ void __launch_bounds__(kThreads) rsa_modexp_kernel(const RsaModexpArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < a.count; j += stride)
    rsa_modexp_thread<N, Kind, CalledMont>(a, j);
}

}  // namespace

void launch_rsa_modexp(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind, void* stream) {
  if (a.count == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>((a.count + kThreads - 1) / kThreads, 1u << 30));
  const bool built = rsa_dispatch_words(words, [&](auto W) {
    constexpr std::size_t N = decltype(W)::value;
    if (kind == RsaExpKind::secret)
      rsa_modexp_kernel<N, RsaExpKind::secret><<<grid, kThreads, 0, s>>>(a);
    else
      rsa_modexp_kernel<N, RsaExpKind::public_e><<<grid, kThreads, 0, s>>>(a);
  });
  if (!built) throw InvalidArgument("rsa: no GPU kernel for " + std::to_string(32 * words) + "-bit operands");
  check(cudaGetLastError(), "RSA kernel launch");
}

}  // namespace cryptaccel::cuda
