// AES-128, AES-192 and AES-256 key expansion (FIPS-197 §5.2) with AESENCLAST, and the inverse schedule, for the cpu
// engine's own AES-NI and VAES kernels (aes_xts_aesni.cpp, aes_ctr_vaes.cpp, aes_ecb_cbc_vaes.cpp, aes_gcm_vaes.cpp):
// round keys as the AESENC instructions take them, 16 bytes each. Include only from a translation unit compiled for
// AES-NI (its functions are under #pragma GCC target("aes")).
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cryptaccel/types.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("sse2,ssse3,aes")

namespace cryptaccel::cpu::aes_schedule {

inline void store_key(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

/// [w0, w0^w1, w0^w1^w2, w0^w1^w2^w3]: the chained XOR of the key-expansion words within one round key.
inline __m128i prefix_xor(__m128i w) {
  w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
  return _mm_xor_si128(w, _mm_slli_si128(w, 8));
}

// RotWord/SubWord through AESENCLAST rather than AESKEYGENASSIST: with the word to transform copied into all four
// columns (PSHUFB), ShiftRows moves nothing, so AESENCLAST(x, rcon) = SubWord(x) ^ rcon in every column. The round
// key chain is latency-bound, and this step is shorter: 8.5 against 11.3 TSC cycles per AES-128 round key (best of
// 2000 x 100 expansions on the Xeon of bench/results/2026-11-28-xeon-2c-ifma-vaes; OpenSSL's AES-NI key expansion
// does the same).

/// Byte indices that copy word 3 of a round key into all four columns, rotated (RotWord) or not.
inline __m128i word3_rotated() { return _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12); }
inline __m128i word3() { return _mm_setr_epi8(12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15); }

/// AES-128: the next round key from the previous one (RotWord, SubWord and Rcon of its last word).
template <int Rcon>
inline __m128i next128(__m128i k) {
  return _mm_xor_si128(prefix_xor(k), _mm_aesenclast_si128(_mm_shuffle_epi8(k, word3_rotated()), _mm_set1_epi32(Rcon)));
}

/// AES-256, even round key 2i: from keys 2i-2 and 2i-1 (RotWord, SubWord, Rcon).
template <int Rcon>
inline __m128i next256_even(__m128i k2, __m128i k1) {
  return _mm_xor_si128(prefix_xor(k2),
                       _mm_aesenclast_si128(_mm_shuffle_epi8(k1, word3_rotated()), _mm_set1_epi32(Rcon)));
}

/// AES-256, odd round key 2i+1: from keys 2i-1 and 2i (SubWord only).
inline __m128i next256_odd(__m128i k2, __m128i k1) {
  return _mm_xor_si128(prefix_xor(k2), _mm_aesenclast_si128(_mm_shuffle_epi8(k1, word3()), _mm_setzero_si128()));
}

/// The 11 round keys of AES-128 into rk[0..10].
inline void expand128(const std::uint8_t* key, std::uint8_t rk[15][16]) {
  __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  store_key(rk[0], k);
  k = next128<0x01>(k), store_key(rk[1], k);
  k = next128<0x02>(k), store_key(rk[2], k);
  k = next128<0x04>(k), store_key(rk[3], k);
  k = next128<0x08>(k), store_key(rk[4], k);
  k = next128<0x10>(k), store_key(rk[5], k);
  k = next128<0x20>(k), store_key(rk[6], k);
  k = next128<0x40>(k), store_key(rk[7], k);
  k = next128<0x80>(k), store_key(rk[8], k);
  k = next128<0x1b>(k), store_key(rk[9], k);
  k = next128<0x36>(k), store_key(rk[10], k);
}

/// The 15 round keys of AES-256 into rk[0..14].
inline void expand256(const std::uint8_t* key, std::uint8_t rk[15][16]) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key)),
          b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 16));
  store_key(rk[0], a), store_key(rk[1], b);
  a = next256_even<0x01>(a, b), store_key(rk[2], a);
  b = next256_odd(b, a), store_key(rk[3], b);
  a = next256_even<0x02>(a, b), store_key(rk[4], a);
  b = next256_odd(b, a), store_key(rk[5], b);
  a = next256_even<0x04>(a, b), store_key(rk[6], a);
  b = next256_odd(b, a), store_key(rk[7], b);
  a = next256_even<0x08>(a, b), store_key(rk[8], a);
  b = next256_odd(b, a), store_key(rk[9], b);
  a = next256_even<0x10>(a, b), store_key(rk[10], a);
  b = next256_odd(b, a), store_key(rk[11], b);
  a = next256_even<0x20>(a, b), store_key(rk[12], a);
  b = next256_odd(b, a), store_key(rk[13], b);
  a = next256_even<0x40>(a, b), store_key(rk[14], a);
}

/// SubWord of a 32-bit word (its four bytes through the S-box), by AESENCLAST on the word copied into every column.
inline std::uint32_t sub_word(std::uint32_t w) {
  return static_cast<std::uint32_t>(
      _mm_cvtsi128_si32(_mm_aesenclast_si128(_mm_set1_epi32(static_cast<int>(w)), _mm_setzero_si128())));
}

/// The 13 round keys of AES-192 into rk[0..12]: FIPS-197's word recurrence (Nk = 6) on little-endian words, so
/// RotWord is a rotation right by 8 and Rcon goes into the low byte. Only the loop index (public) picks a step.
inline void expand192(const std::uint8_t* key, std::uint8_t rk[15][16]) {
  std::uint32_t w[52];
  std::memcpy(w, key, 24);
  std::uint32_t rcon = 1;
  for (int i = 6; i < 52; ++i) {
    std::uint32_t t = w[i - 1];
    if (i % 6 == 0) {
      const std::uint32_t s = sub_word(t);
      t = ((s >> 8) | (s << 24)) ^ rcon;
      rcon <<= 1;  // 1, 2, ..., 0x80: AES-192 needs eight, so no reduction
    }
    w[i] = w[i - 6] ^ t;
  }
  std::memcpy(rk, w, sizeof w);
  secure_wipe(w, sizeof w);
}

/// The schedule of a 16-, 24- or 32-byte key into rk; returns its number of rounds (10, 12, 14).
inline int expand(const std::uint8_t* key, std::size_t key_len, std::uint8_t rk[15][16]) {
  if (key_len == 16) return expand128(key, rk), 10;
  if (key_len == 24) return expand192(key, rk), 12;
  return expand256(key, rk), 14;
}

/// The equivalent inverse cipher's round keys (FIPS-197 §5.3.5) in the order AESDEC uses them: dec[0] = enc[rounds],
/// dec[i] = InvMixColumns(enc[rounds - i]), dec[rounds] = enc[0].
inline void inverse_schedule(const std::uint8_t enc[15][16], int rounds, std::uint8_t dec[15][16]) {
  store_key(dec[0], _mm_loadu_si128(reinterpret_cast<const __m128i*>(enc[rounds])));
  for (int i = 1; i < rounds; ++i)
    store_key(dec[i], _mm_aesimc_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(enc[rounds - i]))));
  store_key(dec[rounds], _mm_loadu_si128(reinterpret_cast<const __m128i*>(enc[0])));
}

}  // namespace cryptaccel::cpu::aes_schedule

CA_TARGET_END

namespace cryptaccel::cpu::aes_schedule {

/// Calls f(std::integral_constant<int, R>{}) with R = rounds (10, 12 or 14): the kernels are templates on the round
/// count, and this is the one place that turns the count into a template argument.
template <typename F>
decltype(auto) with_rounds(int rounds, F&& f) {
  if (rounds == 10) return f(std::integral_constant<int, 10>{});
  if (rounds == 12) return f(std::integral_constant<int, 12>{});
  return f(std::integral_constant<int, 14>{});
}

}  // namespace cryptaccel::cpu::aes_schedule
