// GHASH (SP 800-38D §6.4) with PCLMULQDQ: Karatsuba multiplication (3 carry-less multiplies per block) and one
// reduction per 8 blocks (aggregated with the precomputed powers H^1..H^8), or per 16 blocks on VPCLMULQDQ,
// constant time. Used by the cpu engine's SM4-GCM and by GCM split across threads (src/engine/gcm_split.cpp) where
// AES-GCM's own kernel (aes_gcm_vaes.cpp) does not run. Derivation in ghash_pclmul_inline.hpp.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

/// Precomputed powers of the hash key for ghash_pclmul (wiped on destruction).
struct GhashPclmulKey {
  /// Most powers kept: H^1..H^16 (the VPCLMULQDQ path absorbs sixteen blocks per reduction, the SSE path eight).
  static constexpr std::size_t kMaxPowers = 16;
  /// [16 - j]: H^j "twisted" (see ghash_pclmul_inline.hpp) for j = 1..16, low 64 bits then high 64 bits: descending,
  /// so that n consecutive blocks take H^n..H^1 from the run [16 - n, 16). [16, 20): zero, what the lanes past a
  /// short group's last block read. Entries below 16 - count (ghash_pclmul_init) are zero too.
  alignas(64) std::uint64_t powers[kMaxPowers + 4][2];
  /// The XOR of the two halves of each entry of `powers` (Karatsuba's middle operand), in both 64-bit halves.
  alignas(64) std::uint64_t karatsuba[kMaxPowers + 4][2];
  ~GhashPclmulKey();
};

/// Whether this CPU runs ghash_pclmul (PCLMULQDQ and SSSE3, after CRYPTACCEL_CPU_MASK).
bool ghash_pclmul_available();

/// Precomputes `key` from the hash key H (16 bytes, GCM byte order: H = E_K(0^128)): the powers H^1..H^count
/// (count 1..16). ghash_pclmul needs all 16 on a CPU with VPCLMULQDQ and 8 without; a caller that absorbs at most n
/// blocks at a time itself (aes_gcm_vaes.cpp, for short messages) may compute only n.
void ghash_pclmul_init(GhashPclmulKey& key, const std::uint8_t h[16], std::size_t count = GhashPclmulKey::kMaxPowers);

/// y <- GHASH_H(y, data): absorbs `len` bytes, a final partial block zero-padded (as GCM pads A and C). `y` is 16
/// bytes in GCM byte order.
void ghash_pclmul(const GhashPclmulKey& key, std::uint8_t y[16], const std::uint8_t* data, std::size_t len);

/// x <- x * y in GCM's GF(2^128) (both 16 bytes, GCM byte order).
void gf128_mul_pclmul(std::uint8_t x[16], const std::uint8_t y[16]);

}  // namespace cryptaccel::cpu
