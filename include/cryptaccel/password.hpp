// cryptaccel — `openssl enc`'s password-based keys: the key and IV it derives from a password and a salt, through
// OpenSSL's own EVP_BytesToKey (the legacy derivation) or PKCS5_PBKDF2_HMAC (-pbkdf2 / -iter), and the "Salted__"
// header that carries the salt at the start of the ciphertext.
#pragma once
#include <array>
#include <cstddef>
#include <string_view>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// The 8 bytes "Salted__" that open a salted `openssl enc` ciphertext, followed by the 8-byte salt.
inline constexpr std::string_view kOpensslSaltMagic = "Salted__";
inline constexpr std::size_t kOpensslSaltSize = 8;

/// How `openssl enc` turns a password into a key and IV.
struct PasswordKdf {
  bool pbkdf2 = false;             ///< PBKDF2-HMAC (-pbkdf2, or -iter); otherwise EVP_BytesToKey with one iteration
  unsigned iterations = 10000;     ///< PBKDF2 iterations (openssl's default 10000)
  std::string_view digest = "sha256";  ///< -md: the digest of either derivation (openssl 3's default)
};

/// A derived key and IV (the IV is empty for ECB). Wiped on destruction.
struct DerivedKey {
  bytes key, iv;
  DerivedKey() = default;
  DerivedKey(const DerivedKey&) = delete;
  DerivedKey& operator=(const DerivedKey&) = delete;
  DerivedKey(DerivedKey&&) = default;
  ~DerivedKey();
};

/// The key and IV `openssl enc -<cipher>` derives from `password` and `salt` (empty: -nosalt). Throws
/// InvalidArgument for an unknown digest, a salt that is neither empty nor 8 bytes, or zero PBKDF2 iterations.
DerivedKey derive_openssl_enc_key(const CipherSpec& spec, std::string_view password, bytes_view salt,
                                  const PasswordKdf& kdf);

}  // namespace cryptaccel
