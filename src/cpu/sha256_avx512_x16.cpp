// SHA-224/256 on sixteen messages at once with AVX-512: each 32-bit lane of a ZMM register holds one message's word,
// so the FIPS 180-4 round runs unchanged on sixteen states (the AVX2 x8 kernel's design, sha256_avx2_x8.cpp, twice as
// wide). AVX-512 has what AVX2 lacks: VPRORD rotates in one instruction and VPTERNLOGD computes Ch, Maj and every
// three-way XOR in one. Each block's sixteen message words are a 16x16 transpose of 32-bit words from the sixteen
// inputs.
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "algo/sha256.hpp"
#include "cpu/hash_lanes.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_AVX512 __attribute__((target("avx512f,avx512bw")))

constexpr std::size_t kLanes = 16;

/// Word i of lane j at s[i][j].
struct State {
  alignas(64) std::uint32_t s[8][kLanes];
};

void set_lane(void* state, std::size_t lane, const std::uint64_t words[25]) {
  for (int i = 0; i < 8; ++i) static_cast<State*>(state)->s[i][lane] = static_cast<std::uint32_t>(words[i]);
}

void get_lane(const void* state, std::size_t lane, std::uint64_t words[25]) {
  for (int i = 0; i < 8; ++i) words[i] = static_cast<const State*>(state)->s[i][lane];
}

template <int N>
CA_AVX512 inline __m512i rotr(__m512i x) {
  return _mm512_ror_epi32(x, N);
}
CA_AVX512 inline __m512i xor3(__m512i a, __m512i b, __m512i c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
CA_AVX512 inline __m512i add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }

CA_AVX512 inline __m512i bsig0(__m512i x) { return xor3(rotr<2>(x), rotr<13>(x), rotr<22>(x)); }
CA_AVX512 inline __m512i bsig1(__m512i x) { return xor3(rotr<6>(x), rotr<11>(x), rotr<25>(x)); }
CA_AVX512 inline __m512i ssig0(__m512i x) { return xor3(rotr<7>(x), rotr<18>(x), _mm512_srli_epi32(x, 3)); }
CA_AVX512 inline __m512i ssig1(__m512i x) { return xor3(rotr<17>(x), rotr<19>(x), _mm512_srli_epi32(x, 10)); }

/// The sixteen big-endian words of the current block of every lane into w[0..16): a 16x16 transpose of 32-bit words.
/// Row j (lane j's block) is loaded whole; after the 32- and 64-bit unpacks each 128-bit lane of register u holds a
/// 4x4 transposed tile, and two rounds of 128-bit shuffles put the tiles of one word together.
CA_AVX512 inline void load_words(__m512i* w, const std::uint8_t* const p[kLanes], std::size_t offset,
                                 __m512i byteswap) {
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

CA_AVX512 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  const __m512i byteswap = _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
  auto* st = static_cast<State*>(state);
  __m512i h[8];
  for (int i = 0; i < 8; ++i) h[i] = _mm512_load_si512(st->s[i]);
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m512i w[16];
    load_words(w, p, 64 * blk, byteswap);
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
  static const LaneKernel kernel{"sha256-avx512-x16", kLanes, sizeof(State), &blocks, &set_lane, &get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
