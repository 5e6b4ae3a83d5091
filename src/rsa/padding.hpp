// RSA paddings of RFC 8017 over cryptaccel's own hashes (SHA-1 from OpenSSL, the one digest the project lacks):
// EMSA-PKCS1-v1_5 and EMSA-PSS for signatures, RSAES-OAEP and RSAES-PKCS1-v1_5 for encryption. Every encoded
// message is k bytes (the modulus size), big-endian, ready for the raw operation. The decoders of the two
// decryption paddings are constant time in the decrypted block: every byte is read the same way whatever it holds,
// and a failure anywhere is one mask, never an early exit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "cryptaccel/hash.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::rsa {

/// Digest of `data` (kSha1 included); throws InvalidArgument for a hash RSA does not use.
bytes digest(HashAlgorithm algorithm, bytes_view data);

/// out ^= MGF1(seed, len) with `algorithm` (RFC 8017 B.2.1).
void mgf1_xor(HashAlgorithm algorithm, bytes_view seed, std::uint8_t* out, std::size_t len);

/// EMSA-PKCS1-v1_5 of a digest into em (k bytes). False when k is too small for the DigestInfo.
bool emsa_pkcs1v15_encode(HashAlgorithm hash, bytes_view digest, std::uint8_t* em, std::size_t k);

/// EMSA-PSS encoding of the digest `m_hash` with a random salt of `salt_len` bytes for a `mod_bits`-bit modulus,
/// into em (k bytes; a leading zero byte when mod_bits - 1 is a multiple of 8). False when the key is too small.
bool emsa_pss_encode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view m_hash, std::size_t salt_len,
                     std::size_t mod_bits, std::uint8_t* em, std::size_t k);

/// EMSA-PSS verification of em (k bytes, the raw public result): salt of exactly `salt_len` bytes, or any length
/// when nullopt (recovered from the position of the 0x01 separator).
bool emsa_pss_verify(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view m_hash,
                     std::optional<std::size_t> salt_len, std::size_t mod_bits, const std::uint8_t* em, std::size_t k);

/// Largest message for OAEP / PKCS#1 v1.5 encryption with a k-byte modulus (0 when none fits).
std::size_t oaep_max_message(HashAlgorithm hash, std::size_t k);
std::size_t pkcs1v15_max_message(std::size_t k);

/// EME-OAEP encoding (random seed) of `msg` into em (k bytes); msg must fit (oaep_max_message).
void eme_oaep_encode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view label, bytes_view msg, std::uint8_t* em,
                     std::size_t k);
/// EME-PKCS1-v1_5 encoding (random nonzero padding) of `msg` into em (k bytes); msg must fit.
void eme_pkcs1v15_encode(bytes_view msg, std::uint8_t* em, std::size_t k);

/// Result of a constant-time decoding: `good` and `length` are the only values that leave it (declassified).
struct Decoded {
  bool good = false;
  std::size_t length = 0;  ///< message bytes written at the start of `out` when good
};
/// EME-OAEP decoding of em (k bytes, secret) into out (capacity >= oaep_max_message); constant time in em.
Decoded eme_oaep_decode(HashAlgorithm hash, HashAlgorithm mgf_hash, bytes_view label, const std::uint8_t* em,
                        std::size_t k, std::uint8_t* out);
/// EME-PKCS1-v1_5 decoding of em (k bytes, secret) into out (capacity >= pkcs1v15_max_message); constant time in em.
Decoded eme_pkcs1v15_decode(const std::uint8_t* em, std::size_t k, std::uint8_t* out);

}  // namespace cryptaccel::rsa
