// SM4 on SSE registers: 4 blocks per register, two independent groups of 4 in flight (the round's dependency chain
// is long; a second group fills the gaps). Compiled for SSSE3 + AES-NI by the pragma below; callers check CPUID.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "common/cpu_features.hpp"
#include "cpu/sm4_aesni.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("ssse3,aes")

#include "cpu/sm4_v128.hpp"
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

void aesni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_expand_key_simd<V128>(key, rk); }

}  // namespace

}  // namespace cryptaccel::cpu

CA_TARGET_END

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_sse() {
  static constexpr Sm4Simd simd{"aesni-sse", Kernel::kBlocks, &crypt, &ctr, &tau, 16, &aesni_expand_key};
  return simd;
}

const Sm4Simd* sm4_simd_best() {
  const CpuFeatures& f = cpu_features();
  if (!f.aesni || !f.ssse3) return nullptr;
  if (f.gfni && f.avx512f && f.avx512bw) return &sm4_simd_gfni_avx512();
  if (f.avx2) return &sm4_simd_avx2();
  return &sm4_simd_sse();
}

const Sm4Simd& sm4_simd_small() {
  const CpuFeatures& f = cpu_features();
  if (f.gfni && f.avx512vl) return sm4_simd_gfni_avx512vl();
  return f.gfni ? sm4_simd_gfni_sse() : sm4_simd_sse();
}

void sm4_aesni_expand_key(const std::uint8_t key[16], std::uint32_t rk[32]) { sm4_simd_small().expand_key(key, rk); }

}  // namespace cryptaccel::cpu
