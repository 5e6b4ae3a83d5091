// SHA-384/512/512-224/512-256 on four messages at once with AVX2: each 64-bit lane of a YMM register holds one
// message's word, so the FIPS 180-4 round runs unchanged on four states. Each block's sixteen message words are
// transposed from the four inputs (four 4x4 transposes of 64-bit words), then the schedule runs in a 16-register
// ring. rotr is two shifts and an OR, except σ0's rotation by 8 bits, a byte shuffle.
#include <immintrin.h>

#include "algo/sha512.hpp"
#include "cpu/hash_lanes.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_AVX2 __attribute__((target("avx2")))

constexpr std::size_t kLanes = 4;

/// Word i of lane j at s[i][j].
struct State {
  alignas(32) std::uint64_t s[8][kLanes];
};

void set_lane(void* state, std::size_t lane, const std::uint64_t words[25]) {
  for (int i = 0; i < 8; ++i) static_cast<State*>(state)->s[i][lane] = words[i];
}

void get_lane(const void* state, std::size_t lane, std::uint64_t words[25]) {
  for (int i = 0; i < 8; ++i) words[i] = static_cast<const State*>(state)->s[i][lane];
}

template <int N>
CA_AVX2 inline __m256i rotr(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi64(x, N), _mm256_slli_epi64(x, 64 - N));
}
CA_AVX2 inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
CA_AVX2 inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }

CA_AVX2 inline __m256i bsig0(__m256i x) { return xor3(rotr<28>(x), rotr<34>(x), rotr<39>(x)); }
CA_AVX2 inline __m256i bsig1(__m256i x) { return xor3(rotr<14>(x), rotr<18>(x), rotr<41>(x)); }
CA_AVX2 inline __m256i ssig0(__m256i x, __m256i rotr8) {
  return xor3(rotr<1>(x), _mm256_shuffle_epi8(x, rotr8), _mm256_srli_epi64(x, 7));
}
CA_AVX2 inline __m256i ssig1(__m256i x) { return xor3(rotr<19>(x), rotr<61>(x), _mm256_srli_epi64(x, 6)); }

/// Words 4q .. 4q+3 of the current block of every lane into w[0..3], as big-endian words: a 4x4 transpose.
CA_AVX2 inline void load_words(__m256i* w, const std::uint8_t* const p[kLanes], std::size_t offset, __m256i byteswap) {
  __m256i r[4];
  for (std::size_t j = 0; j < 4; ++j) r[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[j] + offset));
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]);  // r0[0] r1[0] | r0[2] r1[2]
  const __m256i t1 = _mm256_unpackhi_epi64(r[0], r[1]);  // r0[1] r1[1] | r0[3] r1[3]
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]);
  const __m256i t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  w[0] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x20), byteswap);
  w[1] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x20), byteswap);
  w[2] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x31), byteswap);
  w[3] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x31), byteswap);
}

CA_AVX2 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  const __m256i byteswap = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                           8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  // Byte k of each result word is byte (k + 1) mod 8 of the input word: a right rotation by 8 bits.
  const __m256i rotr8 = _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1,
                                        8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1);
  auto* st = static_cast<State*>(state);
  __m256i h[8];
  for (int i = 0; i < 8; ++i) h[i] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st->s[i]));
  const std::uint8_t* p[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) p[j] = in[j];

  for (std::size_t blk = 0; blk < n; ++blk) {
    __m256i w[16];
    for (int q = 0; q < 4; ++q) load_words(w + 4 * q, p, 128 * blk + 32 * q, byteswap);
    __m256i a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    __m256i bc = _mm256_xor_si256(b, c);  // Maj(a,b,c) = ((a^b) & (b^c)) ^ b; this round's a^b is the next b^c
#pragma GCC unroll 80
    for (int t = 0; t < 80; ++t) {
      if (t >= 16) {
        w[t & 15] = add(add(w[t & 15], ssig1(w[(t - 2) & 15])), add(w[(t - 7) & 15], ssig0(w[(t - 15) & 15], rotr8)));
      }
      const __m256i kw = add(w[t & 15], _mm256_set1_epi64x(static_cast<long long>(algo::kSha512K_host[t])));
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

const LaneKernel& sha512_avx2_x4_kernel() {
  static const LaneKernel kernel{"sha512-avx2-x4", kLanes, sizeof(State), &blocks, &set_lane, &get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
