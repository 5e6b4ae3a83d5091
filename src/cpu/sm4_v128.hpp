// The 128-bit vector type of the SM4 SIMD kernel (sm4_simd_kernel.hpp): 4 blocks per register group. Included by
// sm4_aesni_sse.cpp and sm4_gfni_sse.cpp after their `#pragma GCC target` (both enable SSSE3 and AES-NI), so each
// compiles it for its own ISA; everything here has internal linkage.
//
// Requires, before inclusion: <cstdint>, <immintrin.h> and the target pragma.

namespace cryptaccel::cpu {
namespace {

/// 128-bit vector: 4 blocks per group, block b of a group in 32-bit lane b.
struct V128 {
  using R = __m128i;
  static constexpr int kBlocks = 4;
  static constexpr bool kGfni = false;  ///< the S-box through AES-NI (sm4_simd_kernel.hpp)
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
