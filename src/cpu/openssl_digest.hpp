// The cpu engine's batch hashing through OpenSSL libcrypto's EVP digests (SHA-NI / AVX2 / AVX-512 code paths that
// OpenSSL selects from CPUID), one message at a time per thread.
#pragma once
#include <cstddef>
#include <span>

#include "cryptaccel/hash.hpp"

namespace cryptaccel::cpu {

/// Whether this OpenSSL provides `algorithm`.
bool openssl_digest_supports(HashAlgorithm algorithm);

/// SHA-384, SHA-512, SHA-512/224 or SHA-512/256 of one pending job through OpenSSL's low-level SHA-512 functions
/// (the block code EVP uses, without EVP's per-message provider context); sets its status. Returns false, touching
/// nothing, for the other algorithms.
bool openssl_sha512_one(HashAlgorithm algorithm, HashJob& job);

/// Hashes every pending job of at least `min_bytes` bytes through EVP; sets their status.
void openssl_digest_run(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes = 0);

}  // namespace cryptaccel::cpu
