// SM4 on AVX2 registers: 8 blocks per register (4 per 128-bit lane), two independent groups of 8 in flight. Without
// VAES, AESENCLAST runs on the two 128-bit halves separately; everything else is 256 bits wide. Compiled for AVX2 +
// AES-NI by the pragma below; callers check CPUID. (A VAES variant would replace aesenclast_zero with one
// _mm256_aesenclast_epi128; it is left out until it can be tested on a machine that has VAES.)
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "cpu/sm4_aesni.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("avx2,aes")

namespace cryptaccel::cpu {
namespace {

/// 256-bit vector: 8 blocks per group. A row is two consecutive blocks (one per lane), so after the per-lane
/// transpose lane 0 holds blocks 0, 2, 4, 6 of the group and lane 1 blocks 1, 3, 5, 7 (hence iota's order).
struct V256 {
  using R = __m256i;
  static constexpr int kBlocks = 8;
  static constexpr bool kGfni = false;  ///< the S-box through AES-NI (sm4_simd_kernel.hpp)
  static inline R table(const std::uint8_t* t) {
    return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static inline R set1_8(char v) { return _mm256_set1_epi8(v); }
  static inline R set1_32(std::uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }
  static inline R iota() { return _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7); }
  static inline R xor_(R a, R b) { return _mm256_xor_si256(a, b); }
  static inline R and_(R a, R b) { return _mm256_and_si256(a, b); }
  static inline R add32(R a, R b) { return _mm256_add_epi32(a, b); }
  static inline R srl16(R a, int n) { return _mm256_srli_epi16(a, n); }
  static inline R sll32(R a, int n) { return _mm256_slli_epi32(a, n); }
  static inline R srl32(R a, int n) { return _mm256_srli_epi32(a, n); }
  static inline R shuffle(R table, R index) { return _mm256_shuffle_epi8(table, index); }
  static inline R aesenclast_zero(R a) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i lo = _mm_aesenclast_si128(_mm256_castsi256_si128(a), zero);
    const __m128i hi = _mm_aesenclast_si128(_mm256_extracti128_si256(a, 1), zero);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  }
  static inline R unpacklo32(R a, R b) { return _mm256_unpacklo_epi32(a, b); }
  static inline R unpackhi32(R a, R b) { return _mm256_unpackhi_epi32(a, b); }
  static inline R unpacklo64(R a, R b) { return _mm256_unpacklo_epi64(a, b); }
  static inline R unpackhi64(R a, R b) { return _mm256_unpackhi_epi64(a, b); }
  static inline std::uint32_t low32(R a) { return static_cast<std::uint32_t>(_mm256_cvtsi256_si32(a)); }
  /// Row j of group s: blocks 8s + 2j and 8s + 2j + 1.
  static inline R load_row(const std::uint8_t* p, int s, int j) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 128 * s + 32 * j));
  }
  static inline void store_row(std::uint8_t* p, int s, int j, R v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 128 * s + 32 * j), v);
  }
};

}  // namespace
}  // namespace cryptaccel::cpu

#include "cpu/sm4_simd_kernel.hpp"

namespace cryptaccel::cpu {
namespace {

using Kernel = Sm4Kernel<V256, 2>;   // two register groups in flight
using Kernel1 = Sm4Kernel<V256, 1>;  // one, for short tails

void crypt(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  sm4_crypt_any<Kernel, Kernel1, V256>(rk, in, out, nblocks);
}
void ctr(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  sm4_ctr_any<Kernel, Kernel1, V256>(rk, counter, inc32, in, out, len);
}
void expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V256>(key, rk); }
void tau(const std::uint8_t* in, std::uint8_t* out) {
  const Sm4Consts<V256> c;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      c.tau(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in))));
}

}  // namespace
}  // namespace cryptaccel::cpu

CA_TARGET_END

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_avx2() {
  static constexpr Sm4Simd simd{"aesni-avx2", Kernel::kBlocks, &crypt, &ctr, &tau, 32, &expand_key};
  return simd;
}

}  // namespace cryptaccel::cpu
