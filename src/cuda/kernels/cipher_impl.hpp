// The three block-cipher implementations the GPU kernels are instantiated with, behind one shape:
//   Key                      expanded key schedule (lives in device memory, one per key slot)
//   kLanes                   blocks one call processes (a work unit of ECB/CTR/CBC/GCM-CTR is kLanes blocks)
//   expand(raw, key)         key schedule from a RawKey (one thread per key)
//   encrypt/decrypt(t, key, in, out, n)   n (1..kLanes) contiguous blocks; `in == out` allowed
// Round functions come from src/algo (bitsliced AES, SM4) and aes_ttable.hpp; nothing is re-derived here.
#pragma once
#include <cstdint>

#include "algo/aes_bitsliced.hpp"
#include "algo/sm4.hpp"
#include "cuda/kernels/aes_ttable.hpp"
#include "cuda/host/layout.hpp"

namespace cryptaccel::cuda {

template <CipherImpl I>
struct Impl;

/// Constant-time bitsliced AES on 32-bit planes: two blocks per call (the GPU's word size).
template <>
struct Impl<CipherImpl::aes_bitsliced> {
  using Key = algo::AesPlaneKeys<std::uint32_t>;
  static constexpr int kLanes = algo::kAesLanes<std::uint32_t>;
  CA_HD static void expand(const RawKey& raw, Key& key) {
    algo::AesRoundKeys rk;
    algo::aes_expand_key(raw.bytes, static_cast<int>(raw.len), rk);
    algo::aes_plane_keys(rk, key);
    for (int r = 0; r < 15; ++r)
      for (int k = 0; k < 16; ++k) rk.bytes[r][k] = 0;
  }
  CA_HD static void encrypt(const TtableView&, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    algo::aes_encrypt_blocks_bitsliced(key, in, out, n);
  }
  CA_HD static void decrypt(const TtableView&, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    algo::aes_decrypt_blocks_bitsliced(key, in, out, n);
  }
};

/// Shared-memory T-table AES (not constant time, see aes_ttable.hpp): one block at a time.
template <>
struct Impl<CipherImpl::aes_ttable> {
  using Key = TtableKey;
  static constexpr int kLanes = 2;
  CA_HD static void expand(const RawKey& raw, Key& key) {
    ttable_expand_key(raw.bytes, static_cast<int>(raw.len), key);
  }
  CA_HD static void encrypt(const TtableView& t, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    for (int i = 0; i < n; ++i) ttable_encrypt_block(t, key, in + 16 * i, out + 16 * i);
  }
  CA_HD static void decrypt(const TtableView& t, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    for (int i = 0; i < n; ++i) ttable_decrypt_block(t, key, in + 16 * i, out + 16 * i);
  }
};

/// Constant-time SM4: eight blocks share each round's bitsliced S-box evaluation.
template <>
struct Impl<CipherImpl::sm4> {
  using Key = algo::Sm4RoundKeys;
  static constexpr int kLanes = 8;
  CA_HD static void expand(const RawKey& raw, Key& key) { algo::sm4_expand_key(raw.bytes, key); }
  /// One block (CBC encryption's serial chain, a tail) on one lane: the bitsliced S-box is as cheap for one word,
  /// and packing the planes grows with the lanes.
  CA_HD static void encrypt(const TtableView&, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    if (n == 1) return algo::sm4_crypt_lanes<1>(key, false, in, out, 1);
    algo::sm4_crypt_lanes<kLanes>(key, false, in, out, n);
  }
  CA_HD static void decrypt(const TtableView&, const Key& key, const std::uint8_t* in, std::uint8_t* out, int n) {
    if (n == 1) return algo::sm4_crypt_lanes<1>(key, true, in, out, 1);
    algo::sm4_crypt_lanes<kLanes>(key, true, in, out, n);
  }
};

/// Blocks per work unit of the block-wise modes for `impl` (host-side mirror of Impl<I>::kLanes).
constexpr unsigned lanes_of(CipherImpl impl) {
  switch (impl) {
    case CipherImpl::aes_bitsliced: return Impl<CipherImpl::aes_bitsliced>::kLanes;
    case CipherImpl::aes_ttable: return Impl<CipherImpl::aes_ttable>::kLanes;
    case CipherImpl::sm4: return Impl<CipherImpl::sm4>::kLanes;
  }
  return 1;
}

/// Bytes of one key schedule for `impl`.
constexpr std::uint64_t key_schedule_size(CipherImpl impl) {
  switch (impl) {
    case CipherImpl::aes_bitsliced: return sizeof(Impl<CipherImpl::aes_bitsliced>::Key);
    case CipherImpl::aes_ttable: return sizeof(Impl<CipherImpl::aes_ttable>::Key);
    case CipherImpl::sm4: return sizeof(Impl<CipherImpl::sm4>::Key);
  }
  return 0;
}

}  // namespace cryptaccel::cuda
