// SM4 on SIMD registers (src/cpu/sm4_simd_kernel.hpp): raw block and counter-mode functions, one set per ISA
// (sm4_aesni_sse.cpp: SSSE3 + AES-NI, 4 blocks per register; sm4_aesni_avx2.cpp: AVX2 + AES-NI, 8 blocks per
// register pair of lanes; sm4_gfni_sse.cpp: SSSE3 + GFNI, 4 blocks; sm4_gfni_avx512.cpp: AVX-512 F/BW + GFNI, 16 blocks
// per register). The modes around them are in sm4_modes.cpp. Constant time.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

/// One SIMD implementation of SM4. Round keys come from sm4_aesni_expand_key (decryption: the same keys reversed).
struct Sm4Simd {
  const char* name;    ///< "aesni-sse", "aesni-avx2"
  std::size_t blocks;  ///< blocks processed together; callers hand over multiples of this where they can
  /// ECB over `nblocks` blocks (in == out allowed).
  void (*crypt)(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks);
  /// Counter mode over `len` bytes: out = in ^ E(ctr), E(ctr + 1), ... (in == out allowed). `counter` (16 bytes) is
  /// advanced past the blocks used: by GCM's inc32 (low 32 bits, wrapping alone) or as one 128-bit big-endian
  /// integer (CTR).
  void (*ctr)(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in,
              std::uint8_t* out, std::size_t len);
  /// The SM4 S-box tau on each of `tau_bytes` bytes (for tests).
  void (*tau)(const std::uint8_t* in, std::uint8_t* out);
  std::size_t tau_bytes;
  /// The key schedule with this implementation's S-box: the 32 encryption round keys.
  void (*expand_key)(const std::uint8_t key[16], std::uint32_t rk[32]);
};

/// SSSE3 + AES-NI (needs cpu_features().ssse3 && aesni).
const Sm4Simd& sm4_simd_sse();
/// AVX2 + AES-NI on each 128-bit lane (needs cpu_features().avx2 && aesni).
const Sm4Simd& sm4_simd_avx2();
/// SSSE3 + GFNI (needs cpu_features().ssse3 && aesni && gfni).
const Sm4Simd& sm4_simd_gfni_sse();
/// SSSE3 + GFNI + AVX-512 VL on XMM registers (needs cpu_features().ssse3 && aesni && gfni && avx512vl).
const Sm4Simd& sm4_simd_gfni_avx512vl();
/// AVX-512 F/BW + GFNI (needs cpu_features().avx512f && avx512bw && gfni).
const Sm4Simd& sm4_simd_gfni_avx512();
/// The fastest implementation this CPU runs for many blocks (after CRYPTACCEL_CPU_MASK), or nullptr without SSSE3 +
/// AES-NI.
const Sm4Simd* sm4_simd_best();
/// The implementation with the least work and latency for up to four blocks (CBC encryption, one-block messages):
/// gfni-avx512vl, gfni-sse or aesni-sse, the first this CPU runs. Needs SSSE3 + AES-NI.
const Sm4Simd& sm4_simd_small();

/// SM4 key schedule (needs SSSE3 + AES-NI): the 32 encryption round keys, by sm4_simd_small()'s S-box.
void sm4_aesni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]);

}  // namespace cryptaccel::cpu
