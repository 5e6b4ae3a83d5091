// The cuda engines: host-resident batches go through the pipelined executor (src/cuda/host/executor.cpp), one batch at a
// time per device; a batch large enough is spread over every visible device (src/cuda/host/multi_device.hpp), the calling
// thread's current device first. Large GPU batches are where this engine wins; `auto` prefers it only when a device
// is present (src/engine/registry.cpp).
#include "cuda/cuda_engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/host/auto_break_even.hpp"
#include "cuda/host/cuda_device.hpp"
#include "cuda/host/executor.hpp"
#include "cuda/host/multi_device.hpp"
#include "cuda/rsa/rsa_executor.hpp"
#include "cuda/rsa/rsa_jobs.hpp"
#include "cuda/shacrypt/shacrypt_gpu.hpp"

namespace cryptaccel::cuda {
namespace {

/// Chunk size of the host-resident pipeline: CRYPTACCEL_CUDA_CHUNK_MIB (default 32 MiB; at least 1).
ExecOptions exec_options(CipherImpl impl, std::size_t xts_unit) {
  ExecOptions o;
  o.impl = impl;
  o.xts_unit = xts_unit;
  if (const char* mib = std::getenv("CRYPTACCEL_CUDA_CHUNK_MIB")) {
    const long v = std::strtol(mib, nullptr, 10);
    if (v >= 1) o.limits.max_bytes = static_cast<std::uint64_t>(v) << 20;
  }
  return o;
}

/// The devices a batch may use, in order (multi_device.hpp's device_order over CRYPTACCEL_CUDA_DEVICES).
std::vector<int> batch_device_indices() {
  return device_order(device_query().count, current_device(), std::getenv("CRYPTACCEL_CUDA_DEVICES"));
}

/// Those devices as a DeviceSet (each opened when a range first needs it).
DeviceSet batch_devices() {
  std::vector<int> indices = batch_device_indices();
  const std::size_t count = indices.size();
  return {count, [indices = std::move(indices)](std::size_t i) -> Device& { return cuda_device(indices[i]); }};
}

/// Host memory page-locked by pin_host_memory for as long as it lives.
class PinnedHostBuffer final : public engine::HostBufferPin {
 public:
  explicit PinnedHostBuffer(void* p) : p_(p) {}
  ~PinnedHostBuffer() override { unpin_host_memory(p_); }

 private:
  void* p_;
};

class CudaEngine final : public engine::Engine {
 public:
  CudaEngine(std::string_view name, std::string_view description, CipherImpl aes)
      : name_(name), description_(description), aes_(aes) {}

  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  std::string unavailable_reason() const override { return cuda_unavailable_reason(); }
  // Every block cipher mode CipherSpec can name; ChaCha20-Poly1305 has no kernels yet (dispatch picks a host engine).
  bool supports(const CipherSpec& spec, Direction) const override { return spec.mode != Mode::poly1305; }
  bool runs_on_host_threads() const override { return false; }
  bool worth_auto(const engine::Work& work) const override { return cuda::worth_auto(work); }
  std::unique_ptr<engine::HostBufferPin> pin_host_buffer(void* p, std::size_t n) const override {
    if (!cuda_unavailable_reason().empty() || !pin_host_memory(p, n)) return nullptr;
    return std::make_unique<PinnedHostBuffer>(p);
  }
  void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                       const BatchOptions& options) const override {
    ExecOptions o = exec_options(aes_, options.xts_unit);
    o.host_threads = options.threads;
    run_cipher_batch(batch_devices(), spec, dir, jobs, o);
  }

  bool supports_hash(HashAlgorithm) const override { return true; }
  HashBlocksFn hash_blocks_function(HashAlgorithm) const override { return nullptr; }  // batches only
  void run_hash_jobs(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options) const override {
    ExecOptions o = exec_options(aes_, 0);
    o.host_threads = options.threads;
    run_hash_batch(batch_devices(), algorithm, jobs, o);
  }
  bool supports_keccak_batch() const override { return true; }
  void run_keccak_permutations(std::span<KeccakState> states) const override {
    run_keccak_batch(batch_devices(), states, exec_options(aes_, 0));
  }
  // RSA: exponentiations on the GPU (rsa_executor.cpp); CRT reduction/recombination on the host (rsa_jobs.cpp);
  // blinding and the result check around them in src/rsa/private_op.cpp, as for every engine. The kernel variant
  // comes from CRYPTACCEL_CUDA_RSA_KERNEL (rsa_kernel_variant.hpp), read per batch.
  // `cuda` only: cuda-ttable differs in AES alone and would run the same RSA kernels twice in the test suites.
  bool supports_rsa(std::size_t bits) const override { return aes_ == CipherImpl::aes_bitsliced && bits <= 8192; }
  void run_rsa_private(std::span<const engine::RsaPrivateJob> jobs) const override {
    with_rsa_runner([&](const RsaRunner& run) { rsa_private_jobs(jobs, run); });
  }
  void run_rsa_public(std::span<const engine::RsaPublicJob> jobs) const override {
    with_rsa_runner([&](const RsaRunner& run) { rsa_public_jobs(jobs, run); });
  }
  void run_modexp(const rsa::Modulus& modulus, bytes_view exponent,
                  std::span<const engine::ModexpJob> jobs) const override {
    with_rsa_runner([&](const RsaRunner& run) { rsa_modexp_jobs(modulus, exponent, jobs, run); });
  }

  bool supports_shacrypt(ShaCryptVariant) const override { return true; }
  // Candidates split over the devices by rounds; on each, init / loop in chunks of rounds / finish kernels
  // (src/cuda/shacrypt/shacrypt_kernels.cu).
  void run_shacrypt_jobs(std::span<ShaCryptJob> jobs, const BatchOptions&) const override {
    const std::vector<int> devices = batch_device_indices();
    std::vector<std::uint64_t> weights(jobs.size(), 0);
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].status == JobStatus::pending) weights[i] = jobs[i].setting->rounds;
    const std::vector<std::size_t> bounds = split_by_weight(weights, devices.size(), kMinShaCryptWorkPerDevice);
    run_ranges(bounds, [&](std::size_t r, std::size_t begin, std::size_t end) {
      CudaDevice& dev = cuda_device(devices[r]);
      std::lock_guard<std::mutex> lock(dev.mutex());
      run_shacrypt_batch(devices[r], jobs.subspan(begin, end - begin));
    });
  }

 private:
  /// f(runner) with a runner over the batch's devices and the kernel variant of CRYPTACCEL_CUDA_RSA_KERNEL.
  template <class F>
  void with_rsa_runner(F&& f) const {
    const RsaKernel kernel = rsa_kernel_from_env();
    const DeviceSet devices = batch_devices();
    f(RsaRunner([&](std::span<const RsaTask> tasks) { run_rsa_tasks(devices, tasks, kRsaMaxJobsPerLaunch, kernel); }));
  }

  std::string_view name_, description_;
  CipherImpl aes_;
};

}  // namespace

const engine::Engine& cuda_engine() {
  static const CudaEngine engine("cuda",
                                 "NVIDIA GPU: constant-time bitsliced AES and SM4, GCM with parallel GHASH, batched "
                                 "SHA-2/SHA-3/SM3 and Keccak-f, SHA-crypt, batched constant-time RSA; host data "
                                 "pipelined over streams",
                                 CipherImpl::aes_bitsliced);
  return engine;
}

const engine::Engine& cuda_ttable_engine() {
  static const CudaEngine engine("cuda-ttable",
                                 "the cuda engine with shared-memory T-table AES: faster, NOT constant time "
                                 "(key- and data-dependent table lookups); never chosen by auto",
                                 CipherImpl::aes_ttable);
  return engine;
}

}  // namespace cryptaccel::cuda
