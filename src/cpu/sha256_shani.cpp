// SHA-NI keeps the state as two registers, ABEF and CDGH; sha256rnds2 does two rounds, sha256msg1/msg2 the message
// schedule four words at a time. Compiled for the SHA extension with a target attribute (never -march=native):
// callers check CPUID first.
#include "cpu/sha256_shani.hpp"

#include <immintrin.h>

#include "algo/sha256.hpp"

namespace cryptaccel::cpu {

__attribute__((target("sha,sse4.1,ssse3"))) void sha256_shani_blocks(std::uint32_t h[8], const std::uint8_t* blocks,
                                                                       std::size_t n) {
  const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);  // big-endian words
  const auto* k = algo::kSha256K_host;

  // h[0..3] = a b c d, h[4..7] = e f g h  ->  ABEF, CDGH (high to low word order).
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

  for (; n; --n, blocks += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[4];  // the last four groups of four message words, as a ring
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {
      __m128i& cur = w[g & 3];
      if (g < 4) {
        cur = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * g)), byteswap);
      } else {
        // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four at a time.
        __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);   // groups g-4, g-3
        t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));  // words t-7: groups g-2|g-1
        cur = _mm_sha256msg2_epu32(t, w[(g + 3) & 3]);
      }
      __m128i msg = _mm_add_epi32(cur, _mm_loadu_si128(reinterpret_cast<const __m128i*>(k + 4 * g)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
      msg = _mm_shuffle_epi32(msg, 0x0E);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, msg);
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }

  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  dcba = _mm_blend_epi16(feba, dchg, 0xF0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), dcba);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), hgfe);
}

}  // namespace cryptaccel::cpu
