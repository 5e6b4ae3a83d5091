// Runs a validated batch on the chosen engine: engines that compute on host cores get the batch cut into balanced
// chunks (large jobs split into pieces, see job_split.hpp) spread over the thread pool; others get it whole.
#pragma once
#include <span>

#include "cryptaccel/batch.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// Runs every pending job of `jobs` on `engine` and sets each job's status.
void run_jobs(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
              const BatchOptions& options);

}  // namespace cryptaccel::engine
