// The 128-bit SM4 kernel with the GFNI S-box (sm4_simd_kernel.hpp), for up to four blocks at a time: CBC encryption,
// one-block messages and the key schedule, where a round's latency counts. Compiled twice, each time after its own
// `#pragma GCC target`: sm4_gfni_sse.cpp (SSSE3 + AES-NI + GFNI: rotations by two shifts and an OR) and
// sm4_gfni_avx512vl.cpp (+ AVX-512 F/VL: VPROLD and VPTERNLOGD on XMM registers, a shorter chain per round). The
// pragma's feature macro (__AVX512VL__) picks the instructions; everything here has internal linkage, and the file
// that includes it names the result (Sm4Simd) itself.
//
// Requires, before inclusion: <cstddef>, <cstdint>, <cstring>, <immintrin.h>, "cpu/sm4_aesni.hpp" and the pragma.

#include "cpu/sm4_v128.hpp"

namespace cryptaccel::cpu {
namespace {

/// V128 with the S-box on GFNI.
struct V128Gfni : V128 {
  static constexpr bool kGfni = true;
  static inline R set1_64(std::uint64_t v) { return _mm_set1_epi64x(static_cast<long long>(v)); }
  template <int C>
  static inline R gf_affine(R x, R m) { return _mm_gf2p8affine_epi64_epi8(x, m, C); }
  template <int C>
  static inline R gf_affine_inv(R x, R m) { return _mm_gf2p8affineinv_epi64_epi8(x, m, C); }
#if defined(__AVX512VL__)
  template <int N>
  static inline R rol32(R a) { return _mm_rol_epi32(a, N); }
  static inline R xor3(R a, R b, R c) { return _mm_ternarylogic_epi32(a, b, c, 0x96); }
#else
  template <int N>
  static inline R rol32(R a) { return _mm_or_si128(_mm_slli_epi32(a, N), _mm_srli_epi32(a, 32 - N)); }
  static inline R xor3(R a, R b, R c) { return _mm_xor_si128(_mm_xor_si128(a, b), c); }
#endif
};

}  // namespace
}  // namespace cryptaccel::cpu

#include "cpu/sm4_simd_kernel.hpp"

namespace cryptaccel::cpu {
namespace {

using GfniKernel = Sm4Kernel<V128Gfni, 2>;   // two register groups in flight
using GfniKernel1 = Sm4Kernel<V128Gfni, 1>;  // one, for short tails

void gfni_crypt(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  sm4_crypt_any<GfniKernel, GfniKernel1, V128Gfni>(rk, in, out, nblocks);
}
void gfni_ctr(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in,
              std::uint8_t* out, std::size_t len) {
  sm4_ctr_any<GfniKernel, GfniKernel1, V128Gfni>(rk, counter, inc32, in, out, len);
}
void gfni_tau(const std::uint8_t* in, std::uint8_t* out) {
  const Sm4Consts<V128Gfni> c;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), c.tau(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
}
void gfni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V128Gfni>(key, rk); }

}  // namespace
}  // namespace cryptaccel::cpu
