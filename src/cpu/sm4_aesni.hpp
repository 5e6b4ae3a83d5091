// SM4 with the AES-NI S-box (src/cpu/sm4_simd_kernel.hpp): raw block and counter-mode functions, one set per ISA
// (sm4_aesni_sse.cpp: SSSE3 + AES-NI, 4 blocks per register; sm4_aesni_avx2.cpp: AVX2 + AES-NI, 8 blocks per
// register pair of lanes). The modes around them are in sm4_modes.cpp. Constant time.
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
};

/// SSSE3 + AES-NI (needs cpu_features().ssse3 && aesni).
const Sm4Simd& sm4_simd_sse();
/// AVX2 + AES-NI on each 128-bit lane (needs cpu_features().avx2 && aesni).
const Sm4Simd& sm4_simd_avx2();
/// The fastest implementation this CPU runs (after CRYPTACCEL_CPU_MASK), or nullptr without SSSE3 + AES-NI.
const Sm4Simd* sm4_simd_best();

/// SM4 key schedule (needs SSSE3 + AES-NI): the 32 encryption round keys.
void sm4_aesni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]);

}  // namespace cryptaccel::cpu
