// The shared CA_HD round functions compiled for the GPU and compared with the host build of the same code.
// Skips (visibly) when no CUDA device is present; CI only compiles it.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "algo/aes_bitsliced.hpp"
#include "algo/ghash.hpp"
#include "algo/sm4.hpp"

namespace {

using namespace cryptaccel::algo;

// One thread encrypts kAesLanes<uint32_t> = 2 blocks with 32-bit planes (the GPU word size).
__global__ void aes_encrypt_kernel(AesPlaneKeys<std::uint32_t> keys, const std::uint8_t* in, std::uint8_t* out, int pairs) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < pairs) aes_encrypt_blocks_bitsliced(keys, in + 32 * t, out + 32 * t, 2);
}

__global__ void sm4_encrypt_kernel(Sm4RoundKeys keys, const std::uint8_t* in, std::uint8_t* out, int blocks) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < blocks) sm4_crypt_blocks(keys, false, in + 16 * t, out + 16 * t, 1);
}

__global__ void gf128_mul_kernel(const Gf128* x, const Gf128* y, Gf128* z, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) z[t] = gf128_mul(x[t], y[t]);
}

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// CRYPTACCEL_REQUIRE_GPU=1 (set by bench/gpu/run.sh) turns the skip into a failure on the GPU machine.
#define SKIP_WITHOUT_GPU()                                                                   \
  if (!have_gpu()) {                                                                         \
    const char* required = std::getenv("CRYPTACCEL_REQUIRE_GPU");                            \
    if (required && std::string(required) == "1") FAIL() << "no CUDA device present";        \
    GTEST_SKIP() << "no CUDA device present: GPU test skipped";                              \
  }

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  explicit DeviceBuffer(std::size_t n) { EXPECT_EQ(cudaMalloc(&ptr, n * sizeof(T)), cudaSuccess); }
  ~DeviceBuffer() { cudaFree(ptr); }
};

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace

TEST(CudaAlgo, BitslicedAesMatchesHost) {
  SKIP_WITHOUT_GPU();
  for (int key_len : {16, 24, 32}) {
    const auto key = random_bytes(key_len, key_len);
    AesRoundKeys rk;
    aes_expand_key(key.data(), key_len, rk);
    AesPlaneKeys<std::uint32_t> dev_keys;
    aes_plane_keys(rk, dev_keys);
    AesPlaneKeys<std::uint64_t> host_keys;
    aes_plane_keys(rk, host_keys);
    const int pairs = 4096;
    const auto in = random_bytes(32 * pairs, 99);
    std::vector<std::uint8_t> gpu(in.size()), host(in.size());
    DeviceBuffer<std::uint8_t> d_in(in.size()), d_out(in.size());
    cudaMemcpy(d_in.ptr, in.data(), in.size(), cudaMemcpyHostToDevice);
    aes_encrypt_kernel<<<(pairs + 127) / 128, 128>>>(dev_keys, d_in.ptr, d_out.ptr, pairs);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(gpu.data(), d_out.ptr, gpu.size(), cudaMemcpyDeviceToHost);
    for (std::size_t b = 0; b < in.size(); b += 64) aes_encrypt_blocks_bitsliced(host_keys, in.data() + b, host.data() + b, 4);
    EXPECT_EQ(gpu, host) << "key length " << key_len;
  }
}

TEST(CudaAlgo, Sm4MatchesHost) {
  SKIP_WITHOUT_GPU();
  const auto key = random_bytes(16, 5);
  Sm4RoundKeys keys;
  sm4_expand_key(key.data(), keys);
  const int blocks = 2048;
  const auto in = random_bytes(16 * blocks, 6);
  std::vector<std::uint8_t> gpu(in.size()), host(in.size());
  DeviceBuffer<std::uint8_t> d_in(in.size()), d_out(in.size());
  cudaMemcpy(d_in.ptr, in.data(), in.size(), cudaMemcpyHostToDevice);
  sm4_encrypt_kernel<<<(blocks + 127) / 128, 128>>>(keys, d_in.ptr, d_out.ptr, blocks);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(gpu.data(), d_out.ptr, gpu.size(), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; b += kSm4Lanes) sm4_crypt_blocks(keys, false, in.data() + 16 * b, host.data() + 16 * b, kSm4Lanes);
  EXPECT_EQ(gpu, host);
}

TEST(CudaAlgo, Gf128MultiplyMatchesHost) {
  SKIP_WITHOUT_GPU();
  const int n = 1024;
  std::mt19937_64 rng(3);
  std::vector<Gf128> x(n), y(n), gpu(n);
  for (int i = 0; i < n; ++i) x[i] = {rng(), rng()}, y[i] = {rng(), rng()};
  DeviceBuffer<Gf128> dx(n), dy(n), dz(n);
  cudaMemcpy(dx.ptr, x.data(), n * sizeof(Gf128), cudaMemcpyHostToDevice);
  cudaMemcpy(dy.ptr, y.data(), n * sizeof(Gf128), cudaMemcpyHostToDevice);
  gf128_mul_kernel<<<(n + 127) / 128, 128>>>(dx.ptr, dy.ptr, dz.ptr, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(gpu.data(), dz.ptr, n * sizeof(Gf128), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const Gf128 h = gf128_mul(x[i], y[i]);
    ASSERT_EQ(gpu[i].hi, h.hi);
    ASSERT_EQ(gpu[i].lo, h.lo);
  }
}
