// GHASH's arithmetic on PCLMULQDQ and VPCLMULQDQ, inline: one implementation for ghash_pclmul.cpp (GHASH alone) and
// aes_gcm_vaes.cpp (AES-GCM with the counter mode and GHASH in one pass). Checked by tests/cpp/test_ghash_pclmul.cpp
// against the portable bit-serial multiply in src/algo/ghash.hpp.
//
// GCM numbers the bits of a block from the most significant bit of byte 0 (coefficient of x^0). Byte-reversing a
// block (PSHUFB) and reading it as a 128-bit integer puts the coefficient of x^k at bit 127 - k: the bit-reflected
// form r(a). A carry-less product of reflected operands is reflected too: clmul(r(a), r(b)) holds c_k, the
// coefficients of c = a*b, at bit 254 - k.
//
// Twisted key: with H~ = H * x^-1 mod g (g = x^128 + x^7 + x^2 + x + 1), clmul(r(a), r(H~)) holds the coefficient
// of x^k of a*H at bit 255 - k: the product already sits in "256-bit reflected" position, with no 1-bit shift of
// the 256-bit result. r(H * x^-1) = r(H) << 1, XOR 0xC2000000_00000000_00000000_00000001 (= r(x^-1) = r(x^127 + x^6
// + x + 1)) when the bit shifted out (the coefficient of x^0) was set; done once per key, masks instead of branches.
//
// Reduction of a 256-bit E = [E3:E2:E1:E0] (64-bit words, c_k at bit 255 - k): the low 128 bits are the
// coefficients of x^128..x^255. Read as a polynomial in y = 2 (bit order), reducing modulo g becomes cancelling the
// low 128 bits with multiples of g*(y) = y^128 + y^127 + y^126 + y^121 + 1 = y^128 + y^64 * K + 1,
// K = 0xC200000000000000. Cancelling E0 adds E0 * g*: E1 ^= lo(K*E0), E2 ^= hi(K*E0) ^ E0. Cancelling the new E1
// likewise: E2 ^= lo(K*E1), E3 ^= hi(K*E1) ^ E1. In registers each step is
//     fold(X) = swap64(X) ^ clmul(X.lo, K),   result = [E3:E2] ^ fold(fold([E1:E0])).
// No Montgomery factor appears: in reflected order the low bits are the high powers, so this is exact reduction.
//
// Aggregation: n blocks are absorbed as Y' = (Y ^ C1)*H^n ^ C2*H^(n-1) ^ ... ^ Cn*H; the n unreduced Karatsuba
// products are XORed and reduced once. The key keeps its powers in descending order (GhashPclmulKey), so the powers
// of any n <= 16 consecutive blocks are one contiguous run, and a register of four blocks takes its four powers with
// one load.
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cpu/ghash_pclmul.hpp"

#define CA_GHASH_PCLMUL __attribute__((target("pclmul,ssse3")))
#define CA_GHASH_VPCLMUL __attribute__((target("avx512f,avx512bw,vpclmulqdq,pclmul,ssse3")))

namespace cryptaccel::cpu::ghash {

inline constexpr std::uint64_t kK = 0xC200000000000000ull;

CA_GHASH_PCLMUL inline __m128i reflect(__m128i v) {
  return _mm_shuffle_epi8(v, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
}
inline __m128i load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline __m128i load_power(const std::uint64_t (*table)[2], std::size_t i) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(table[i]));
}

/// Unreduced Karatsuba sums: low, high and middle products.
struct Acc {
  __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128(), mid = _mm_setzero_si128();
};

/// acc += x * h (h twisted, hk its Karatsuba middle operand).
CA_GHASH_PCLMUL inline void mul_add(Acc& a, __m128i x, __m128i h, __m128i hk) {
  a.lo = _mm_xor_si128(a.lo, _mm_clmulepi64_si128(x, h, 0x00));
  a.hi = _mm_xor_si128(a.hi, _mm_clmulepi64_si128(x, h, 0x11));
  const __m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4E));
  a.mid = _mm_xor_si128(a.mid, _mm_clmulepi64_si128(xk, hk, 0x00));
}

CA_GHASH_PCLMUL inline __m128i fold(__m128i x, __m128i k) {
  return _mm_xor_si128(_mm_shuffle_epi32(x, 0x4E), _mm_clmulepi64_si128(x, k, 0x00));
}

/// The reduced product of the sums in `a`, in reflected form.
CA_GHASH_PCLMUL inline __m128i reduce(const Acc& a) {
  const __m128i mid = _mm_xor_si128(a.mid, _mm_xor_si128(a.lo, a.hi));
  const __m128i e_lo = _mm_xor_si128(a.lo, _mm_slli_si128(mid, 8));
  const __m128i e_hi = _mm_xor_si128(a.hi, _mm_srli_si128(mid, 8));
  const __m128i k = _mm_cvtsi64_si128(static_cast<long long>(kK));
  return _mm_xor_si128(e_hi, fold(fold(e_lo, k), k));
}

/// y (reflected) absorbs n (1..8) blocks at p; needs the key's powers H^1..H^n.
CA_GHASH_PCLMUL inline __m128i absorb(const GhashPclmulKey& key, __m128i y, const std::uint8_t* p, int n) {
  Acc a;
  const std::size_t first = GhashPclmulKey::kMaxPowers - static_cast<std::size_t>(n);  // powers[first] = H^n
  for (int i = 0; i < n; ++i) {
    __m128i x = reflect(load(p + 16 * i));
    if (i == 0) x = _mm_xor_si128(x, y);
    mul_add(a, x, load_power(key.powers, first + i), load_power(key.karatsuba, first + i));
  }
  return reduce(a);
}

/// Each 16-byte lane of `v` byte-reversed (four blocks to their reflected form, or back).
CA_GHASH_VPCLMUL inline __m512i reflect4(__m512i v) {
  return _mm512_shuffle_epi8(
      v, _mm512_broadcast_i32x4(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
}

/// XOR of the four 128-bit lanes.
CA_GHASH_VPCLMUL inline __m128i xor_lanes(__m512i v) {
  const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/// The powers of one register of four blocks: twisted H^j for its lanes, and their Karatsuba operands.
struct Powers4 {
  __m512i h, k;
};

/// The powers of the four blocks that start `n` blocks before the end of a group (n in 1..16): H^n .. H^(n-3), zero
/// for the lanes past the group's end.
CA_GHASH_VPCLMUL inline Powers4 powers4(const GhashPclmulKey& key, int n) {
  const std::size_t at = GhashPclmulKey::kMaxPowers - static_cast<std::size_t>(n);
  return {_mm512_loadu_si512(key.powers[at]), _mm512_loadu_si512(key.karatsuba[at])};
}

/// y absorbs R registers x[0..R) of reflected blocks, n of them in all (4R - 3 <= n <= 4R; the lanes past the n-th
/// block are zero), with one reduction; needs H^1..H^n.
template <int R>
CA_GHASH_VPCLMUL inline __m128i absorb4(const Powers4* p, __m128i y, const __m512i* x) {
  __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512(), mid = _mm512_setzero_si512();
  for (int r = 0; r < R; ++r) {
    __m512i v = x[r];
    if (r == 0) v = _mm512_xor_si512(v, _mm512_zextsi128_si512(y));
    lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(v, p[r].h, 0x00));
    hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(v, p[r].h, 0x11));
    const __m512i vk = _mm512_xor_si512(v, _mm512_shuffle_epi32(v, _MM_PERM_BADC));
    mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128(vk, p[r].k, 0x00));
  }
  Acc a;
  a.lo = xor_lanes(lo), a.hi = xor_lanes(hi), a.mid = xor_lanes(mid);
  return reduce(a);
}

/// The powers for R registers holding n blocks (4R - 3 <= n <= 4R), as absorb4 takes them.
template <int R>
CA_GHASH_VPCLMUL inline void load_powers4(const GhashPclmulKey& key, int n, Powers4* p) {
  for (int r = 0; r < R; ++r) p[r] = powers4(key, n - 4 * r);
}

/// Zeroes R loaded powers (key material) once a loop is done with them.
template <int R>
CA_GHASH_VPCLMUL inline void wipe_powers4(Powers4* p) {
  for (int r = 0; r < R; ++r) p[r].h = p[r].k = _mm512_setzero_si512();
}

}  // namespace cryptaccel::cpu::ghash
