// include/cryptaccel/cuda.hpp on a CUDA build: validation on the host, then the executor queues the work on the
// caller's stream (only metadata is uploaded: the data stays where it is), on the device that holds the data. The
// calling thread's current device is left as it was (PyTorch and CuPy rely on it).
#include "cryptaccel/cuda.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "api/job_validation.hpp"
#include "cryptaccel/error.hpp"
#include "cuda/host/cuda_device.hpp"
#include "cuda/host/executor.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cuda {
namespace {

void require_device() {
  if (auto why = cuda_unavailable_reason(); !why.empty()) throw EngineUnavailable("cuda: " + why);
}

/// The device whose memory `p` points into; InvalidArgument naming `what` when `p` is not device (or managed) memory.
int device_of(const void* p, const std::string& what) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    throw InvalidArgument(what + " is not CUDA device memory");
  }
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
    throw InvalidArgument(what + " is not CUDA device memory (host memory: use run_batch / hash_batch for host data)");
  return a.device;
}

/// Restores the calling thread's current device on scope exit (CudaDevice's calls select their own).
class KeepCurrentDevice {
 public:
  KeepCurrentDevice() : device_(current_device()) {}
  ~KeepCurrentDevice() { (void)cudaSetDevice(device_); }
  KeepCurrentDevice(const KeepCurrentDevice&) = delete;
  KeepCurrentDevice& operator=(const KeepCurrentDevice&) = delete;

 private:
  int device_;
};

}  // namespace

bool available() { return cuda_unavailable_reason().empty(); }

std::string unavailable_reason() { return cuda_unavailable_reason(); }

void crypt_async(const CipherSpec& spec, Direction dir, std::span<const DeviceCipherJob> jobs, void* stream,
                 const DeviceOptions& options) {
  if (spec.pads())
    throw InvalidArgument("device-resident " + spec.name() + " takes no padding (set CipherSpec::padding = false)");
  std::vector<JobView> views;
  views.reserve(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const DeviceCipherJob& j = jobs[i];
    // The shared validation, on spans over device addresses (sizes and aliasing only; nothing is dereferenced).
    CipherJob check{j.key, j.iv, bytes_view(static_cast<const std::uint8_t*>(j.in), j.len),
                    mutable_bytes(static_cast<std::uint8_t*>(j.out), j.len), j.aad,
                    mutable_bytes(static_cast<std::uint8_t*>(j.tag), spec.mode == Mode::gcm ? j.tag_len : 0)};
    validate_job(spec, dir, options.xts_unit, check);
    if (check.status != JobStatus::pending) throw InvalidArgument("job " + std::to_string(i) + ": " + check.error);
    if (spec.mode == Mode::gcm && !j.tag) throw InvalidArgument("job " + std::to_string(i) + ": GCM needs a device tag buffer");
    JobView v;
    v.key = j.key, v.iv = j.iv, v.aad = j.aad, v.in_len = j.len, v.on_device = true;
    v.dev_in = static_cast<const std::uint8_t*>(j.in), v.dev_out = static_cast<std::uint8_t*>(j.out);
    v.tag_len = static_cast<std::uint32_t>(j.tag_len), v.dev_tag = static_cast<std::uint8_t*>(j.tag);
    v.dev_ok = reinterpret_cast<std::int32_t*>(j.ok);
    views.push_back(v);
  }
  require_device();
  // Every device buffer of the call on one device: the one that runs it (the first buffer's).
  int device = -1;
  for (std::size_t i = 0; i < views.size(); ++i) {
    const std::string job = "job " + std::to_string(i) + "'s ";
    auto check_on_device = [&](const void* p, const char* what) {
      if (!p) return;
      const int d = device_of(p, job + what);
      if (device < 0) device = d;
      if (d != device) throw InvalidArgument(job + what + " is on another device than the call's first buffer");
    };
    if (views[i].in_len) check_on_device(views[i].dev_in, "input"), check_on_device(views[i].dev_out, "output");
    check_on_device(views[i].dev_tag, "tag");
    check_on_device(views[i].dev_ok, "result flag");
  }
  if (device < 0) return;  // no job touches device memory: nothing to queue
  KeepCurrentDevice keep;
  CudaDevice& dev = cuda_device(device);
  std::lock_guard<std::mutex> lock(dev.mutex());
  enqueue_device_cipher(dev, spec, dir, views,
                        options.aes_kernel == AesKernel::ttable ? CipherImpl::aes_ttable : CipherImpl::aes_bitsliced,
                        options.xts_unit, stream);
}

void hash_async(HashAlgorithm algorithm, const void* data, const std::uint64_t* offsets, std::size_t count,
                void* digests, std::size_t digest_len, void* stream) {
  const HashInfo& info = hash_info(algorithm);
  if (info.xof ? digest_len == 0 : digest_len != info.digest_size)
    throw InvalidArgument("a " + std::string(info.name) + " digest must be " +
                          (info.xof ? std::string("at least 1 byte") : std::to_string(info.digest_size) + " bytes"));
  require_device();
  if (count == 0) return;
  const int device = device_of(offsets, "the offsets array");
  if (device_of(digests, "the digests buffer") != device || (data && device_of(data, "the data buffer") != device))
    throw InvalidArgument("the data, offsets and digests of one hash_async call must be on one device");
  KeepCurrentDevice keep;
  CudaDevice& dev = cuda_device(device);
  HashArgs a{};
  a.variant = static_cast<std::uint8_t>(engine::to_variant(algorithm));
  a.count = count;
  a.data = static_cast<const std::uint8_t*>(data);
  a.offsets = offsets;
  a.digests = static_cast<std::uint8_t*>(digests);
  a.digest_len = digest_len;
  std::lock_guard<std::mutex> lock(dev.mutex());
  dev.hash(a, stream);
}

void keccak_f1600_async(std::uint64_t* states, std::size_t count, void* stream) {
  require_device();
  if (count == 0) return;
  KeepCurrentDevice keep;
  CudaDevice& dev = cuda_device(device_of(states, "the states buffer"));
  std::lock_guard<std::mutex> lock(dev.mutex());
  dev.keccak(states, count, stream);
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream) {
  require_device();
  if (bytes == 0) return;
  KeepCurrentDevice keep;
  CudaDevice& dev = cuda_device(device_of(src, "the source buffer"));
  dev.copy_to_host(dst, src, bytes, stream);
  dev.synchronize(stream);
}

}  // namespace cryptaccel::cuda
