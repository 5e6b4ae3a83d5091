// The public-key and key-derivation primitives of the age format, all from OpenSSL 3 (no hand-written curve or KDF):
// X25519 (RFC 7748), HKDF-SHA-256 (RFC 5869), HMAC-SHA-256, scrypt (RFC 7914), and the system's random bytes.
#pragma once
#include <array>
#include <optional>
#include <cstdint>
#include <string_view>

#include "cryptaccel/types.hpp"

namespace cryptaccel::age {

using Key32 = std::array<std::uint8_t, 32>;

/// `n` bytes from OpenSSL's CSPRNG (RAND_bytes); throws Error if it cannot deliver.
void random_fill(mutable_bytes out);

/// X25519(secret, 9): the public share of a secret scalar.
Key32 x25519_public(const Key32& secret);
/// X25519(secret, peer); none for a low-order peer point (an all-zero shared secret), which age refuses.
std::optional<Key32> x25519_shared(const Key32& secret, const Key32& peer);

/// HKDF-SHA-256 (extract and expand) of `ikm` with `salt` and `info` into `out`.
void hkdf_sha256(bytes_view ikm, bytes_view salt, std::string_view info, mutable_bytes out);
/// HMAC-SHA-256 of `data` under `key`.
Key32 hmac_sha256(bytes_view key, bytes_view data);
/// scrypt(passphrase, salt, N = 2^log2_n, r = 8, p = 1) into 32 bytes.
Key32 scrypt_key(std::string_view passphrase, bytes_view salt, unsigned log2_n);

}  // namespace cryptaccel::age
