// `cryptaccel pkeyutl -verifyrecover`: what was signed, recovered from a signature with the public key (openssl's
// RSA_public_decrypt with PKCS#1 v1.5 type 1 padding, or none).
#pragma once
#include "cryptaccel/batch.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/types.hpp"
#include "pkeyutl_options.hpp"

namespace cryptaccel::cli::pkeyutl {

/// Recovers from `signature` what was signed with `key`'s private half: the RSA public operation (the library's
/// modexp_batch with e and n, on `batch.engine`), then, as openssl 3.0 does:
///   - PKCS#1 v1.5 (the default): the data after the 00 01 FF..FF 00 padding (at least 8 FF bytes), e.g. the
///     DigestInfo; with `options.digest`, the DigestInfo must be that digest's and only the digest is returned;
///   - raw (rsa_padding_mode:none): the whole number, key.size() bytes.
/// The signature may be shorter than the key (a number with leading zero bytes), not longer, and must be less than
/// the modulus. Throws InvalidArgument for a signature out of range, Error ("signature recovery failed: ...") when
/// the padding or the DigestInfo is wrong.
bytes verify_recover(const rsa::PublicKey& key, bytes_view signature, const RecoverOptions& options,
                     const BatchOptions& batch);

}  // namespace cryptaccel::cli::pkeyutl
