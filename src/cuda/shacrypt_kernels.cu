// SHA-crypt kernels (hashcat's init / loop / finish split, see shacrypt_ops.hpp) and the host driver the cuda
// engines call: each (variant, rounds) pack goes to the device, the init kernel builds every candidate's templates,
// the loop kernel runs kShaCryptRoundsPerLaunch rounds per launch, the finish kernel copies the digests out and
// wipes the templates. One thread per candidate, grid-stride loops.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/shacrypt_kernels.hpp"
#include "cuda/shacrypt_plan.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr int kThreads = 128;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

__global__ void __launch_bounds__(kThreads) shacrypt_init_kernel(const ShaCryptArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_init(a, i);
}

__global__ void __launch_bounds__(kThreads) shacrypt_loop_kernel(const ShaCryptArgs a, std::uint32_t begin,
                                                                 std::uint32_t end) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_rounds(a, i, begin, end);
}

__global__ void __launch_bounds__(kThreads) shacrypt_finish_kernel(const ShaCryptArgs a) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride)
    shacrypt_op_finish(a, i);
}

unsigned grid_for(std::uint64_t count) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((count + kThreads - 1) / kThreads, 1u << 20)));
}

/// Device copies of a pack, freed (templates wiped by the finish kernel or here on error) on destruction.
struct DeviceBuffers {
  void* p[7] = {};
  ~DeviceBuffers() {
    for (void* q : p)
      if (q) cudaFree(q);
  }
  template <class T>
  T* upload(int slot, const std::vector<T>& v) {
    const std::size_t bytes = std::max<std::size_t>(1, v.size() * sizeof(T));
    check(cudaMalloc(&p[slot], bytes), "cudaMalloc");
    if (!v.empty()) check(cudaMemcpy(p[slot], v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    return static_cast<T*>(p[slot]);
  }
  std::uint8_t* alloc(int slot, std::size_t bytes) {
    check(cudaMalloc(&p[slot], std::max<std::size_t>(1, bytes)), "cudaMalloc");
    return static_cast<std::uint8_t*>(p[slot]);
  }
};

void run_pack(const ShaCryptPack& pack) {
  DeviceBuffers d;
  ShaCryptArgs a{};
  a.variant = static_cast<std::uint8_t>(pack.variant == ShaCryptVariant::sha512 ? algo::HashVariant::sha512
                                                                                : algo::HashVariant::sha256);
  a.rounds = pack.rounds;
  a.count = pack.jobs.size();
  a.input = d.upload(0, pack.input);
  a.pw_offset = d.upload(1, pack.pw_offset);
  a.salt_offset = d.upload(2, pack.salt_offset);
  a.salt_len = d.upload(3, pack.salt_len);
  a.tmpl_offset = d.upload(4, pack.tmpl_offset);
  a.templates = d.alloc(5, pack.template_bytes);
  a.digests = d.alloc(6, pack.jobs.size() * pack.digest_size());
  const unsigned grid = grid_for(a.count);
  shacrypt_init_kernel<<<grid, kThreads>>>(a);
  check(cudaGetLastError(), "sha-crypt init kernel launch");
  for (const auto& [begin, end] : shacrypt_round_chunks(pack.rounds, kShaCryptRoundsPerLaunch)) {
    shacrypt_loop_kernel<<<grid, kThreads>>>(a, begin, end);
    check(cudaGetLastError(), "sha-crypt loop kernel launch");
  }
  shacrypt_finish_kernel<<<grid, kThreads>>>(a);
  check(cudaGetLastError(), "sha-crypt finish kernel launch");
  std::vector<std::uint8_t> digests(pack.jobs.size() * pack.digest_size());
  check(cudaMemcpy(digests.data(), a.digests, digests.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemset(d.p[0], 0, std::max<std::size_t>(1, pack.input.size())), "cudaMemset");  // passwords
  for (std::size_t i = 0; i < pack.jobs.size(); ++i) {
    std::memcpy(pack.jobs[i]->digest.data(), digests.data() + i * pack.digest_size(), pack.digest_size());
    pack.jobs[i]->status = JobStatus::ok;
  }
  secure_wipe(digests.data(), digests.size());
}

}  // namespace

void run_shacrypt_batch(std::span<ShaCryptJob> jobs) {
  check(cudaSetDevice(current_device()), "cudaSetDevice");
  for (ShaCryptPack& pack : shacrypt_pack(jobs)) {
    run_pack(pack);
    secure_wipe(pack.input.data(), pack.input.size());
  }
}

}  // namespace cryptaccel::cuda
