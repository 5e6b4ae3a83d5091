// What the cuda engine's host logic (src/cuda/host/executor.cpp) needs from a GPU: memory, copies, stream order and the
// kernels. CudaDevice (src/cuda/host/cuda_device.cpp) implements it with the CUDA runtime; EmulatedDevice
// (src/cuda/host/emulated_device.cpp) runs the same per-thread kernel bodies on the host, so the whole host path —
// planning, packing, pipelining, unpacking — is tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "cuda/host/layout.hpp"
#include "cuda/rsa/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {

/// A stream (cudaStream_t on a GPU; ignored by the emulation). Work on one stream runs in order.
using Stream = void*;

/// The cipher kernels (see src/cuda/kernels/thread_ops.hpp for what each does per work unit).
enum class CipherOp {
  expand_keys, ecb, ctr, cbc_gather, cbc_decrypt, cbc_encrypt, xts,
  gcm_setup, gcm_ctr, ghash_segments, ghash_combine, ghash_collect, gcm_finalize, gcm_wipe_failed,
};

class Device {
 public:
  virtual ~Device() = default;

  /// Streams the pipeline may use (at least 1).
  virtual std::size_t stream_count() const = 0;
  virtual Stream stream(std::size_t i) = 0;

  /// Device memory (stream-ordered on `s`: usable by work queued on `s` after this call).
  virtual std::uint8_t* alloc(std::size_t bytes, Stream s) = 0;
  /// Frees after the work queued on `s` so far.
  virtual void free(void* p, Stream s) = 0;
  /// Page-locked host memory for staging (pooled between calls).
  virtual std::uint8_t* alloc_pinned(std::size_t bytes) = 0;
  /// Returns `p` to the pool once the work queued on `s` so far is done, first wiping [wipe_from, wipe_from +
  /// wipe_len) of it (key material). The caller must not touch `p` afterwards.
  virtual void release_pinned(void* p, Stream s, std::size_t wipe_from, std::size_t wipe_len) = 0;

  virtual void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream s) = 0;
  virtual void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream s) = 0;
  virtual void zero(void* dst, std::size_t bytes, Stream s) = 0;

  /// Runs `op` over `items` work units (or keys, jobs, parents, slots, pairs: see thread_ops.hpp).
  virtual void cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, Stream s) = 0;
  /// Hashes args.count messages, one per thread.
  virtual void hash(const HashArgs& args, Stream s) = 0;
  /// Keccak-f[1600] on `count` states of 25 lanes in device memory.
  virtual void keccak(std::uint64_t* states, std::uint64_t count, Stream s) = 0;
  /// args.count modular exponentiations with `words`-word moduli by kernel variant `kernel` (rsa_kernel_variant.hpp).
  virtual void rsa(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, Stream s) = 0;

  /// Blocks the calling thread until the work queued on `s` is done; throws on a device error.
  virtual void synchronize(Stream s) = 0;
  /// Makes later work on `waiter` wait for the work queued on `waited` so far.
  virtual void wait(Stream waiter, Stream waited) = 0;

  /// XTS's α^(2^i) table (kXtsAlphaPowers entries) in device memory.
  virtual const algo::Gf128* xts_alpha_pow() = 0;

  /// Held by callers for a whole batch: one batch at a time per device.
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
};

}  // namespace cryptaccel::cuda
