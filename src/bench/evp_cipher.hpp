// The speed harness's OpenSSL side, cipher family (`--vs openssl`): the same messages encrypted by OpenSSL's
// libcrypto (EVP).
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"
#include "cipher_messages.hpp"
#include "cryptaccel/bench/workload.hpp"

namespace cryptaccel::bench {

/// Empty when the linked libcrypto offers `spec` (e.g. OpenSSL 3.0 has no SM4-GCM); otherwise a one-line reason.
std::string evp_unsupported(const CipherSpec& spec);

/// Empty when OpenSSL can encrypt one message of `size` bytes with `spec` in one call; otherwise why not.
std::string evp_unsupported_size(const CipherSpec& spec, std::size_t size);

/// Encrypts one message with EVP (no padding; GCM: `aad`, and a kSpeedTagLen tag appended). Used to check that
/// OpenSSL computes what cryptaccel computes before timing it. Throws std::runtime_error with OpenSSL's reason.
bytes evp_encrypt(const CipherSpec& spec, bytes_view key, bytes_view iv, bytes_view aad, bytes_view input);

/// A cell that encrypts every message of `messages` with EVP, one after the other on this thread. Each message is a
/// whole operation, as one cryptaccel job is: set key and IV, update, final (GCM: get the tag).
std::unique_ptr<Cell> make_evp_cell(CipherMessages messages);

}  // namespace cryptaccel::bench
