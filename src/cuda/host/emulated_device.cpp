#include "cuda/host/emulated_device.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "cryptaccel/types.hpp"
#include "cuda/kernels/aes_ttable.hpp"
#include "cuda/rsa/rsa_plan.hpp"
#include "cuda/kernels/thread_ops.hpp"

namespace cryptaccel::cuda {
namespace {

constexpr unsigned char kGarbage = 0xA5;  // fresh "device" and staging memory: never silently zero

template <CipherImpl I>
void run_cipher(CipherOp op, const CipherArgs& a, std::uint64_t items, const TtableView& t) {
  // Reverse order: units must not depend on the order they run in.
  for (std::uint64_t i = items; i-- > 0;) {
    switch (op) {
      case CipherOp::expand_keys: op_expand_keys<I>(a, i); break;
      case CipherOp::ecb: op_ecb<I>(a, t, i); break;
      case CipherOp::ctr: op_ctr<I>(a, t, i); break;
      case CipherOp::cbc_gather: op_cbc_gather<I>(a, i); break;
      case CipherOp::cbc_decrypt: op_cbc_decrypt<I>(a, t, i); break;
      case CipherOp::cbc_encrypt: op_cbc_encrypt<I>(a, t, i); break;
      case CipherOp::xts: op_xts<I>(a, t, i); break;
      case CipherOp::gcm_setup: op_gcm_setup<I>(a, t, i); break;
      case CipherOp::gcm_ctr: op_gcm_ctr<I>(a, t, i); break;
      case CipherOp::ghash_segments: op_ghash_segments(a, i); break;
      case CipherOp::ghash_combine: op_ghash_combine(a, i); break;
      case CipherOp::ghash_collect: op_ghash_collect(a, i); break;
      case CipherOp::gcm_finalize: op_gcm_finalize<I>(a, t, i); break;
      case CipherOp::gcm_wipe_failed: op_gcm_wipe_failed<I>(a, i); break;
    }
  }
}

}  // namespace

EmulatedDevice::EmulatedDevice() { xts_alpha_pow_table(alpha_pow_); }

EmulatedDevice::~EmulatedDevice() = default;

std::uint8_t* EmulatedDevice::alloc(std::size_t bytes, Stream) {
  auto* p = static_cast<std::uint8_t*>(std::malloc(bytes ? bytes : 1));
  if (!p) throw std::bad_alloc();
  std::memset(p, kGarbage, bytes);
  ++live_;
  return p;
}

void EmulatedDevice::free(void* p, Stream) {
  if (!p) return;
  std::free(p);
  --live_;
}

std::uint8_t* EmulatedDevice::alloc_pinned(std::size_t bytes) { return alloc(bytes, nullptr); }

void EmulatedDevice::release_pinned(void* p, Stream, std::size_t wipe_from, std::size_t wipe_len) {
  if (!p) return;
  secure_wipe(static_cast<std::uint8_t*>(p) + wipe_from, wipe_len);
  free(p, nullptr);
}

void EmulatedDevice::copy_to_device(void* dst, const void* src, std::size_t bytes, Stream) {
  if (bytes) std::memmove(dst, src, bytes);
}

void EmulatedDevice::copy_to_host(void* dst, const void* src, std::size_t bytes, Stream) {
  if (bytes) std::memmove(dst, src, bytes);
}

void EmulatedDevice::zero(void* dst, std::size_t bytes, Stream) { std::memset(dst, 0, bytes); }

void EmulatedDevice::cipher(CipherOp op, const CipherArgs& args, std::uint64_t items, Stream) {
  ++launches_[static_cast<int>(op)];
  const TtableTables& tables = ttable_tables();
  const TtableView view{tables.te, tables.td, tables.inv_sbox, 1, 0};
  switch (args.impl) {
    case CipherImpl::aes_bitsliced: return run_cipher<CipherImpl::aes_bitsliced>(op, args, items, view);
    case CipherImpl::aes_ttable: return run_cipher<CipherImpl::aes_ttable>(op, args, items, view);
    case CipherImpl::sm4: return run_cipher<CipherImpl::sm4>(op, args, items, view);
  }
}

void EmulatedDevice::hash(const HashArgs& args, Stream) {
  ++hash_launches_;
  for (std::uint64_t i = args.count; i-- > 0;) op_hash(args, i);
}

void EmulatedDevice::keccak(std::uint64_t* states, std::uint64_t count, Stream) {
  ++keccak_launches_;
  for (std::uint64_t i = count; i-- > 0;) op_keccak(states, i);
}

void EmulatedDevice::rsa(const RsaModexpArgs& args, std::size_t words, RsaExpKind kind, RsaKernel kernel, Stream) {
  ++rsa_launches_[static_cast<int>(kernel)];
  rsa_emulate(args, words, kind, kernel);
}

}  // namespace cryptaccel::cuda
