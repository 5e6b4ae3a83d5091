// SHA-crypt kernels, hashcat's init / loop / finish split (per-thread bodies in shacrypt_ops.hpp), one thread per
// candidate in grid-stride loops, and their launchers. The host driver is src/cuda/shacrypt/shacrypt_gpu.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/shacrypt/shacrypt_kernels.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr int kThreads = 128;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

template <algo::HashVariant V>
__global__ void __launch_bounds__(kThreads) shacrypt_init_kernel(const ShaCryptArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_init<V>(a, i);
}

template <algo::HashVariant V>
__global__ void __launch_bounds__(kThreads) shacrypt_loop_kernel(const ShaCryptArgs a, std::uint32_t begin,
                                                                 std::uint32_t end) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_rounds<V>(a, i, begin, end);
}

template <algo::HashVariant V>
__global__ void __launch_bounds__(kThreads) shacrypt_finish_kernel(const ShaCryptArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_finish<V>(a, i);
}

unsigned grid_for(std::uint64_t count) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((count + kThreads - 1) / kThreads, 1u << 20)));
}

}  // namespace

void launch_shacrypt_init(const ShaCryptArgs& a, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (a.variant == static_cast<std::uint8_t>(algo::HashVariant::sha512))
    shacrypt_init_kernel<algo::HashVariant::sha512><<<grid_for(a.count), kThreads, 0, s>>>(a);
  else
    shacrypt_init_kernel<algo::HashVariant::sha256><<<grid_for(a.count), kThreads, 0, s>>>(a);
  check(cudaGetLastError(), "sha-crypt init kernel launch");
}

void launch_shacrypt_loop(const ShaCryptArgs& a, std::uint32_t begin, std::uint32_t end, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (a.variant == static_cast<std::uint8_t>(algo::HashVariant::sha512))
    shacrypt_loop_kernel<algo::HashVariant::sha512><<<grid_for(a.count), kThreads, 0, s>>>(a, begin, end);
  else
    shacrypt_loop_kernel<algo::HashVariant::sha256><<<grid_for(a.count), kThreads, 0, s>>>(a, begin, end);
  check(cudaGetLastError(), "sha-crypt loop kernel launch");
}

void launch_shacrypt_finish(const ShaCryptArgs& a, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (a.variant == static_cast<std::uint8_t>(algo::HashVariant::sha512))
    shacrypt_finish_kernel<algo::HashVariant::sha512><<<grid_for(a.count), kThreads, 0, s>>>(a);
  else
    shacrypt_finish_kernel<algo::HashVariant::sha256><<<grid_for(a.count), kThreads, 0, s>>>(a);
  check(cudaGetLastError(), "sha-crypt finish kernel launch");
}

}  // namespace cryptaccel::cuda
