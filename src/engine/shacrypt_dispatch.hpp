// Runs a validated SHA-crypt batch on the chosen engine: engines that compute on host cores get it cut into runs of
// candidates spread over the thread pool (one password hash is serial: the parallelism is across candidates).
#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cryptaccel/shacrypt.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// Candidates per run at least (a multiple of the widest CPU lane count, so runs fill the SIMD lanes).
inline constexpr std::size_t kShaCryptMinRun = 16;

/// Where run_shacrypt_jobs cuts `jobs` for `threads` threads: run k is [cuts[k], cuts[k+1]). Runs weigh about the
/// same (a job weighs its rounds times the blocks its rounds hash), hold at least kShaCryptMinRun jobs but the last,
/// and there are about four per thread so that uneven runs balance.
std::vector<std::size_t> shacrypt_runs(std::span<const ShaCryptJob> jobs, std::size_t threads);

/// Runs every pending job of `jobs` (only those of `only`, when given) one at a time with the specification's
/// step-by-step code (algo/shacrypt.hpp): the ref engine's SHA-crypt, and the cpu engine's for what its lanes do
/// not take. Sets each such job's status to ok.
void run_shacrypt_portable(std::span<ShaCryptJob> jobs, std::optional<ShaCryptVariant> only = std::nullopt);

/// Runs every pending job of `jobs` on `engine` and sets each job's status.
void run_shacrypt_jobs(const Engine& engine, std::span<ShaCryptJob> jobs, const BatchOptions& options);

}  // namespace cryptaccel::engine
