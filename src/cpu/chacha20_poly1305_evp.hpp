// The cpu engine's ChaCha20-Poly1305 (RFC 8439): OpenSSL's EVP_chacha20_poly1305, whose x86-64 assembly (ChaCha20 on
// AVX-512 or AVX2 several blocks at a time, Poly1305 on AVX-512/AVX2 base 2^26 vectors) is at the limit of one core
// for a message from a few hundred bytes on; shorter messages take the portable round functions of src/algo, without
// EVP's set-up. A batch of messages (age's 64 KiB chunks) spreads over the cores through engine dispatch.
#pragma once
#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::cpu {

/// Runs one validated job (key 32 bytes, nonce 12, tag 16), as ref::chacha20_poly1305 does: a decryption's
/// plaintext is written only after its tag verified (it is decrypted into `out` and wiped again on a mismatch, never
/// returned). Sets status, out_len and error.
void chacha20_poly1305_run(Direction dir, CipherJob& job);

/// Overwrites the key this thread's EVP context holds from its last job (call after a run of jobs, as the AES path
/// wipes its context).
void chacha20_poly1305_wipe_key();

}  // namespace cryptaccel::cpu
