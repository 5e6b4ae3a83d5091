// SHA-224/256 on eight messages at once with AVX2: each 32-bit lane of a YMM register holds one message's word, so
// the FIPS 180-4 round runs unchanged on eight states. Each block's sixteen message words are transposed from the
// eight inputs (two 8x8 transposes of 32-bit words), then the schedule runs in a 16-register ring.
// AVX2 has no vector rotate: rotr is two shifts and an OR.
#include <immintrin.h>

#include "algo/sha256.hpp"
#include "cpu/hash_lanes.hpp"
#include "cpu/lane_words32.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_AVX2 __attribute__((target("avx2")))

constexpr std::size_t kLanes = 8;

using State = LaneWords32<kLanes>;

template <int N>
CA_AVX2 inline __m256i rotr(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi32(x, N), _mm256_slli_epi32(x, 32 - N));
}
CA_AVX2 inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
CA_AVX2 inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }

CA_AVX2 inline __m256i bsig0(__m256i x) { return xor3(rotr<2>(x), rotr<13>(x), rotr<22>(x)); }
CA_AVX2 inline __m256i bsig1(__m256i x) { return xor3(rotr<6>(x), rotr<11>(x), rotr<25>(x)); }
CA_AVX2 inline __m256i ssig0(__m256i x) { return xor3(rotr<7>(x), rotr<18>(x), _mm256_srli_epi32(x, 3)); }
CA_AVX2 inline __m256i ssig1(__m256i x) { return xor3(rotr<17>(x), rotr<19>(x), _mm256_srli_epi32(x, 10)); }

/// Words 8h .. 8h+7 of the current block of every lane into w[8h ..], as big-endian words: an 8x8 transpose.
CA_AVX2 inline void load_words(__m256i* w, const std::uint8_t* const p[kLanes], std::size_t offset, __m256i byteswap) {
  __m256i r[8], t[8], u[8];
  for (std::size_t j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[j] + offset));
  for (int j = 0; j < 8; j += 2) {
    t[j] = _mm256_unpacklo_epi32(r[j], r[j + 1]);      // r_j[0] r_j+1[0] r_j[1] r_j+1[1] | same for words 4, 5
    t[j + 1] = _mm256_unpackhi_epi32(r[j], r[j + 1]);  // words 2, 3 | 6, 7
  }
  for (int j = 0; j < 8; j += 4) {
    u[j] = _mm256_unpacklo_epi64(t[j], t[j + 2]);      // word 0 of rows j..j+3 | word 4
    u[j + 1] = _mm256_unpackhi_epi64(t[j], t[j + 2]);  // word 1 | word 5
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
  __m256i h[8];
  for (int i = 0; i < 8; ++i) h[i] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st->s[i]));
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m256i w[16];
    load_words(w, p, 64 * blk, byteswap);
    load_words(w + 8, p, 64 * blk + 32, byteswap);
    __m256i a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    __m256i bc = _mm256_xor_si256(b, c);  // Maj(a,b,c) = ((a^b) & (b^c)) ^ b; this round's a^b is the next b^c
#pragma GCC unroll 64
    for (int t = 0; t < 64; ++t) {
      if (t >= 16) w[t & 15] = add(add(w[t & 15], ssig1(w[(t - 2) & 15])), add(w[(t - 7) & 15], ssig0(w[(t - 15) & 15])));
      const __m256i kw = add(w[t & 15], _mm256_set1_epi32(static_cast<int>(algo::kSha256K_host[t])));
      const __m256i ch = _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g);
      const __m256i t1 = add(add(hh, bsig1(e)), add(ch, kw));
      const __m256i ab = _mm256_xor_si256(a, b);
      const __m256i maj = _mm256_xor_si256(_mm256_and_si256(ab, bc), b);
      bc = ab;
      const __m256i t2 = add(bsig0(a), maj);
      hh = g, g = f, f = e, e = add(d, t1), d = c, c = b, b = a, a = add(t1, t2);
    }
    h[0] = add(h[0], a), h[1] = add(h[1], b), h[2] = add(h[2], c), h[3] = add(h[3], d);
    h[4] = add(h[4], e), h[5] = add(h[5], f), h[6] = add(h[6], g), h[7] = add(h[7], hh);
  }
  for (int i = 0; i < 8; ++i) _mm256_store_si256(reinterpret_cast<__m256i*>(st->s[i]), h[i]);
}

}  // namespace

const LaneKernel& sha256_avx2_x8_kernel() {
  static const LaneKernel kernel{"sha256-avx2-x8", kLanes, sizeof(State), &blocks, &State::set_lane, &State::get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
