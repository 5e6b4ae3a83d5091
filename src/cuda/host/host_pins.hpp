// Host memory page-locked for the GPU by its owner (cudaHostRegister: the cuda engine's pin_host_buffer, which the
// streaming pipeline calls for its batch buffers). The executor (src/cuda/host/executor.cpp) asks covers() before each
// chunk: a job whose input or output lies in such memory is copied to or from the device directly, without the
// memcpy through the pipeline's pinned staging buffer (on a GPU, the DMA engine reads and writes it in place).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace cryptaccel::cuda {

/// The set of page-locked host ranges (process-wide: page-locking is not per device).
class HostPins {
 public:
  /// Records [p, p + n) as page-locked (the caller has locked it).
  void add(const void* p, std::size_t n);
  /// Forgets the range that starts at p (before the caller unlocks it).
  void remove(const void* p);
  /// Whether all of [p, p + n) lies in one recorded range (n == 0: false).
  bool covers(const void* p, std::size_t n) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> ranges_;  // begin -> end
};

/// The process's page-locked host ranges.
HostPins& host_pins();

}  // namespace cryptaccel::cuda
