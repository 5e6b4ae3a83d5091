// SM3 on eight messages at once with AVX2: each 32-bit lane of a YMM register holds one message's word, so the
// GB/T 32905 compression runs unchanged on eight states. Each block's sixteen message words are transposed from the
// eight inputs (two 8x8 transposes), expanded to the 68 words W, and W'_j = W_j ^ W_{j+4} is formed per round.
// AVX2 has no vector rotate: rotl is two shifts and an OR.
#include <immintrin.h>

#include "algo/sm3.hpp"
#include "cpu/hash_lanes.hpp"
#include "cpu/lane_words32.hpp"
#include "cpu/sm3_round_constants.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_AVX2 __attribute__((target("avx2")))

constexpr std::size_t kLanes = 8;

using State = LaneWords32<kLanes>;

template <int N>
CA_AVX2 inline __m256i rotl(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi32(x, N), _mm256_srli_epi32(x, 32 - N));
}
CA_AVX2 inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
CA_AVX2 inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
CA_AVX2 inline __m256i p0(__m256i x) { return xor3(x, rotl<9>(x), rotl<17>(x)); }
CA_AVX2 inline __m256i p1(__m256i x) { return xor3(x, rotl<15>(x), rotl<23>(x)); }

/// Words 8h .. 8h+7 of the current block of every lane into w[0..7], as big-endian words: an 8x8 transpose.
CA_AVX2 inline void load_words(__m256i* w, const std::uint8_t* const p[kLanes], std::size_t offset, __m256i byteswap) {
  __m256i r[8], t[8], u[8];
  for (std::size_t j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[j] + offset));
  for (int j = 0; j < 8; j += 2) {
    t[j] = _mm256_unpacklo_epi32(r[j], r[j + 1]);      // words 0, 1 of rows j, j+1 | words 4, 5
    t[j + 1] = _mm256_unpackhi_epi32(r[j], r[j + 1]);  // words 2, 3 | 6, 7
  }
  for (int j = 0; j < 8; j += 4) {
    u[j] = _mm256_unpacklo_epi64(t[j], t[j + 2]);          // word 0 of rows j..j+3 | word 4
    u[j + 1] = _mm256_unpackhi_epi64(t[j], t[j + 2]);      // word 1 | word 5
    u[j + 2] = _mm256_unpacklo_epi64(t[j + 1], t[j + 3]);  // word 2 | word 6
    u[j + 3] = _mm256_unpackhi_epi64(t[j + 1], t[j + 3]);  // word 3 | word 7
  }
  for (int i = 0; i < 4; ++i) {
    w[i] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(u[i], u[i + 4], 0x20), byteswap);
    w[i + 4] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(u[i], u[i + 4], 0x31), byteswap);
  }
}

CA_AVX2 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  const __m256i byteswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
                                           12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
  auto* st = static_cast<State*>(state);
  __m256i v[8];
  for (int i = 0; i < 8; ++i) v[i] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st->s[i]));
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m256i w[68];
    load_words(w, p, 64 * blk, byteswap);
    load_words(w + 8, p, 64 * blk + 32, byteswap);
#pragma GCC unroll 52
    for (int j = 16; j < 68; ++j) {
      w[j] = xor3(p1(xor3(w[j - 16], w[j - 9], rotl<15>(w[j - 3]))), rotl<7>(w[j - 13]), w[j - 6]);
    }
    __m256i a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
#pragma GCC unroll 64
    for (int j = 0; j < 64; ++j) {
      const __m256i a12 = rotl<12>(a);
      const __m256i ss1 = rotl<7>(add(add(a12, e), _mm256_set1_epi32(static_cast<int>(kSm3RoundConstants[j]))));
      const __m256i ss2 = _mm256_xor_si256(ss1, a12);
      __m256i ff, gg;
      if (j < 16) {
        ff = xor3(a, b, c);
        gg = xor3(e, f, g);
      } else {
        ff = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_or_si256(a, b)));  // majority
        gg = _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g);                      // (e&f)|(~e&g)
      }
      const __m256i tt1 = add(add(ff, d), add(ss2, _mm256_xor_si256(w[j], w[j + 4])));
      const __m256i tt2 = add(add(gg, h), add(ss1, w[j]));
      d = c, c = rotl<9>(b), b = a, a = tt1;
      h = g, g = rotl<19>(f), f = e, e = p0(tt2);
    }
    v[0] = _mm256_xor_si256(v[0], a), v[1] = _mm256_xor_si256(v[1], b);
    v[2] = _mm256_xor_si256(v[2], c), v[3] = _mm256_xor_si256(v[3], d);
    v[4] = _mm256_xor_si256(v[4], e), v[5] = _mm256_xor_si256(v[5], f);
    v[6] = _mm256_xor_si256(v[6], g), v[7] = _mm256_xor_si256(v[7], h);
  }
  for (int i = 0; i < 8; ++i) _mm256_store_si256(reinterpret_cast<__m256i*>(st->s[i]), v[i]);
}

}  // namespace

const LaneKernel& sm3_avx2_x8_kernel() {
  static const LaneKernel kernel{"sm3-avx2-x8", kLanes, sizeof(State), &blocks, &State::set_lane, &State::get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
