// SHA-224/256 on sixteen messages at once with AVX-512: each 32-bit lane of a ZMM register holds one message's word,
// so the FIPS 180-4 round runs unchanged on sixteen states (the AVX2 x8 kernel's design, sha256_avx2_x8.cpp, twice as
// wide). AVX-512 has what AVX2 lacks: VPRORD rotates in one instruction and VPTERNLOGD computes Ch, Maj and every
// three-way XOR in one. Each block's sixteen message words are a 16x16 transpose of 32-bit words from the sixteen
// inputs (avx512_words32.hpp).
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "algo/sha256.hpp"
#include "cpu/avx512_words32.hpp"
#include "cpu/hash_lanes.hpp"
#include "cpu/lane_words32.hpp"

namespace cryptaccel::cpu {
namespace {

constexpr std::size_t kLanes = 16;

using State = LaneWords32<kLanes>;


CA_AVX512 inline __m512i bsig0(__m512i x) { return xor3(rotr<2>(x), rotr<13>(x), rotr<22>(x)); }
CA_AVX512 inline __m512i bsig1(__m512i x) { return xor3(rotr<6>(x), rotr<11>(x), rotr<25>(x)); }
CA_AVX512 inline __m512i ssig0(__m512i x) { return xor3(rotr<7>(x), rotr<18>(x), _mm512_srli_epi32(x, 3)); }
CA_AVX512 inline __m512i ssig1(__m512i x) { return xor3(rotr<17>(x), rotr<19>(x), _mm512_srli_epi32(x, 10)); }

CA_AVX512 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  auto* st = static_cast<State*>(state);
  __m512i h[8];
  for (int i = 0; i < 8; ++i) h[i] = _mm512_load_si512(st->s[i]);
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m512i w[16];
    load_words_16x16(w, p, 64 * blk);
    __m512i a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#pragma GCC unroll 64
    for (int t = 0; t < 64; ++t) {
      if (t >= 16) w[t & 15] = add(add(w[t & 15], ssig1(w[(t - 2) & 15])), add(w[(t - 7) & 15], ssig0(w[(t - 15) & 15])));
      const __m512i kw = add(w[t & 15], _mm512_set1_epi32(static_cast<int>(algo::kSha256K_host[t])));
      const __m512i ch = _mm512_ternarylogic_epi32(e, f, g, 0xCA);   // e ? f : g
      const __m512i maj = _mm512_ternarylogic_epi32(a, b, c, 0xE8);  // majority of a, b, c
      const __m512i t1 = add(add(hh, bsig1(e)), add(ch, kw));
      const __m512i t2 = add(bsig0(a), maj);
      hh = g, g = f, f = e, e = add(d, t1), d = c, c = b, b = a, a = add(t1, t2);
    }
    h[0] = add(h[0], a), h[1] = add(h[1], b), h[2] = add(h[2], c), h[3] = add(h[3], d);
    h[4] = add(h[4], e), h[5] = add(h[5], f), h[6] = add(h[6], g), h[7] = add(h[7], hh);
  }
  for (int i = 0; i < 8; ++i) _mm512_store_si512(st->s[i], h[i]);
}

}  // namespace

const LaneKernel& sha256_avx512_x16_kernel() {
  static const LaneKernel kernel{"sha256-avx512-x16", kLanes, sizeof(State), &blocks, &State::set_lane, &State::get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
