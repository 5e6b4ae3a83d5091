// The state buffer of the multi-buffer kernels whose hash state is eight 32-bit words (SHA-224/256, SM3):
// word i of lane j at s[i][j], so that register i of the kernel is one aligned load. Shared by sha256_avx2_x8.cpp,
// sha256_avx512_x16.cpp, sm3_avx2_x8.cpp and sm3_avx512_x16.cpp (LaneKernel's set_lane and get_lane).
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

template <std::size_t Lanes>
struct LaneWords32 {
  alignas(64) std::uint32_t s[8][Lanes];

  /// LaneKernel::set_lane: lane `lane`'s words from the one-message layout.
  static void set_lane(void* state, std::size_t lane, const std::uint64_t words[25]) {
    for (int i = 0; i < 8; ++i) static_cast<LaneWords32*>(state)->s[i][lane] = static_cast<std::uint32_t>(words[i]);
  }
  /// LaneKernel::get_lane: lane `lane`'s words into the one-message layout.
  static void get_lane(const void* state, std::size_t lane, std::uint64_t words[25]) {
    for (int i = 0; i < 8; ++i) words[i] = static_cast<const LaneWords32*>(state)->s[i][lane];
  }
};

}  // namespace cryptaccel::cpu
