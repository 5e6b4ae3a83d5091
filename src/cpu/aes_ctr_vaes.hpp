// AES-128/192/256 in CTR mode (the 128-bit big-endian counter of OpenSSL's EVP_aes_*_ctr and SP 800-38A) with VAES on
// AVX-512: four blocks per instruction, sixteen in flight (four ZMM registers through each round key), against
// OpenSSL 3.0's AES-NI CTR that runs one block per instruction. The counter blocks are made in 64-bit lanes (the
// counter's low half counts, its high half waits) and byte-swapped into place; where the low half would wrap inside a
// stretch of blocks, the stretch stops there and the high half is carried in the scalar code (the counter is public).
// A partial last stretch uses masked loads and stores. No branch or address depends on the key or the data.
#pragma once
#include <cstddef>
#include <cstdint>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::cpu {

/// True when the CPU has AES-NI, AVX-512 F/BW and VAES (and CRYPTACCEL_CPU_MASK hides none of them).
bool aes_ctr_vaes_available();

/// Whether this kernel serves `spec` (AES-128, -192 or -256 in CTR) here.
bool aes_ctr_vaes_serves(const CipherSpec& spec);

/// Runs one pending, validated CTR job (key of 16, 24 or 32 bytes, 16-byte IV, out at least in's size; in == out
/// allowed) and sets its status. Call only when aes_ctr_vaes_serves(spec).
void aes_ctr_vaes_run(const CipherSpec& spec, CipherJob& job);

}  // namespace cryptaccel::cpu
