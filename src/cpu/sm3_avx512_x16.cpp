// SM3 on sixteen messages at once with AVX-512: each 32-bit lane of a ZMM register holds one message's word, so the
// GB/T 32905 compression runs unchanged on sixteen states (the AVX2 x8 kernel's design, sm3_avx2_x8.cpp, twice as
// wide). VPROLD rotates in one instruction and VPTERNLOGD computes FF, GG and the three-way XORs in one. The message
// words come from a 16x16 transpose (avx512_words32.hpp), expanded to the 68 words W.
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "cpu/avx512_words32.hpp"
#include "cpu/hash_lanes.hpp"
#include "cpu/lane_words32.hpp"
#include "cpu/sm3_round_constants.hpp"

namespace cryptaccel::cpu {
namespace {

constexpr std::size_t kLanes = 16;

using State = LaneWords32<kLanes>;

CA_AVX512 inline __m512i p0(__m512i x) { return xor3(x, rotl<9>(x), rotl<17>(x)); }
CA_AVX512 inline __m512i p1(__m512i x) { return xor3(x, rotl<15>(x), rotl<23>(x)); }

CA_AVX512 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  auto* st = static_cast<State*>(state);
  __m512i v[8];
  for (int i = 0; i < 8; ++i) v[i] = _mm512_load_si512(st->s[i]);
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m512i w[68];
    load_words_16x16(w, p, 64 * blk);
#pragma GCC unroll 52
    for (int j = 16; j < 68; ++j) {
      w[j] = xor3(p1(xor3(w[j - 16], w[j - 9], rotl<15>(w[j - 3]))), rotl<7>(w[j - 13]), w[j - 6]);
    }
    __m512i a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
#pragma GCC unroll 64
    for (int j = 0; j < 64; ++j) {
      const __m512i a12 = rotl<12>(a);
      const __m512i ss1 = rotl<7>(add(add(a12, e), _mm512_set1_epi32(static_cast<int>(kSm3RoundConstants[j]))));
      const __m512i ss2 = _mm512_xor_si512(ss1, a12);
      // FF: a ^ b ^ c, then the majority; GG: e ^ f ^ g, then e ? f : g.
      const __m512i ff = j < 16 ? xor3(a, b, c) : _mm512_ternarylogic_epi32(a, b, c, 0xE8);
      const __m512i gg = j < 16 ? xor3(e, f, g) : _mm512_ternarylogic_epi32(e, f, g, 0xCA);
      const __m512i tt1 = add(add(ff, d), add(ss2, _mm512_xor_si512(w[j], w[j + 4])));
      const __m512i tt2 = add(add(gg, h), add(ss1, w[j]));
      d = c, c = rotl<9>(b), b = a, a = tt1;
      h = g, g = rotl<19>(f), f = e, e = p0(tt2);
    }
    v[0] = _mm512_xor_si512(v[0], a), v[1] = _mm512_xor_si512(v[1], b);
    v[2] = _mm512_xor_si512(v[2], c), v[3] = _mm512_xor_si512(v[3], d);
    v[4] = _mm512_xor_si512(v[4], e), v[5] = _mm512_xor_si512(v[5], f);
    v[6] = _mm512_xor_si512(v[6], g), v[7] = _mm512_xor_si512(v[7], h);
  }
  for (int i = 0; i < 8; ++i) _mm512_store_si512(st->s[i], v[i]);
}

}  // namespace

const LaneKernel& sm3_avx512_x16_kernel() {
  static const LaneKernel kernel{"sm3-avx512-x16", kLanes, sizeof(State), &blocks, &State::set_lane, &State::get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
