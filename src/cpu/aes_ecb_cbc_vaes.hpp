// AES-128/192/256 in ECB and CBC with VAES on AVX-512, whole jobs, PKCS#7 included: no EVP context, so no key load into
// one per call and no second load to wipe it (the per-call cost that made OpenSSL's EVP path 0.5-0.76x of OpenSSL
// itself on messages of 16 B-1 KiB, where the key schedule is most of the work). ECB in both directions and CBC
// decryption are parallel: sixteen blocks go through the rounds together in four ZMM registers (CBC decryption takes
// each block's C_{i-1} from the ciphertext one lane down, the last block of the group before carried in a register,
// so in place works). CBC encryption is serial by nature: one block after the other on AES-NI. PKCS#7 is checked in
// constant time (common/ct.hpp) and a bad padding releases no plaintext. No branch or address depends on the key or the
// data.
#pragma once
#include <cstddef>
#include <cstdint>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cpu {

/// Whether these kernels run `spec` (AES-128, -192 or -256 in ECB or CBC) here: AES-NI, VAES, AVX-512 F/BW, none hidden
/// by CRYPTACCEL_CPU_MASK.
bool aes_ecb_cbc_vaes_serves(const CipherSpec& spec);

/// Runs one pending, validated ECB or CBC job (padding as spec says) and sets its status. Call only when
/// aes_ecb_cbc_vaes_serves(spec).
void aes_ecb_cbc_vaes_run(const CipherSpec& spec, Direction dir, CipherJob& job);

/// Whether aes_cbc_vaes_decrypt runs `spec` (AES-128/192/256 CBC) here.
bool aes_cbc_vaes_serves(const CipherSpec& spec);

/// CBC decryption of `len` bytes (a multiple of 16) from `in` to `out` (equal, or not overlapping) with `key` (16, 24
/// or 32 bytes) and `iv`, without touching padding.
void aes_cbc_vaes_decrypt(bytes_view key, const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                          std::size_t len);

}  // namespace cryptaccel::cpu
