// cryptaccel — one-shot symmetric encryption and decryption (AES-128/192/256 and SM4 in ECB, CBC, CTR, GCM, XTS).
//
// Conventions (identical on every engine):
//  - ECB/CBC: PKCS#7 padding when CipherSpec::padding is set (as `openssl enc`), else the length must be a multiple of 16.
//  - CTR: the IV is the initial 128-bit counter block, incremented as one big-endian 128-bit integer; any length.
//  - GCM: any non-empty IV length (96-bit IVs are used directly, others are GHASHed per SP 800-38D), optional AAD,
//    tag length 4..16 bytes. encrypt() returns ciphertext || tag; decrypt() takes ciphertext || tag, verifies the tag
//    in constant time, releases no plaintext unless it matches, and throws AuthenticationFailed on mismatch.
//  - XTS (AES-128/256 only, IEEE 1619 / SP 800-38E): key = key1 || key2 (the two halves must differ), IV = the 16-byte
//    tweak of the first data unit (little-endian data-unit sequence number, see xts_tweak()). Ciphertext stealing for
//    lengths that are not a multiple of 16; every data unit must be at least 16 bytes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// Keys, IV and per-mode parameters of one encryption or decryption.
struct CipherParams {
  bytes_view key;
  /// IV (CBC), initial counter block (CTR), nonce (GCM), tweak of the first data unit (XTS); empty for ECB.
  bytes_view iv;
  /// Additional authenticated data (GCM only).
  bytes_view aad;
  /// GCM tag length in bytes, 4..16.
  std::size_t tag_len = 16;
  /// XTS data-unit size in bytes; 0 means the whole message is one data unit. Unit i uses tweak (iv + i) mod 2^128,
  /// iv read as a little-endian integer.
  std::size_t xts_unit = 0;
};

/// Encrypts `plaintext`. `engine` is "auto" or an engine name (see engine.hpp); the engine that ran is stored in
/// `engine_used` when given. Throws InvalidArgument (bad key/IV/tag length, bad data length) or EngineUnavailable.
bytes encrypt(const CipherSpec& spec, const CipherParams& params, bytes_view plaintext, std::string_view engine = "auto",
              std::string* engine_used = nullptr);

/// Decrypts `ciphertext` (GCM: ciphertext || tag). Throws AuthenticationFailed (GCM tag), BadDecrypt (padding or
/// length), InvalidArgument or EngineUnavailable; nothing is returned on failure.
bytes decrypt(const CipherSpec& spec, const CipherParams& params, bytes_view ciphertext, std::string_view engine = "auto",
              std::string* engine_used = nullptr);

/// encrypt() into caller memory: `out` needs encrypted_size(spec, plaintext.size(), params.tag_len) bytes (GCM:
/// ciphertext || tag); returns the bytes written. `out` may be `plaintext`'s memory (in place). For callers that own
/// the output buffer (Python's bytes objects): no allocation, no copy.
std::size_t encrypt_into(const CipherSpec& spec, const CipherParams& params, bytes_view plaintext, mutable_bytes out,
                         std::string_view engine = "auto", std::string* engine_used = nullptr);

/// decrypt() into caller memory: `out` needs the ciphertext's length (less the GCM tag); returns the plaintext length.
/// On any failure (AuthenticationFailed, BadDecrypt, ...) `out` holds no plaintext: it is wiped. In place allowed.
std::size_t decrypt_into(const CipherSpec& spec, const CipherParams& params, bytes_view ciphertext, mutable_bytes out,
                         std::string_view engine = "auto", std::string* engine_used = nullptr);

/// The 16-byte XTS tweak for a data-unit sequence number (little-endian, IEEE 1619 §5.1).
std::array<std::uint8_t, 16> xts_tweak(std::uint64_t data_unit_sequence_number);

/// Output length of encrypting `plaintext_len` bytes (padding and GCM tag included).
std::size_t encrypted_size(const CipherSpec& spec, std::size_t plaintext_len, std::size_t tag_len = 16);

}  // namespace cryptaccel
