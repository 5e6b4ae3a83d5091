// What a kernel's output must be, computed by the library's ref engine.
#pragma once
#include <cstddef>
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel::rvlab {

/// `algorithm` ("AES-128", "AES-256", "SM4") in `mode` ("ecb", "cbc", "ctr") over `data` (whole blocks, no padding),
/// through the public cipher API on the ref engine. ECB ignores `iv`; CTR decryption is encryption.
bytes reference_cipher(const std::string& algorithm, const std::string& mode, bool decrypt, bytes_view key,
                       bytes_view iv, bytes_view data);

/// AES-GCM encryption (`algorithm` "AES-128-GCM", ...) of `plaintext` with a 96-bit `iv` and `aad` on the ref
/// engine: ciphertext || 16-byte tag.
bytes reference_gcm(const std::string& algorithm, bytes_view key, bytes_view iv, bytes_view aad, bytes_view plaintext);

/// The digest of `message` by `algorithm` ("SHA-256", "SHA-512", "SM3", ...) through the hash API on the ref engine.
bytes reference_hash(const std::string& algorithm, bytes_view message);

/// An extendable-output function's (`algorithm` "SHAKE128", "SHAKE256") first `outlen` bytes for `message`, through
/// the hash API on the ref engine.
bytes reference_xof(const std::string& algorithm, bytes_view message, std::size_t outlen);

/// Keccak-p[1600, rounds] (FIPS 202, 3.3: the last `rounds` rounds of Keccak-f[1600]) of every 200-byte state in
/// `states` (25 little-endian lanes each): the ref engine's batch Keccak-f[1600] for rounds = 24, else
/// src/algo/keccak.hpp's round function with round constants RC[24 - rounds .. 23]. Throws std::invalid_argument
/// for rounds outside 1..24 or a size that is not whole states.
bytes reference_keccak_p(bytes_view states, unsigned rounds);

/// The AES key schedule of `key` (16, 24 or 32 bytes) in FIPS-197 byte order, 16 * (rounds + 1) bytes: w[] from
/// src/algo's key expansion, or with `decryption` the equivalent inverse cipher's dw[] (FIPS-197 §5.3.5:
/// InvMixColumns applied to round keys 1 .. rounds-1).
bytes reference_aes_schedule(bytes_view key, bool decryption);

}  // namespace cryptaccel::rvlab
