// The one OSSL_DECODER set-up of RSA key parsing, for PrivateKey/PublicKey::from_pem/from_der (keys.cpp) and
// decode_key (key_decode.cpp).
#pragma once
#include <optional>
#include <string_view>

#include "cryptaccel/types.hpp"
#include "rsa/key_impl.hpp"

namespace cryptaccel::rsa {

/// Decodes `data` (`input_type` "PEM" or "DER") into a key of `key_type` ("RSA"; nullptr: any type, so that other
/// types and RSA-PSS keys can be told apart) with `selection` (EVP_PKEY_KEYPAIR: a private key; EVP_PKEY_PUBLIC_KEY:
/// SubjectPublicKeyInfo or PKCS#1 RSAPublicKey, where a private key is not taken for a public one, as in openssl).
/// Null on failure; OpenSSL's error queue is cleared either way. Never prompts on a terminal: without `password` an
/// encrypted key is refused.
PkeyPtr decode_pkey(bytes_view data, const char* input_type, const char* key_type, int selection,
                    std::optional<std::string_view> password);

}  // namespace cryptaccel::rsa
