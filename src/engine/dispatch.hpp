// The one dispatcher: runs a validated batch of any family (ciphers, hashes, Keccak-f, SHA-crypt, RSA's raw
// operations) on the engine selected for it (registry.cpp). Engines that compute on host cores get the batch cut
// into balanced chunks (large cipher jobs split into pieces, see job_split.hpp) spread over the thread pool; others
// (a GPU) get it whole. What an engine can do and how it computes are asked of the engine (engine.hpp), never guessed.
#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/shacrypt.hpp"
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

// --- SHA-crypt: one password hash is serial, so the parallelism is across candidates ---

/// Candidates per run at least (a multiple of the widest CPU lane count, so runs fill the SIMD lanes).
inline constexpr std::size_t kShaCryptMinRun = 16;

/// Where run_shacrypt_jobs cuts `jobs` for `threads` threads: run k is [cuts[k], cuts[k+1]). Runs weigh about the
/// same (a job weighs its rounds times the blocks its rounds hash), hold at least kShaCryptMinRun jobs but the last,
/// and there are about four per thread so that uneven runs balance.
std::vector<std::size_t> shacrypt_runs(std::span<const ShaCryptJob> jobs, std::size_t threads);

/// Runs every pending SHA-crypt job of `jobs` on `engine` and sets each job's status.
void run_shacrypt_jobs(const Engine& engine, std::span<ShaCryptJob> jobs, const BatchOptions& options);

// --- RSA: the raw integer operations (padding, blinding and the result check stay in src/rsa, for every engine) ---

/// Runs `count` raw RSA private operations on `engine` over up to `threads` host threads (0: all cores).
/// `prepare(i)` makes operation i's raw job (src/rsa blinds its input there) just before the engine runs it;
/// `finish(i)` runs after the engine has (unblinding and the check). Each is called once per i, from any thread,
/// never twice at once for the same i. On host engines the operations run in runs of 4 to 16, about four runs per
/// thread; an engine with its own parallelism gets them all in one call.
void run_rsa_private_jobs(const Engine& engine, std::size_t count, std::size_t threads,
                          const std::function<RsaPrivateJob(std::size_t)>& prepare,
                          const std::function<void(std::size_t)>& finish);

/// Runs every raw RSA public operation on `engine` (one per task on host threads, all at once otherwise).
void run_rsa_public_jobs(const Engine& engine, std::span<const RsaPublicJob> jobs, std::size_t threads);

/// Runs every base of a raw modexp batch on `engine` (one per task on host threads, all at once otherwise).
void run_modexp_jobs(const Engine& engine, const rsa::Modulus& modulus, bytes_view exponent,
                     std::span<const ModexpJob> jobs, std::size_t threads);

}  // namespace cryptaccel::engine
