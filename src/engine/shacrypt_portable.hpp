// SHA-crypt one candidate at a time with the specification's step-by-step code (algo/shacrypt.hpp): what the `ref`
// engine runs, and what the cpu engine runs for batches its SIMD lanes do not take. Shared code below the backends
// (as algo/ is), so that no backend calls another.
#pragma once
#include <optional>
#include <span>

#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::engine {

/// Runs every pending job of `jobs` (only those of `only`, when given) and sets each such job's status to ok.
void run_shacrypt_portable(std::span<ShaCryptJob> jobs, std::optional<ShaCryptVariant> only = std::nullopt);

}  // namespace cryptaccel::engine
