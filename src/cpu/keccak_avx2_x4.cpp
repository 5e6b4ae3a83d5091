// Keccak-f[1600] on four states at once with AVX2: YMM register i holds lane i of the four states, so the FIPS 202
// round runs unchanged (θ, ρ and π fused, χ with VPANDN). Serves SHA-3/SHAKE batches through the multi-buffer
// scheduler (absorbing a block XORs lane words gathered from four messages) and keccak_f1600_batch.
// AVX2 has no vector rotate: rotl is two shifts and an OR, except rotations by 8 and 56 bits, byte shuffles.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "algo/keccak.hpp"
#include "cpu/hash_lanes.hpp"

namespace cryptaccel::cpu {
namespace {

#define CA_AVX2 __attribute__((target("avx2")))

constexpr std::size_t kLanes = 4;

/// Lane i of state j at s[i][j].
struct State {
  alignas(32) std::uint64_t s[25][kLanes];
};

/// Where π moves lane i = x + 5y: to (y, 2x + 3y) (FIPS 202 §3.2.3).
constexpr std::array<int, 25> kPiDest = [] {
  std::array<int, 25> d{};
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 5; ++y) d[x + 5 * y] = y + 5 * ((2 * x + 3 * y) % 5);
  return d;
}();

template <int N>
CA_AVX2 inline __m256i rotl(__m256i x) {
  if constexpr (N == 0) {
    return x;
  } else if constexpr (N == 1) {  // x << 1 as x + x: an adder instead of the busier shift unit
    return _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63));
  } else if constexpr (N == 8) {  // byte k of each result word is byte k - 1 (mod 8) of the input word
    return _mm256_shuffle_epi8(x, _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7,
                                                  14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7));
  } else if constexpr (N == 56) {  // byte k is byte k + 1 (mod 8)
    return _mm256_shuffle_epi8(x, _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1,
                                                  8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1));
  } else {
    return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
  }
}

/// θ's column effect, ρ and π: b[π(i)] = (a[i] ^ d[i mod 5]) <<< ρ(i).
template <std::size_t... I>
CA_AVX2 inline void theta_rho_pi(const __m256i* a, const __m256i* d, __m256i* b, std::index_sequence<I...>) {
  ((b[kPiDest[I]] = rotl<algo::kKeccakRho_host[I]>(_mm256_xor_si256(a[I], d[I % 5]))), ...);
}

CA_AVX2 void permute(__m256i a[25]) {
  for (int round = 0; round < 24; ++round) {
    __m256i c[5], d[5], b[25];
    for (int x = 0; x < 5; ++x)
      c[x] = _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a[x], a[x + 5]), _mm256_xor_si256(a[x + 10], a[x + 15])),
                              a[x + 20]);
    for (int x = 0; x < 5; ++x) d[x] = _mm256_xor_si256(c[(x + 4) % 5], rotl<1>(c[(x + 1) % 5]));
    theta_rho_pi(a, d, b, std::make_index_sequence<25>());
    for (int y = 0; y < 25; y += 5)  // χ: a = b ^ (~b[x+1] & b[x+2])
      for (int x = 0; x < 5; ++x) a[x + y] = _mm256_xor_si256(b[x + y], _mm256_andnot_si256(b[(x + 1) % 5 + y], b[(x + 2) % 5 + y]));
    a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x(static_cast<long long>(algo::kKeccakRc_host[round])));  // ι
  }
}

void set_lane(void* state, std::size_t lane, const std::uint64_t words[25]) {
  for (int i = 0; i < 25; ++i) static_cast<State*>(state)->s[i][lane] = words[i];
}

void get_lane(const void* state, std::size_t lane, std::uint64_t words[25]) {
  for (int i = 0; i < 25; ++i) words[i] = static_cast<const State*>(state)->s[i][lane];
}

inline long long load64(const std::uint8_t* p) {
  long long v;
  std::memcpy(&v, p, 8);  // little-endian, as Keccak lanes (x86)
  return v;
}

CA_AVX2 void blocks(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t rate) {
  auto* st = static_cast<State*>(state);
  __m256i a[25];
  for (int i = 0; i < 25; ++i) a[i] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st->s[i]));
  const std::uint8_t *p0 = in[0], *p1 = in[1], *p2 = in[2], *p3 = in[3];
  for (; n; --n, p0 += rate, p1 += rate, p2 += rate, p3 += rate) {
    for (std::size_t w = 0; w < rate / 8; ++w)
      a[w] = _mm256_xor_si256(a[w], _mm256_set_epi64x(load64(p3 + 8 * w), load64(p2 + 8 * w), load64(p1 + 8 * w),
                                                       load64(p0 + 8 * w)));
    permute(a);
  }
  for (int i = 0; i < 25; ++i) _mm256_store_si256(reinterpret_cast<__m256i*>(st->s[i]), a[i]);
}

}  // namespace

const LaneKernel& keccak_avx2_x4_kernel() {
  static const LaneKernel kernel{"keccak-avx2-x4", kLanes, sizeof(State), &blocks, &set_lane, &get_lane};
  return kernel;
}

CA_AVX2 void keccak_f1600_avx2_x4(std::span<KeccakState> states) {
  static const KeccakState unused{};  // fills the lanes of a last, partial group
  for (std::size_t first = 0; first < states.size(); first += kLanes) {
    const std::size_t count = std::min(kLanes, states.size() - first);
    const std::uint64_t* s[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) s[j] = j < count ? states[first + j].data() : unused.data();
    __m256i a[25];
    for (int i = 0; i < 25; ++i) a[i] = _mm256_set_epi64x(static_cast<long long>(s[3][i]), static_cast<long long>(s[2][i]),
                                                         static_cast<long long>(s[1][i]), static_cast<long long>(s[0][i]));
    permute(a);
    alignas(32) std::uint64_t out[kLanes];
    for (int i = 0; i < 25; ++i) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(out), a[i]);
      for (std::size_t j = 0; j < count; ++j) states[first + j][i] = out[j];
    }
  }
}

}  // namespace cryptaccel::cpu
