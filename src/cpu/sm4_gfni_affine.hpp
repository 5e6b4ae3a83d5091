// The SM4 S-box in GFNI form, S(x) = Post * inv(Pre * x ^ kGfniPreC) ^ kGfniPostC, shared by the GFNI kernels
// (sm4_simd_kernel.hpp, sm4_cbc_gfni.cpp). The matrices (row i in byte 7 - i, as GF2P8AFFINEQB reads them) and
// constants come from scripts/derive_sm4_aesni_affine.py, which checks all 256 inputs.
#pragma once
#include <cstdint>

namespace cryptaccel::cpu {

inline constexpr std::uint64_t kGfniPre = 0x4c287db91a22505dull, kGfniPost = 0xf3ab34a974a6b589ull;
inline constexpr int kGfniPreC = 0x3e, kGfniPostC = 0xd3;

}  // namespace cryptaccel::cpu
