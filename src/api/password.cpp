// openssl enc's password-based key derivation, through OpenSSL's own functions (include/cryptaccel/password.hpp).
#include "cryptaccel/password.hpp"

#include <openssl/evp.h>

#include <string>

#include "cryptaccel/error.hpp"

namespace cryptaccel {

DerivedKey::~DerivedKey() {
  secure_wipe(key.data(), key.size());
  secure_wipe(iv.data(), iv.size());
}

DerivedKey derive_openssl_enc_key(const CipherSpec& spec, std::string_view password, bytes_view salt,
                                  const PasswordKdf& kdf) {
  if (!salt.empty() && salt.size() != kOpensslSaltSize)
    throw InvalidArgument("the salt must be " + std::to_string(kOpensslSaltSize) + " bytes");
  const std::string digest_name(kdf.digest);
  const EVP_MD* md = EVP_get_digestbyname(digest_name.c_str());
  if (!md) throw InvalidArgument("unknown digest '" + digest_name + "' for the key derivation");
  DerivedKey out;
  out.key.resize(spec.key_size());
  out.iv.resize(spec.mode == Mode::ecb ? 0 : 16);  // openssl enc's IV length: the cipher's, 16 (none for ECB)
  if (kdf.pbkdf2) {
    if (kdf.iterations == 0) throw InvalidArgument("PBKDF2 needs at least one iteration");
    bytes both(out.key.size() + out.iv.size());
    const int ok = PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), salt.data(),
                                     static_cast<int>(salt.size()), static_cast<int>(kdf.iterations), md,
                                     static_cast<int>(both.size()), both.data());
    if (ok != 1) throw Error("PBKDF2 failed");
    std::copy(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(out.key.size()), out.key.begin());
    std::copy(both.begin() + static_cast<std::ptrdiff_t>(out.key.size()), both.end(), out.iv.begin());
    secure_wipe(both.data(), both.size());
    return out;
  }
  // EVP_BytesToKey takes the cipher only for its key and IV lengths: OpenSSL's cipher of the same name.
  const std::string name = spec.name();
  const EVP_CIPHER* cipher = EVP_get_cipherbyname(name.c_str());
  if (!cipher) throw InvalidArgument("no password-based key derivation for " + name);
  bytes key(EVP_MAX_KEY_LENGTH), iv(EVP_MAX_IV_LENGTH);
  const int n = EVP_BytesToKey(cipher, md, salt.empty() ? nullptr : salt.data(),
                               reinterpret_cast<const unsigned char*>(password.data()), static_cast<int>(password.size()),
                               1, key.data(), iv.data());
  if (n <= 0) throw Error("EVP_BytesToKey failed");
  std::copy(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(out.key.size()), out.key.begin());
  std::copy(iv.begin(), iv.begin() + static_cast<std::ptrdiff_t>(out.iv.size()), out.iv.begin());
  secure_wipe(key.data(), key.size());
  secure_wipe(iv.data(), iv.size());
  return out;
}

}  // namespace cryptaccel
