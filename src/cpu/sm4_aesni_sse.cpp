// SM4 on SSE registers: 4 blocks per register, two independent groups of 4 in flight (the round's dependency chain
// is long; a second group fills the gaps). Compiled for SSSE3 + AES-NI by the pragma below; callers check CPUID.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "cpu/cpu_features.hpp"
#include "cpu/sm4_aesni.hpp"

#pragma GCC push_options
#pragma GCC target("ssse3,aes")

namespace cryptaccel::cpu {
namespace {

/// 128-bit vector: 4 blocks per group, block b of a group in 32-bit lane b.
struct V128 {
  using R = __m128i;
  static constexpr int kBlocks = 4;
  static inline R table(const std::uint8_t* t) { return _mm_load_si128(reinterpret_cast<const __m128i*>(t)); }
  static inline R set1_8(char v) { return _mm_set1_epi8(v); }
  static inline R set1_32(std::uint32_t v) { return _mm_set1_epi32(static_cast<int>(v)); }
  static inline R iota() { return _mm_setr_epi32(0, 1, 2, 3); }
  static inline R xor_(R a, R b) { return _mm_xor_si128(a, b); }
  static inline R and_(R a, R b) { return _mm_and_si128(a, b); }
  static inline R add32(R a, R b) { return _mm_add_epi32(a, b); }
  static inline R srl16(R a, int n) { return _mm_srli_epi16(a, n); }
  static inline R sll32(R a, int n) { return _mm_slli_epi32(a, n); }
  static inline R srl32(R a, int n) { return _mm_srli_epi32(a, n); }
  static inline R shuffle(R table, R index) { return _mm_shuffle_epi8(table, index); }
  static inline R aesenclast_zero(R a) { return _mm_aesenclast_si128(a, _mm_setzero_si128()); }
  static inline R unpacklo32(R a, R b) { return _mm_unpacklo_epi32(a, b); }
  static inline R unpackhi32(R a, R b) { return _mm_unpackhi_epi32(a, b); }
  static inline R unpacklo64(R a, R b) { return _mm_unpacklo_epi64(a, b); }
  static inline R unpackhi64(R a, R b) { return _mm_unpackhi_epi64(a, b); }
  static inline std::uint32_t low32(R a) { return static_cast<std::uint32_t>(_mm_cvtsi128_si32(a)); }
  /// Row j of group s: block 4s + j.
  static inline R load_row(const std::uint8_t* p, int s, int j) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 64 * s + 16 * j));
  }
  static inline void store_row(std::uint8_t* p, int s, int j, R v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 64 * s + 16 * j), v);
  }
};

}  // namespace
}  // namespace cryptaccel::cpu

#include "cpu/sm4_simd_kernel.hpp"

namespace cryptaccel::cpu {
namespace {

using Kernel = Sm4Kernel<V128, 2>;   // two register groups in flight
using Kernel1 = Sm4Kernel<V128, 1>;  // one, for short tails

void crypt(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  sm4_crypt_any<Kernel, Kernel1, V128>(rk, in, out, nblocks);
}
void ctr(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  sm4_ctr_any<Kernel, Kernel1, V128>(rk, counter, inc32, in, out, len);
}
void tau(const std::uint8_t* in, std::uint8_t* out) {
  const Sm4Consts<V128> c;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), c.tau(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
}

}  // namespace

void sm4_aesni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V128>(key, rk); }

}  // namespace cryptaccel::cpu

#pragma GCC pop_options

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_sse() {
  static constexpr Sm4Simd simd{"aesni-sse", Kernel::kBlocks, &crypt, &ctr, &tau, 16};
  return simd;
}

const Sm4Simd* sm4_simd_best() {
  const CpuFeatures& f = cpu_features();
  if (!f.aesni || !f.ssse3) return nullptr;
  if (f.avx2) return &sm4_simd_avx2();
  return &sm4_simd_sse();
}

}  // namespace cryptaccel::cpu
