// The `ref` engine's ChaCha20-Poly1305 (RFC 8439 §2.8) on the portable round functions of src/algo.
#pragma once
#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"

namespace cryptaccel::ref {

/// Runs one validated job (key 32 bytes, nonce 12, tag 16): encryption writes the ciphertext and job.tag;
/// decryption checks job.tag against the ciphertext first and writes plaintext only when it matches (else the
/// status is auth_failed and out is untouched). Sets status and out_len.
void chacha20_poly1305(Direction dir, CipherJob& job);

}  // namespace cryptaccel::ref
