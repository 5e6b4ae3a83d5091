// The cpu engine's hashing: which backend serves a batch, a streaming Hasher or a Keccak-f batch on this CPU.
//   batches of many messages   multi-buffer kernels (hash_lanes.hpp): SHA-NI x2 or AVX2 x8 SHA-256, AVX2 x4 SHA-512,
//                              AVX2 x8 SM3, AVX2 x4 Keccak
//   few or very long messages  one message at a time: SHA-NI SHA-256, else OpenSSL EVP (its own SHA-512/Keccak/SM3 code)
//   streaming (Hasher)         SHA-NI SHA-256, else the portable block functions
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/hash.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// One way the cpu engine can hash a batch of `algorithm`, by name: a multi-buffer kernel ("sha256-shani-x2",
/// "sha256-avx2-x8", "sha512-avx2-x4", "sm3-avx2-x8", "keccak-avx2-x4") or a one-message-at-a-time path
/// ("sha256-shani", "evp").
struct HashBackend {
  std::string name;
  std::string missing;  ///< empty when this CPU can run it; otherwise why not ("needs AVX2 (features: ...)")
};

/// Every backend of `algorithm`, runnable here or not.
std::vector<HashBackend> hash_backends(HashAlgorithm algorithm);

/// The multi-buffer backend batches of many messages use on this CPU ("evp" where no kernel applies).
std::string default_hash_backend(HashAlgorithm algorithm);

/// Hashes every pending job with backend `name` alone (tests and measurements): a multi-buffer kernel runs every
/// message, even a lone or very long one, through its lanes. Throws std::invalid_argument for a name that is not a
/// backend of `algorithm` or cannot run on this CPU.
void run_hash_backend(std::string_view name, HashAlgorithm algorithm, std::span<HashJob> jobs);

/// The cpu engine's hash_batch on one thread: the default multi-buffer kernel for many messages, very long ones (when
/// too few to fill the lanes) and batches of one through the fastest one-message path.
void cpu_hash_batch(HashAlgorithm algorithm, std::span<HashJob> jobs);

/// The cpu engine's streaming block function for `algorithm`.
engine::Engine::HashBlocksFn cpu_hash_blocks_function(HashAlgorithm algorithm);

/// Keccak-f[1600] on every state (AVX2 four at a time, else the portable permutation).
void cpu_keccak_permutations(std::span<KeccakState> states);

}  // namespace cryptaccel::cpu
