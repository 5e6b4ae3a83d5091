// RSA-PSS keys (id-RSASSA-PSS) as decode_key meets them: their parameter restrictions, and their numbers as a plain
// RSA key (which PrivateKey reads).
#pragma once
#include <optional>

#include "cryptaccel/rsa_key_decode.hpp"
#include "rsa/key_impl.hpp"

namespace cryptaccel::rsa {

/// The restrictions of an RSA-PSS key; none for an unrestricted one. OpenSSL reports the parameters of a restricted
/// key only: the salt length always, the hash and MGF1 hash unless they are RFC 4055's default, SHA-1. Throws
/// InvalidArgument for a digest cryptaccel does not offer or a negative salt length.
std::optional<PssRestrictions> pss_restrictions(const EVP_PKEY* pkey);

/// The same private key as a plain RSA key (its numbers without the RSA-PSS parameters). Throws InvalidArgument.
PkeyPtr plain_rsa(const EVP_PKEY* pss_key);

}  // namespace cryptaccel::rsa
