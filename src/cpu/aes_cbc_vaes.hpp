// AES-128/256 CBC decryption with VAES on AVX-512: CBC decryption is parallel (P_i = D(C_i) ^ C_{i-1}), so sixteen
// blocks go through the rounds together in four ZMM registers, each block's C_{i-1} taken from the ciphertext one lane
// down (the last block of the group before carried in a register: in place works). OpenSSL 3.0's CBC decryption is
// AES-NI, one block per instruction. Padding is the caller's (openssl_aes.cpp checks PKCS#7 in constant time). No
// branch or address depends on the key or the data.
#pragma once
#include <cstddef>
#include <cstdint>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cpu {

/// Whether this kernel decrypts `spec` (AES-128 or AES-256 CBC) here: AES-NI, VAES, AVX-512 F/BW, none hidden by
/// CRYPTACCEL_CPU_MASK.
bool aes_cbc_vaes_serves(const CipherSpec& spec);

/// Decrypts `len` bytes (a multiple of 16) from `in` to `out` (equal, or not overlapping) with `key` (16 or 32 bytes)
/// and `iv`, without touching padding. Call only when aes_cbc_vaes_serves(spec).
void aes_cbc_vaes_decrypt(bytes_view key, const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                          std::size_t len);

}  // namespace cryptaccel::cpu
