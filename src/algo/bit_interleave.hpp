// Bit interleaving of a 64-bit Keccak lane into two 32-bit words (the Keccak team's 32-bit implementation technique;
// seed 004's 32-bit vector architecture, Fig. 3): the even bits L[2j] form the word `even`, the odd bits L[2j+1]
// the word `odd`. A 64-bit rotation then becomes two 32-bit rotations (docs/isa-lab.md, "Custom Keccak vector
// instructions"). Host and device.
#pragma once
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// The two words of a bit-interleaved lane: even[j] = lane[2j], odd[j] = lane[2j + 1].
struct InterleavedLane {
  std::uint32_t even = 0, odd = 0;
};

/// Splits a lane into its even and odd bits (delta swaps; the inverse of deinterleave_lane).
CA_HD InterleavedLane interleave_lane(std::uint64_t x) {
  // Each step swaps the inner halves of every 2^(k+2)-bit block: after the five steps the even bits sit in the low
  // word and the odd bits in the high word, both in order.
  std::uint64_t t;
  t = (x ^ (x >> 1)) & 0x2222222222222222ull, x ^= t ^ (t << 1);
  t = (x ^ (x >> 2)) & 0x0C0C0C0C0C0C0C0Cull, x ^= t ^ (t << 2);
  t = (x ^ (x >> 4)) & 0x00F000F000F000F0ull, x ^= t ^ (t << 4);
  t = (x ^ (x >> 8)) & 0x0000FF000000FF00ull, x ^= t ^ (t << 8);
  t = (x ^ (x >> 16)) & 0x00000000FFFF0000ull, x ^= t ^ (t << 16);
  return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(x >> 32)};
}

/// Joins even and odd bits back into a lane (the steps of interleave_lane in reverse order).
CA_HD std::uint64_t deinterleave_lane(std::uint32_t even, std::uint32_t odd) {
  std::uint64_t x = std::uint64_t{odd} << 32 | even, t;
  t = (x ^ (x >> 16)) & 0x00000000FFFF0000ull, x ^= t ^ (t << 16);
  t = (x ^ (x >> 8)) & 0x0000FF000000FF00ull, x ^= t ^ (t << 8);
  t = (x ^ (x >> 4)) & 0x00F000F000F000F0ull, x ^= t ^ (t << 4);
  t = (x ^ (x >> 2)) & 0x0C0C0C0C0C0C0C0Cull, x ^= t ^ (t << 2);
  t = (x ^ (x >> 1)) & 0x2222222222222222ull, x ^= t ^ (t << 1);
  return x;
}

}  // namespace cryptaccel::algo
