// GHASH (SP 800-38D §6.4) with PCLMULQDQ: Karatsuba multiplication (3 carry-less multiplies per block) and one
// reduction per 8 blocks (aggregated with the precomputed powers H^1..H^8), constant time. Used by the cpu engine's
// SM4-GCM and by GCM split across threads (src/engine/gcm_split.cpp). Derivation in ghash_pclmul.cpp.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

/// Precomputed powers of the hash key for ghash_pclmul (wiped on destruction).
struct GhashPclmulKey {
  /// [i]: H^(i+1) "twisted" (see ghash_pclmul.cpp): low 64 bits, high 64 bits. Sixteen for the VPCLMULQDQ path,
  /// which absorbs sixteen blocks per reduction; the SSE path uses the first eight.
  alignas(64) std::uint64_t powers[16][2];
  /// [i]: the XOR of the two halves of powers[i] (Karatsuba's middle operand), in both 64-bit halves.
  alignas(64) std::uint64_t karatsuba[16][2];
  ~GhashPclmulKey();
};

/// Whether this CPU runs ghash_pclmul (PCLMULQDQ and SSSE3, after CRYPTACCEL_CPU_MASK).
bool ghash_pclmul_available();

/// Precomputes `key` from the hash key H (16 bytes, GCM byte order: H = E_K(0^128)).
void ghash_pclmul_init(GhashPclmulKey& key, const std::uint8_t h[16]);

/// y <- GHASH_H(y, data): absorbs `len` bytes, a final partial block zero-padded (as GCM pads A and C). `y` is 16
/// bytes in GCM byte order.
void ghash_pclmul(const GhashPclmulKey& key, std::uint8_t y[16], const std::uint8_t* data, std::size_t len);

/// x <- x * y in GCM's GF(2^128) (both 16 bytes, GCM byte order).
void gf128_mul_pclmul(std::uint8_t x[16], const std::uint8_t y[16]);

}  // namespace cryptaccel::cpu
