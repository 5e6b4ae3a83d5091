// SM4 on SSE registers with the GFNI S-box (sm4_simd_kernel.hpp): 4 blocks per register, two groups in flight. The
// cpu engine's kernel for short work (up to four blocks: CBC encryption, one-block messages) and the key schedule
// where the CPU has GFNI: a round's dependency chain is two GFNI instructions and a few shifts and XORs, against two
// PSHUFB affine maps and AESENCLAST on the AES-NI path. Compiled for SSSE3 + AES-NI + GFNI by the pragma below;
// callers check CPUID.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "cpu/cpu_features.hpp"
#include "cpu/sm4_aesni.hpp"

#pragma GCC push_options
#pragma GCC target("ssse3,aes,gfni")

#include "cpu/sm4_v128.hpp"

namespace cryptaccel::cpu {
namespace {

/// V128 with the S-box on GFNI; rotations by two shifts (no AVX-512 VPROLD here).
struct V128Gfni : V128 {
  static constexpr bool kGfni = true;
  static inline R set1_64(std::uint64_t v) { return _mm_set1_epi64x(static_cast<long long>(v)); }
  template <int C>
  static inline R gf_affine(R x, R m) { return _mm_gf2p8affine_epi64_epi8(x, m, C); }
  template <int C>
  static inline R gf_affine_inv(R x, R m) { return _mm_gf2p8affineinv_epi64_epi8(x, m, C); }
  template <int N>
  static inline R rol32(R a) { return _mm_or_si128(_mm_slli_epi32(a, N), _mm_srli_epi32(a, 32 - N)); }
  static inline R xor3(R a, R b, R c) { return _mm_xor_si128(_mm_xor_si128(a, b), c); }
};

}  // namespace
}  // namespace cryptaccel::cpu

#include "cpu/sm4_simd_kernel.hpp"

namespace cryptaccel::cpu {
namespace {

using Kernel = Sm4Kernel<V128Gfni, 2>;   // two register groups in flight
using Kernel1 = Sm4Kernel<V128Gfni, 1>;  // one, for short tails

void crypt(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  sm4_crypt_any<Kernel, Kernel1, V128Gfni>(rk, in, out, nblocks);
}
void ctr(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  sm4_ctr_any<Kernel, Kernel1, V128Gfni>(rk, counter, inc32, in, out, len);
}
void tau(const std::uint8_t* in, std::uint8_t* out) {
  const Sm4Consts<V128Gfni> c;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), c.tau(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
}

}  // namespace

void sm4_gfni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V128Gfni>(key, rk); }

}  // namespace cryptaccel::cpu

#pragma GCC pop_options

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_gfni_sse() {
  static constexpr Sm4Simd simd{"gfni-sse", Kernel::kBlocks, &crypt, &ctr, &tau, 16};
  return simd;
}

}  // namespace cryptaccel::cpu
