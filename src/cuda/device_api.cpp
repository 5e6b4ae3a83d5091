// include/cryptaccel/cuda.hpp on a CUDA build: validation on the host, then the executor queues the work on the
// caller's stream (only metadata is uploaded: the data stays where it is).
#include "cryptaccel/cuda.hpp"

#include <mutex>
#include <vector>

#include "api/job_validation.hpp"
#include "cryptaccel/error.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/executor.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel::cuda {
namespace {

CudaDevice& usable_device() {
  if (auto why = cuda_unavailable_reason(); !why.empty()) throw EngineUnavailable("cuda: " + why);
  return cuda_device(current_device());
}

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
  CudaDevice& dev = usable_device();
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
  CudaDevice& dev = usable_device();
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
  CudaDevice& dev = usable_device();
  std::lock_guard<std::mutex> lock(dev.mutex());
  dev.keccak(states, count, stream);
}

}  // namespace cryptaccel::cuda
