// The host driver of the SHA-crypt kernels: each (variant, rounds) pack (shacrypt_plan.cpp) is copied to the device,
// the init kernel builds every candidate's templates, the loop kernel runs kShaCryptRoundsPerLaunch rounds per
// launch (so no launch outlasts a watchdog), the finish kernel copies the digests out and wipes the templates; the
// digests come back and the passwords on the device are zeroed before the memory is freed.
#include "cuda/shacrypt/shacrypt_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cuda/shacrypt/shacrypt_kernels.hpp"
#include "cuda/shacrypt/shacrypt_plan.hpp"

namespace cryptaccel::cuda {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

/// Device copies of a pack; freed on destruction (also on an error).
struct DeviceBuffers {
  void* p[7] = {};
  ~DeviceBuffers() {
    for (void* q : p)
      if (q) cudaFree(q);
  }
  template <class T>
  T* upload(int slot, const std::vector<T>& v) {
    check(cudaMalloc(&p[slot], std::max<std::size_t>(1, v.size() * sizeof(T))), "cudaMalloc");
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
  launch_shacrypt_init(a, nullptr);
  for (const auto& [begin, end] : shacrypt_round_chunks(pack.rounds, kShaCryptRoundsPerLaunch))
    launch_shacrypt_loop(a, begin, end, nullptr);
  launch_shacrypt_finish(a, nullptr);
  std::vector<std::uint8_t> digests(pack.jobs.size() * pack.digest_size());
  check(cudaMemcpy(digests.data(), a.digests, digests.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemset(d.p[0], 0, std::max<std::size_t>(1, pack.input.size())), "cudaMemset");  // passwords
  check(cudaDeviceSynchronize(), "sha-crypt kernels");
  for (std::size_t i = 0; i < pack.jobs.size(); ++i) {
    std::memcpy(pack.jobs[i]->digest.data(), digests.data() + i * pack.digest_size(), pack.digest_size());
    pack.jobs[i]->status = JobStatus::ok;
  }
  secure_wipe(digests.data(), digests.size());
}

}  // namespace

void run_shacrypt_batch(int device, std::span<ShaCryptJob> jobs) {
  check(cudaSetDevice(device), "cudaSetDevice");
  for (ShaCryptPack& pack : shacrypt_pack(jobs)) {
    run_pack(pack);
    secure_wipe(pack.input.data(), pack.input.size());
  }
}

}  // namespace cryptaccel::cuda
