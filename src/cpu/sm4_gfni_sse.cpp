// SM4 with the GFNI S-box on SSE registers (sm4_gfni_v128.hpp): the cpu engine's kernel for up to four blocks where
// the CPU has GFNI but not AVX-512 VL. Compiled for SSSE3 + AES-NI + GFNI by the pragma below; callers check CPUID.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "cpu/sm4_aesni.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("ssse3,aes,gfni")

#include "cpu/sm4_gfni_v128.hpp"

CA_TARGET_END

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_gfni_sse() {
  static constexpr Sm4Simd simd{"gfni-sse", GfniKernel::kBlocks, &gfni_crypt, &gfni_ctr, &gfni_tau, 16,
                                &gfni_expand_key};
  return simd;
}

}  // namespace cryptaccel::cpu
