// Runs a validated batch on the chosen engine: engines that compute on host cores get the batch cut into balanced
// chunks (large jobs split into pieces, see job_split.hpp) spread over the thread pool; others get it whole.
#pragma once
#include <span>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/hash.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// Runs every pending job of `jobs` on `engine` and sets each job's status.
void run_jobs(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
              const BatchOptions& options);

/// Runs every pending hash job on `engine`, spread over host threads (whole messages per thread) where it computes
/// on the host.
void run_hash_jobs(const Engine& engine, HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options);

/// Applies Keccak-f[1600] to every state on `engine`, over up to `threads` host threads (0: all).
void run_keccak_permutations(const Engine& engine, std::span<KeccakState> states, std::size_t threads);

}  // namespace cryptaccel::engine
