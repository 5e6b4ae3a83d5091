// SM4-CBC encryption on GFNI with a short chain per round (sm4_cbc_gfni.cpp): the serial mode, where one round's
// latency times 32 is the cost of a block.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::cpu {

/// Whether sm4_cbc_encrypt_gfni runs here (SSSE3 + GFNI, after CRYPTACCEL_CPU_MASK).
bool sm4_cbc_gfni_available();

/// CBC-encrypts `nblocks` whole 16-byte blocks of `in` into `out` (in == out allowed) with the 32 encryption round
/// keys `rk` (sm4_aesni_expand_key); `chain` holds the IV (or the previous ciphertext block) and is left holding the
/// last ciphertext block. Constant time.
void sm4_cbc_encrypt_gfni(const std::uint32_t rk[32], std::uint8_t chain[16], const std::uint8_t* in,
                          std::uint8_t* out, std::size_t nblocks);

}  // namespace cryptaccel::cpu
