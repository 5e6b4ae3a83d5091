// SM3's round constants as the compression adds them, T_j <<< (j mod 32) (GB/T 32905 §5.3.3), for the SIMD kernels
// (sm3_avx2_x8.cpp, sm3_avx512_x16.cpp), which broadcast one per round.
#pragma once
#include <array>
#include <cstdint>

namespace cryptaccel::cpu {

inline constexpr std::array<std::uint32_t, 64> kSm3RoundConstants = [] {
  std::array<std::uint32_t, 64> t{};
  for (unsigned j = 0; j < 64; ++j) {
    const std::uint32_t tj = j < 16 ? 0x79cc4519u : 0x7a879d8au;
    const unsigned r = j & 31;
    t[j] = r ? (tj << r) | (tj >> (32 - r)) : tj;
  }
  return t;
}();

}  // namespace cryptaccel::cpu
