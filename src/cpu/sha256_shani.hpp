// SHA-256 block function with the x86 SHA extensions (SHA-NI): the cpu engine's streaming SHA-224/256.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

/// Processes `n` 64-byte blocks into `h` (FIPS 180-4 state order a..h). Call only when cpu_features().sha_ni.
void sha256_shani_blocks(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t n);

}  // namespace cryptaccel::cpu
