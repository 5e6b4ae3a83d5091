#include "cuda/host/cuda_device.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>

#include "cryptaccel/error.hpp"
#include "cryptaccel/types.hpp"
#include "cuda/host/host_pins.hpp"
#include "cuda/kernels/kernels.hpp"
#include "cuda/rsa/rsa_kernels.hpp"
#include "cuda/kernels/xts_math.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr std::size_t kStreams = 3;                         // copy in, kernels, copy out of different chunks
constexpr std::size_t kPinnedGranule = std::size_t{1} << 20;  // pinned buffers are rounded up to this
constexpr std::size_t kPinnedKeepBytes = std::size_t{1} << 30;  // idle pinned memory kept for reuse

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

cudaStream_t as_stream(Stream s) { return static_cast<cudaStream_t>(s); }

}  // namespace

const DeviceQuery& device_query() {
  static const DeviceQuery q = [] {
    DeviceQuery r;
    const cudaError_t e = cudaGetDeviceCount(&r.count);
    if (e != cudaSuccess) {
      r.count = 0;
      r.error = cudaGetErrorString(e);
      (void)cudaGetLastError();  // clear the (non-sticky) error so later calls start clean
    }
    return r;
  }();
  return q;
}

std::string cuda_unavailable_reason() {
  const DeviceQuery& q = device_query();
  if (!q.error.empty()) return "no NVIDIA GPU found (cudaGetDeviceCount: " + q.error + ")";
  if (q.count == 0) return "no NVIDIA GPU found (cudaGetDeviceCount: 0 devices)";
  return {};
}

CudaDevice::CudaDevice(int index) : index_(index) {
  select();
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, index), "cudaGetDeviceProperties");
  sm_count_ = prop.multiProcessorCount;
  name_ = prop.name;
  for (std::size_t i = 0; i < kStreams; ++i) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    streams_.push_back(s);
  }
  // Keep freed device memory in the pool instead of returning it to the driver at every synchronization.
  cudaMemPool_t pool = nullptr;
  check(cudaDeviceGetDefaultMemPool(&pool, index), "cudaDeviceGetDefaultMemPool");
  std::uint64_t threshold = UINT64_MAX;
  check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "cudaMemPoolSetAttribute");
  upload_kernel_tables();
  algo::Gf128 table[kXtsAlphaPowers];
  xts_alpha_pow_table(table);
  check(cudaMalloc(&alpha_pow_, sizeof table), "cudaMalloc");
  check(cudaMemcpy(alpha_pow_, table, sizeof table, cudaMemcpyHostToDevice), "cudaMemcpy");
}

void CudaDevice::select() const { check(cudaSetDevice(index_), "cudaSetDevice"); }

std::uint8_t* CudaDevice::alloc(std::size_t bytes, Stream s) {
  select();
  void* p = nullptr;
  check(cudaMallocAsync(&p, std::max<std::size_t>(bytes, 1), as_stream(s)), "cudaMallocAsync");
  return static_cast<std::uint8_t*>(p);
}

void CudaDevice::free(void* p, Stream s) {
  if (!p) return;
  select();
  (void)cudaFreeAsync(p, as_stream(s));  // also called while unwinding: never throws
}

void CudaDevice::reap_pinned() {
  for (PinnedBlock& b : pinned_) {
    if (!b.pending || cudaEventQuery(static_cast<cudaEvent_t>(b.event)) != cudaSuccess) continue;
    secure_wipe(b.ptr + b.wipe_from, b.wipe_len);
    b.pending = b.in_use = false;
  }
  // Bound idle pinned memory: free the largest idle blocks beyond the budget.
  std::size_t idle = 0;
  for (const PinnedBlock& b : pinned_)
    if (!b.in_use) idle += b.size;
  while (idle > kPinnedKeepBytes) {
    auto it = std::max_element(pinned_.begin(), pinned_.end(), [](const PinnedBlock& a, const PinnedBlock& b) {
      return (a.in_use ? 0 : a.size) < (b.in_use ? 0 : b.size);
    });
    if (it == pinned_.end() || it->in_use) break;
    idle -= it->size;
    (void)cudaFreeHost(it->ptr);
    (void)cudaEventDestroy(static_cast<cudaEvent_t>(it->event));
    pinned_.erase(it);
  }
}

std::uint8_t* CudaDevice::alloc_pinned(std::size_t bytes) {
  std::lock_guard<std::mutex> lock(pinned_mutex_);
  reap_pinned();
  PinnedBlock* best = nullptr;
  for (PinnedBlock& b : pinned_)
    if (!b.in_use && b.size >= bytes && (!best || b.size < best->size)) best = &b;
  if (!best) {
    select();
    const std::size_t size = std::max<std::size_t>(kPinnedGranule, (bytes + kPinnedGranule - 1) / kPinnedGranule * kPinnedGranule);
    void* p = nullptr;
    check(cudaHostAlloc(&p, size, cudaHostAllocDefault), "cudaHostAlloc");
    cudaEvent_t ev = nullptr;
    if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaFreeHost(p);
      check(cudaErrorMemoryAllocation, "cudaEventCreate");
    }
    pinned_.push_back(PinnedBlock{static_cast<std::uint8_t*>(p), size, ev, false, false, 0, 0});
    best = &pinned_.back();
  }
  best->in_use = true;
  return best->ptr;
}

void CudaDevice::release_pinned(void* p, Stream s, std::size_t wipe_from, std::size_t wipe_len) {
  std::lock_guard<std::mutex> lock(pinned_mutex_);
  for (PinnedBlock& b : pinned_) {
    if (b.ptr != p) continue;
    b.wipe_from = wipe_from;
    b.wipe_len = std::min(wipe_len, b.size - std::min(wipe_from, b.size));
    if (cudaEventRecord(static_cast<cudaEvent_t>(b.event), as_stream(s)) == cudaSuccess) {
      b.pending = true;
    } else {  // the stream is broken: nothing more will run on it
      secure_wipe(b.ptr + b.wipe_from, b.wipe_len);
      b.in_use = false;
    }
    return;
  }
}

void CudaDevice::copy_to_device(void* dst, const void* src, std::size_t bytes, Stream s) {
  if (!bytes) return;
  select();
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, as_stream(s)), "cudaMemcpyAsync (to device)");
}

void CudaDevice::copy_to_host(void* dst, const void* src, std::size_t bytes, Stream s) {
  if (!bytes) return;
  select();
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, as_stream(s)), "cudaMemcpyAsync (to host)");
}

void CudaDevice::zero(void* dst, std::size_t bytes, Stream s) {
  if (!bytes) return;
  select();
  check(cudaMemsetAsync(dst, 0, bytes, as_stream(s)), "cudaMemsetAsync");
}

void CudaDevice::cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, Stream s) {
  select();
  launch_cipher(op, args, items, s, sm_count_);
}

void CudaDevice::hash(const HashArgs& args, Stream s) {
  select();
  launch_hash(args, s, sm_count_);
}

void CudaDevice::keccak(std::uint64_t* states, std::uint64_t count, Stream s) {
  select();
  launch_keccak(states, count, s, sm_count_);
}

void CudaDevice::rsa(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, Stream s) {
  select();
  launch_rsa_modexp(args, words, kind, kernel, s);
}

void CudaDevice::synchronize(Stream s) {
  select();
  check(cudaStreamSynchronize(as_stream(s)), "cudaStreamSynchronize");
}

void CudaDevice::wait(Stream waiter, Stream waited) {
  select();
  cudaEvent_t ev = nullptr;
  check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate");
  const cudaError_t rec = cudaEventRecord(ev, as_stream(waited));
  const cudaError_t wt = rec == cudaSuccess ? cudaStreamWaitEvent(as_stream(waiter), ev, 0) : rec;
  (void)cudaEventDestroy(ev);  // released once the wait no longer needs it
  check(wt, "cudaStreamWaitEvent");
}

CudaDevice& cuda_device(int index) {
  static std::mutex m;
  static std::map<int, CudaDevice*> devices;
  std::lock_guard<std::mutex> lock(m);
  auto it = devices.find(index);
  if (it == devices.end()) it = devices.emplace(index, new CudaDevice(index)).first;  // intentionally never freed
  return *it->second;
}

int current_device() {
  int d = 0;
  check(cudaGetDevice(&d), "cudaGetDevice");
  return d;
}

bool pin_host_memory(void* p, std::size_t n) {
  if (n == 0 || cudaHostRegister(p, n, cudaHostRegisterPortable) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the (non-sticky) error so that later calls do not report it
    return false;
  }
  host_pins().add(p, n);
  return true;
}

void unpin_host_memory(void* p) {
  host_pins().remove(p);
  (void)cudaHostUnregister(p);
}

}  // namespace cryptaccel::cuda
