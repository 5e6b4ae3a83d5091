// SM4 on AVX-512 registers with the GFNI S-box (sm4_simd_kernel.hpp): 16 blocks per register (4 per 128-bit lane), two
// groups of 16 in flight. A round is two GFNI instructions, four VPROLD and three-way XORs (VPTERNLOGD) per register:
// about a quarter of the AES-NI path's instructions per block. Compiled for AVX-512 F/BW + GFNI by the pragma below;
// callers check CPUID.
#include <cstddef>
#include <cstdint>
#include <cstring>

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "cpu/sm4_aesni.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("avx512f,avx512bw,gfni")

namespace cryptaccel::cpu {
namespace {

/// 512-bit vector: 16 blocks per group. A row is four consecutive blocks (one per 128-bit lane), so after the per-lane
/// transpose lane l holds blocks l, 4 + l, 8 + l, 12 + l of the group (hence iota's order).
struct V512 {
  using R = __m512i;
  static constexpr int kBlocks = 16;
  static constexpr bool kGfni = true;
  static inline R table(const std::uint8_t* t) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static inline R set1_32(std::uint32_t v) { return _mm512_set1_epi32(static_cast<int>(v)); }
  static inline R set1_64(std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
  static inline R iota() { return _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15); }
  static inline R xor_(R a, R b) { return _mm512_xor_si512(a, b); }
  static inline R xor3(R a, R b, R c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
  static inline R add32(R a, R b) { return _mm512_add_epi32(a, b); }
  static inline R shuffle(R table, R index) { return _mm512_shuffle_epi8(table, index); }
  template <int C>
  static inline R gf_affine(R x, R m) { return _mm512_gf2p8affine_epi64_epi8(x, m, C); }
  template <int C>
  static inline R gf_affine_inv(R x, R m) { return _mm512_gf2p8affineinv_epi64_epi8(x, m, C); }
  template <int N>
  static inline R rol32(R a) { return _mm512_rol_epi32(a, N); }
  static inline R unpacklo32(R a, R b) { return _mm512_unpacklo_epi32(a, b); }
  static inline R unpackhi32(R a, R b) { return _mm512_unpackhi_epi32(a, b); }
  static inline R unpacklo64(R a, R b) { return _mm512_unpacklo_epi64(a, b); }
  static inline R unpackhi64(R a, R b) { return _mm512_unpackhi_epi64(a, b); }
  static inline std::uint32_t low32(R a) { return static_cast<std::uint32_t>(_mm512_cvtsi512_si32(a)); }
  /// Row j of group s: blocks 16s + 4j .. 16s + 4j + 3.
  static inline R load_row(const std::uint8_t* p, int s, int j) { return _mm512_loadu_si512(p + 256 * s + 64 * j); }
  static inline void store_row(std::uint8_t* p, int s, int j, R v) { _mm512_storeu_si512(p + 256 * s + 64 * j, v); }
};

}  // namespace
}  // namespace cryptaccel::cpu

#include "cpu/sm4_simd_kernel.hpp"

namespace cryptaccel::cpu {
namespace {

using Kernel = Sm4Kernel<V512, 2>;   // two register groups in flight
using Kernel1 = Sm4Kernel<V512, 1>;  // one, for short tails

void crypt(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  sm4_crypt_any<Kernel, Kernel1, V512>(rk, in, out, nblocks);
}
void ctr(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  sm4_ctr_any<Kernel, Kernel1, V512>(rk, counter, inc32, in, out, len);
}
void expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V512>(key, rk); }
void tau(const std::uint8_t* in, std::uint8_t* out) {
  const Sm4Consts<V512> c;
  _mm512_storeu_si512(out, c.tau(_mm512_loadu_si512(in)));
}

}  // namespace
}  // namespace cryptaccel::cpu

CA_TARGET_END

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_gfni_avx512() {
  static constexpr Sm4Simd simd{"gfni-avx512", Kernel::kBlocks, &crypt, &ctr, &tau, 64, &expand_key};
  return simd;
}

}  // namespace cryptaccel::cpu
