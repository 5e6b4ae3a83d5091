// The group RSA kernel variant (rsa_group_ops.hpp): one exponentiation per group of rsa_group_lanes(N) consecutive
// lanes of a warp, for N = 16, 32, 48, 64 words, secret and public exponent kinds (8 kernels).
//
// Launch: 1-D blocks of kRsaGroupThreads (a multiple of 32, so a group never straddles warps: lane_group.hpp);
// group g = global thread / T runs jobs g, g + groups in the grid, ... (grid-stride). Every sync primitive's mask is
// the group's own T lanes and every branch is uniform within a group (the job index, that job's public exponent bits),
// so a group whose job is past `count` leaves the loop without any other group waiting for it.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa/rsa_group_ops.hpp"
#include "cuda/rsa/rsa_kernels.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr unsigned kRsaGroupThreads = 128;

template <std::size_t N, RsaExpKind Kind>
__global__ void __launch_bounds__(kRsaGroupThreads) rsa_modexp_group_kernel(const RsaModexpArgs a) {
  constexpr unsigned T = rsa_group_lanes(N);
  const std::uint64_t groups = std::uint64_t{gridDim.x} * (blockDim.x / T);
  for (std::uint64_t g = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / T; g < a.count; g += groups)
    rsa_modexp_group<N, Kind>(a, g);
}

template <std::size_t N>
void launch(const RsaModexpArgs& a, RsaExpKind kind, cudaStream_t s) {
  constexpr unsigned T = rsa_group_lanes(N);
  const std::uint64_t blocks = (a.count * T + kRsaGroupThreads - 1) / kRsaGroupThreads;
  const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>(blocks, 1u << 30));
  if (kind == RsaExpKind::secret)
    rsa_modexp_group_kernel<N, RsaExpKind::secret><<<grid, kRsaGroupThreads, 0, s>>>(a);
  else
    rsa_modexp_group_kernel<N, RsaExpKind::public_e><<<grid, kRsaGroupThreads, 0, s>>>(a);
}

}  // namespace

void launch_rsa_modexp_group(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind, void* stream) {
  if (a.count == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const bool built = rsa_dispatch_variant_words(words, [&](auto W) { launch<decltype(W)::value>(a, kind, s); });
  if (!built) throw InvalidArgument("rsa: no group GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda
