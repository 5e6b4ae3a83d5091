// AES-128/192/256-GCM (SP 800-38D) with the counter mode and GHASH in one pass on AVX-512: VAES encrypts sixteen
// counter blocks per step (four ZMM registers) while VPCLMULQDQ absorbs the same sixteen ciphertext blocks with one
// reduction (ghash_pclmul_inline.hpp); the two use different execution ports, so the out-of-order core overlaps them
// and the data is read and written once. Serves one-shot jobs of any size (no EVP context per call: the key schedule
// and only the powers of H a message needs are computed per call) and, through a GcmSplitKey, the chunks of a
// message split over threads or streamed (engine/gcm_split.hpp). Any IV length (J0 from GHASH when not 12 bytes),
// GCM's 32-bit counter wrap, partial last blocks through masked loads and stores. Decryption hashes the ciphertext
// before writing the plaintext (in-place jobs work) and wipes the output when the tag does not verify. No branch or
// address depends on the key or the data.
#pragma once
#include <memory>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// True when the CPU has AES-NI, PCLMULQDQ, AVX-512 F/BW, VAES and VPCLMULQDQ (none hidden by CRYPTACCEL_CPU_MASK).
bool aes_gcm_vaes_available();

/// Whether this kernel serves `spec` (AES-128, -192 or -256 in GCM) here.
bool aes_gcm_vaes_serves(const CipherSpec& spec);

/// Runs one pending, validated GCM job (key of 16, 24 or 32 bytes, IV of at least 1 byte, tag of 4..16 bytes, out at
/// least in's size; in == out allowed) and sets its status: ok, or auth_failed with the output wiped.
/// Call only when aes_gcm_vaes_serves(spec).
void aes_gcm_vaes_run(const CipherSpec& spec, Direction dir, CipherJob& job);

/// This kernel's building blocks for one key of a split or streamed GCM message; nullptr unless
/// aes_gcm_vaes_serves({cipher, Mode::gcm}).
std::unique_ptr<engine::GcmSplitKey> aes_gcm_vaes_split_key(BlockCipher cipher, bytes_view key);

}  // namespace cryptaccel::cpu
