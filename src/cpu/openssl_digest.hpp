// The cpu engine's batch hashing through OpenSSL libcrypto's EVP digests (SHA-NI / AVX2 / AVX-512 code paths that
// OpenSSL selects from CPUID), one message at a time per thread.
#pragma once
#include <cstddef>
#include <span>

#include "cryptaccel/hash.hpp"

namespace cryptaccel::cpu {

/// Whether this OpenSSL provides `algorithm`.
bool openssl_digest_supports(HashAlgorithm algorithm);

/// Hashes every pending job of at least `min_bytes` bytes; sets their status.
void openssl_digest_run(HashAlgorithm algorithm, std::span<HashJob> jobs, std::size_t min_bytes = 0);

}  // namespace cryptaccel::cpu
