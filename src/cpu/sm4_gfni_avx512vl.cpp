// SM4 with the GFNI S-box on XMM registers with AVX-512 VL (sm4_gfni_v128.hpp): VPROLD and VPTERNLOGD shorten each
// round's dependency chain, which bounds CBC encryption and one-block messages (measured 0.79x OpenSSL for CBC
// encryption against 0.61-0.67x with shifts: bench/results/2026-11-28-xeon-2c-sm4-gfni). Compiled for SSSE3 + AES-NI
// + GFNI + AVX-512 F/VL by the pragma below; callers check CPUID.
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "cpu/sm4_aesni.hpp"
#include "common/target_region.hpp"

CA_TARGET_BEGIN("ssse3,aes,gfni,avx512f,avx512vl")

#include "cpu/sm4_gfni_v128.hpp"

CA_TARGET_END

namespace cryptaccel::cpu {

const Sm4Simd& sm4_simd_gfni_avx512vl() {
  static constexpr Sm4Simd simd{"gfni-avx512vl", GfniKernel::kBlocks, &gfni_crypt, &gfni_ctr, &gfni_tau, 16,
                                &gfni_expand_key};
  return simd;
}

}  // namespace cryptaccel::cpu
