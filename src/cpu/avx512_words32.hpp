// What the 16-lane AVX-512 hash kernels (sha256_avx512_x16.cpp, sm3_avx512_x16.cpp) share: 32-bit lane arithmetic
// (rotations in one instruction, three-way XOR by VPTERNLOGD) and the message load, sixteen independent 64-byte
// blocks as sixteen ZMM registers of big-endian words, register i holding word i of every block. Each function is
// compiled for AVX-512 F/BW by its own target attribute (CA_AVX512).
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#define CA_AVX512 __attribute__((target("avx512f,avx512bw")))

namespace cryptaccel::cpu {
namespace {

template <int N>
CA_AVX512 inline __m512i rotl(__m512i x) {
  return _mm512_rol_epi32(x, N);
}
template <int N>
CA_AVX512 inline __m512i rotr(__m512i x) {
  return _mm512_ror_epi32(x, N);
}
CA_AVX512 inline __m512i xor3(__m512i a, __m512i b, __m512i c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
CA_AVX512 inline __m512i add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }

/// The sixteen big-endian words of the current block of every lane into w[0..16): a 16x16 transpose of 32-bit words.
/// Row j (lane j's block) is loaded whole; after the 32- and 64-bit unpacks each 128-bit lane of every register holds a
/// 4x4 transposed tile, and two rounds of 128-bit shuffles put the tiles of one word together.
CA_AVX512 inline void load_words_16x16(__m512i* w, const std::uint8_t* const p[16], std::size_t offset) {
  const __m512i byteswap = _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
  __m512i r[16], t[16];
  for (std::size_t j = 0; j < 16; ++j) r[j] = _mm512_shuffle_epi8(_mm512_loadu_si512(p[j] + offset), byteswap);
  for (int j = 0; j < 16; j += 2) {  // rows j, j+1 interleaved by words: (w0 of j, w0 of j+1, w1 of j, w1 of j+1) ...
    t[j] = _mm512_unpacklo_epi32(r[j], r[j + 1]);
    t[j + 1] = _mm512_unpackhi_epi32(r[j], r[j + 1]);
  }
  for (int j = 0; j < 16; j += 4) {  // 128-bit lane k of r[j + m] = words 4k + m of rows j .. j+3
    r[j] = _mm512_unpacklo_epi64(t[j], t[j + 2]);
    r[j + 1] = _mm512_unpackhi_epi64(t[j], t[j + 2]);
    r[j + 2] = _mm512_unpacklo_epi64(t[j + 1], t[j + 3]);
    r[j + 3] = _mm512_unpackhi_epi64(t[j + 1], t[j + 3]);
  }
  // Now lane k (128 bits) of r[4q + m] holds word 4k + m of rows 4q .. 4q+3. Gather, for word 4k + m, lane k of
  // r[m], r[4 + m], r[8 + m], r[12 + m]: first pairs of 128-bit lanes, then the pairs.
  for (int m = 0; m < 4; ++m) {
    const __m512i a = r[m], b = r[4 + m], c = r[8 + m], d = r[12 + m];
    // ab_lo = (a.l0, a.l1, b.l0, b.l1), ab_hi = (a.l2, a.l3, b.l2, b.l3); likewise cd.
    const __m512i ab_lo = _mm512_shuffle_i32x4(a, b, 0x44), ab_hi = _mm512_shuffle_i32x4(a, b, 0xEE);
    const __m512i cd_lo = _mm512_shuffle_i32x4(c, d, 0x44), cd_hi = _mm512_shuffle_i32x4(c, d, 0xEE);
    // Word 4k + m = (a.lk, b.lk, c.lk, d.lk).
    w[m] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88);       // k = 0: lanes 0, 2 of ab_lo, then of cd_lo
    w[4 + m] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xDD);   // k = 1: lanes 1, 3
    w[8 + m] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88);   // k = 2
    w[12 + m] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xDD);  // k = 3
  }
}

}  // namespace
}  // namespace cryptaccel::cpu
