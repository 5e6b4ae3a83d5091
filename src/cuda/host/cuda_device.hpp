// The Device of src/cuda/host/device.hpp on a real GPU, through the CUDA runtime: device query, streams, stream-ordered
// device memory (cudaMallocAsync on the device's pool), a pool of pinned staging buffers released by stream
// events, and the kernel launchers of kernels.cu. Built only with CUDA.
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "cuda/host/device.hpp"

namespace cryptaccel::cuda {

/// What cudaGetDeviceCount said, asked once per process.
struct DeviceQuery {
  int count = 0;
  std::string error;  ///< the CUDA error string when the query failed
};
const DeviceQuery& device_query();

/// Empty when a CUDA device is usable; otherwise "no NVIDIA GPU found (cudaGetDeviceCount: ...)".
std::string cuda_unavailable_reason();

class CudaDevice final : public Device {
 public:
  /// Sets up device `index`: streams, memory pool, kernel tables. Throws cryptaccel::Error on failure.
  explicit CudaDevice(int index);
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  std::size_t stream_count() const override { return streams_.size(); }
  Stream stream(std::size_t i) override { return streams_[i]; }
  std::uint8_t* alloc(std::size_t bytes, Stream s) override;
  void free(void* p, Stream s) override;
  std::uint8_t* alloc_pinned(std::size_t bytes) override;
  void release_pinned(void* p, Stream s, std::size_t wipe_from, std::size_t wipe_len) override;
  void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream s) override;
  void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream s) override;
  void zero(void* dst, std::size_t bytes, Stream s) override;
  void cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, Stream s) override;
  void hash(const HashArgs& args, Stream s) override;
  void keccak(std::uint64_t* states, std::uint64_t count, Stream s) override;
  void rsa(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, Stream s) override;
  void synchronize(Stream s) override;
  void wait(Stream waiter, Stream waited) override;
  const algo::Gf128* xts_alpha_pow() override { return alpha_pow_; }

  int index() const { return index_; }
  int sm_count() const { return sm_count_; }
  const std::string& name() const { return name_; }

 private:
  struct PinnedBlock {
    std::uint8_t* ptr;
    std::size_t size;
    void* event;   ///< cudaEvent_t recorded at release
    bool in_use;
    bool pending;  ///< released, waiting for its event
    std::size_t wipe_from, wipe_len;
  };
  void select() const;
  void reap_pinned();  ///< pinned_mutex_ held

  int index_;
  int sm_count_ = 0;
  std::string name_;
  std::vector<Stream> streams_;
  algo::Gf128* alpha_pow_ = nullptr;
  std::mutex pinned_mutex_;
  std::vector<PinnedBlock> pinned_;
};

/// The process-wide CudaDevice for device `index` (created on first use, never destroyed: the CUDA runtime may be
/// gone at static destruction time).
CudaDevice& cuda_device(int index);

/// The device current for the calling thread (cudaGetDevice).
int current_device();

/// Page-locks [p, p + n) of the caller's host memory for every device (cudaHostRegister, portable) and records it in
/// host_pins(), so that the executor copies to and from it directly; false (nothing done) when the runtime refuses
/// (no device, or the memory limit for locked pages). Undo with unpin_host_memory(p) before the memory is freed.
bool pin_host_memory(void* p, std::size_t n);
/// Undoes pin_host_memory(p).
void unpin_host_memory(void* p);

}  // namespace cryptaccel::cuda
