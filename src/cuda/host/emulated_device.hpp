// A Device that runs the cuda engine's per-thread kernel bodies (thread_ops.hpp) on the host, one work unit after
// another (in reverse order, so a kernel whose units depend on running in order fails its tests). "Device memory"
// is host memory filled with a garbage pattern, streams are ignored and every call completes at once. Used by the
// tests to check the engine's host logic and kernel bodies without a GPU; not registered as an engine.
#pragma once
#include <memory>
#include <vector>

#include "cuda/host/device.hpp"
#include "cuda/kernels/xts_math.hpp"

namespace cryptaccel::cuda {

class EmulatedDevice final : public Device {
 public:
  EmulatedDevice();
  ~EmulatedDevice() override;

  std::size_t stream_count() const override { return 3; }
  Stream stream(std::size_t i) override { return reinterpret_cast<Stream>(i + 1); }
  std::uint8_t* alloc(std::size_t bytes, Stream) override;
  void free(void* p, Stream) override;
  std::uint8_t* alloc_pinned(std::size_t bytes) override;
  void release_pinned(void* p, Stream, std::size_t wipe_from, std::size_t wipe_len) override;
  void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream) override;
  void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream) override;
  void zero(void* dst, std::size_t bytes, Stream) override;
  void cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, Stream) override;
  void hash(const HashArgs& args, Stream) override;
  void keccak(std::uint64_t* states, std::uint64_t count, Stream) override;
  void rsa(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, Stream) override;
  /// RSA launches so far (all variants).
  std::size_t rsa_launches() const { return rsa_launches_[0] + rsa_launches_[1] + rsa_launches_[2]; }
  /// RSA launches so far with kernel variant `k`.
  std::size_t rsa_launches(RsaKernel k) const { return rsa_launches_[static_cast<int>(k)]; }
  void synchronize(Stream) override {}
  void wait(Stream, Stream) override {}
  const algo::Gf128* xts_alpha_pow() override { return alpha_pow_; }

  /// Allocations not yet freed (device and pinned), for leak checks in tests.
  std::size_t live_allocations() const { return live_; }
  /// Kernel launches so far, by operation.
  std::size_t launches(CipherOp op) const { return launches_[static_cast<int>(op)]; }
  /// Hash and Keccak-f launches so far.
  std::size_t hash_launches() const { return hash_launches_; }
  std::size_t keccak_launches() const { return keccak_launches_; }

 private:
  algo::Gf128 alpha_pow_[kXtsAlphaPowers];
  std::size_t live_ = 0;
  std::size_t launches_[16] = {};
  std::size_t hash_launches_ = 0, keccak_launches_ = 0;
  std::size_t rsa_launches_[3] = {};  // by RsaKernel
};

}  // namespace cryptaccel::cuda
