// cryptaccel — RSA key files as `openssl pkeyutl -inkey` reads them: PEM or DER, a private key, a public key
// (-pubin) or a certificate's public key (-certin), encrypted private keys with a password, RSA-PSS keys with their
// parameter restrictions. Failures are one typed error (KeyDecodeError) saying what the data held instead, so that a
// front end can word its own hint. Decoding is OpenSSL libcrypto's (OSSL_DECODER, X.509), as for PrivateKey::from_pem.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::rsa {

/// What to read from key data: a private key (and its public half), a public key, or the public key of an X.509
/// certificate (openssl pkeyutl's default, -pubin, -certin).
enum class KeySource { private_key, public_key, certificate };

/// The data's encoding. detect: PEM when the data has a "-----BEGIN " line, else DER. pem / der: only that parser is
/// tried, as openssl 3.0's -keyform does.
enum class KeyEncoding { detect, pem, der };

/// The restrictions an RSA-PSS key (id-RSASSA-PSS) carries in its parameters: signatures with it must use this hash
/// and MGF1 hash and a salt of at least `min_salt` bytes (RFC 4055 3.1).
struct PssRestrictions {
  HashAlgorithm hash;
  HashAlgorithm mgf1_hash;
  std::size_t min_salt = 0;
};

/// A decoded key. For KeySource::private_key, public_key is its public half (what verify and encrypt take).
struct DecodedKey {
  std::optional<PrivateKey> private_key;  ///< set when KeySource::private_key was asked for
  PublicKey public_key;
  bool rsa_pss = false;                   ///< an RSA-PSS (id-RSASSA-PSS) key: signatures with PSS only
  std::optional<PssRestrictions> pss;     ///< its restrictions, when its parameters carry any
};

/// Why decode_key failed.
enum class KeyDecodeFailure {
  wrong_encoding,  ///< KeyEncoding::pem for data without a PEM block, or KeyEncoding::der for PEM data
  other_kind,      ///< the data holds another kind of object than asked for: KeyDecodeError::holds() says which
  not_found,       ///< nothing of the kind asked for: no such PEM block, or DER that is none (or malformed, or a
                   ///< private key encrypted under another password)
  needs_password,  ///< an encrypted PEM private key, and no password source was given
  undecodable,     ///< the PEM block of the kind asked for cannot be read: malformed, wrong password, unsupported
  not_rsa,         ///< a key of another type (the message names it)
  unusable,        ///< an RSA key cryptaccel cannot use: its size, its exponent, a digest its PSS parameters require
};

/// decode_key's error: an InvalidArgument (so one catch serves every bad-argument error) with the failure's kind.
class KeyDecodeError : public InvalidArgument {
 public:
  KeyDecodeError(KeyDecodeFailure failure, const std::string& what, bool pem, std::optional<KeySource> holds = {})
      : InvalidArgument(what), failure_(failure), pem_(pem), holds_(holds) {}
  KeyDecodeFailure failure() const { return failure_; }
  /// Whether the data was read as PEM (else DER).
  bool pem() const { return pem_; }
  /// For other_kind: what the data holds instead.
  std::optional<KeySource> holds() const { return holds_; }

 private:
  KeyDecodeFailure failure_;
  bool pem_;
  std::optional<KeySource> holds_;
};

/// Supplies the password of an encrypted private key. An exception it throws reaches decode_key's caller unchanged.
using PasswordSource = std::function<std::string()>;

/// Decodes `data` as `source` says. PEM data may hold several blocks (a certificate and its key): the first one of
/// the kind asked for is read, as openssl does; text around the blocks is ignored. `password`, when given, is asked
/// once for a private key (after the data was found to hold one, when PEM) and its copy is wiped after use; without
/// it an encrypted key is refused (never a prompt). RSA and RSA-PSS keys; an RSA-PSS private key becomes a plain
/// RSA PrivateKey with its restrictions in DecodedKey::pss. Throws KeyDecodeError.
DecodedKey decode_key(bytes_view data, KeySource source, KeyEncoding encoding = KeyEncoding::detect,
                      const PasswordSource& password = {});

}  // namespace cryptaccel::rsa
