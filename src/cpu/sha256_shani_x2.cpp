// SHA-224/256 on two messages at once with SHA-NI. One message is a chain of dependent SHA256RNDS2 (several cycles
// of latency each, one issued per cycle or two); two independent chains in the same loop fill those latency gaps,
// as isa-l_crypto's and ipsec-mb's "x2" SHA-NI lanes do. Compiled for the SHA extension with target attributes.
#include <immintrin.h>

#include "algo/sha256.hpp"
#include "cpu/hash_lanes.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_SHANI __attribute__((target("sha,sse4.1,ssse3")))

/// Lane state as SHA-NI wants it: ABEF and CDGH (high to low word order).
struct State {
  __m128i abef[2];
  __m128i cdgh[2];
};

CA_SHANI void set_lane(void* state, std::size_t lane, const std::uint64_t words[25]) {
  alignas(16) std::uint32_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint32_t>(words[i]);
  // h[0..3] = a b c d, h[4..7] = e f g h  ->  ABEF, CDGH.
  const __m128i dcba = _mm_load_si128(reinterpret_cast<const __m128i*>(h));
  const __m128i hgfe = _mm_load_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  auto* s = static_cast<State*>(state);
  s->abef[lane] = _mm_alignr_epi8(cdab, efgh, 8);
  s->cdgh[lane] = _mm_blend_epi16(efgh, cdab, 0xF0);
}

CA_SHANI void get_lane(const void* state, std::size_t lane, std::uint64_t words[25]) {
  const auto* s = static_cast<const State*>(state);
  const __m128i feba = _mm_shuffle_epi32(s->abef[lane], 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(s->cdgh[lane], 0xB1);
  alignas(16) std::uint32_t h[8];
  _mm_store_si128(reinterpret_cast<__m128i*>(h), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_store_si128(reinterpret_cast<__m128i*>(h + 4), _mm_alignr_epi8(dchg, feba, 8));
  for (int i = 0; i < 8; ++i) words[i] = h[i];
}

/// Message words of group g (t = 4g .. 4g+3) into w[g & 3]: loaded for g < 4, else the schedule
/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] four at a time; returns them plus K.
CA_SHANI inline __m128i schedule(__m128i w[4], int g, const std::uint8_t* block, __m128i byteswap) {
  __m128i& cur = w[g & 3];
  if (g < 4) {
    cur = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * g)), byteswap);
  } else {
    __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);                // groups g-4, g-3
    t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));  // words t-7: groups g-2|g-1
    cur = _mm_sha256msg2_epu32(t, w[(g + 3) & 3]);
  }
  return _mm_add_epi32(cur, _mm_loadu_si128(reinterpret_cast<const __m128i*>(algo::kSha256K_host + 4 * g)));
}

/// Four rounds with message-plus-constant words `msg`.
CA_SHANI inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i msg) {
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
  abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(msg, 0x0E));
}

CA_SHANI void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t) {
  const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);  // big-endian words
  auto* s = static_cast<State*>(state);
  __m128i abef0 = s->abef[0], cdgh0 = s->cdgh[0], abef1 = s->abef[1], cdgh1 = s->cdgh[1];
  const std::uint8_t* p0 = in[0];
  const std::uint8_t* p1 = in[1];
  for (; n; --n, p0 += 64, p1 += 64) {
    const __m128i abef0_in = abef0, cdgh0_in = cdgh0, abef1_in = abef1, cdgh1_in = cdgh1;
    __m128i w0[4], w1[4];
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {
      const __m128i m0 = schedule(w0, g, p0, byteswap);
      const __m128i m1 = schedule(w1, g, p1, byteswap);
      rounds4(abef0, cdgh0, m0);
      rounds4(abef1, cdgh1, m1);
    }
    abef0 = _mm_add_epi32(abef0, abef0_in), cdgh0 = _mm_add_epi32(cdgh0, cdgh0_in);
    abef1 = _mm_add_epi32(abef1, abef1_in), cdgh1 = _mm_add_epi32(cdgh1, cdgh1_in);
  }
  s->abef[0] = abef0, s->cdgh[0] = cdgh0, s->abef[1] = abef1, s->cdgh[1] = cdgh1;
}

}  // namespace

const LaneKernel& sha256_shani_x2_kernel() {
  static const LaneKernel kernel{"sha256-shani-x2", 2, sizeof(State), &blocks, &set_lane, &get_lane};
  return kernel;
}

}  // namespace cryptaccel::cpu
