// The cpu engine's SHA-crypt: the rounds of many candidates advance in lock-step, one candidate per SIMD lane of a
// multi-buffer SHA-2 kernel (hash_lanes.hpp), each round's message laid out from the candidate's eight precomputed
// round templates (src/algo/shacrypt.hpp). Backends:
//   sha256crypt   SHA-NI x2 ("sha256-shani-x2"), else AVX2 x8 ("sha256-avx2-x8"), else one at a time ("portable")
//   sha512crypt   AVX2 x4 ("sha512-avx2-x4"), else one at a time ("portable")
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu_hash.hpp"
#include "cpu/hash_lanes.hpp"
#include "cryptaccel/shacrypt.hpp"

namespace cryptaccel::cpu {

/// Hashes every pending job of `variant` in `jobs` (validated) with `kernel`, a kernel of that variant's SHA-2: jobs
/// with equal rounds run in lock-step, `kernel.lanes` at a time (salts and password lengths may differ between
/// lanes). A batch of at most `portable_up_to` candidates (the last, or a lone rounds count) runs one candidate at a
/// time with the portable code instead, where that beats a kernel call with mostly idle lanes. Jobs of the other
/// variant stay pending.
void shacrypt_run_lanes(const LaneKernel& kernel, ShaCryptVariant variant, std::span<ShaCryptJob> jobs,
                        std::size_t portable_up_to = 0);

/// Every SHA-crypt backend of `variant`, runnable here or not (`missing` says why not).
std::vector<HashBackend> shacrypt_backends(ShaCryptVariant variant);

/// The backend the cpu engine uses for `variant` on this CPU.
std::string default_shacrypt_backend(ShaCryptVariant variant);

/// Hashes every pending job with backend `name` (tests and measurements); every pending job must be of the
/// backend's variant. Throws std::invalid_argument for an unknown backend, one this CPU cannot run, or a job of
/// the other variant.
void run_shacrypt_backend(std::string_view name, std::span<ShaCryptJob> jobs);

/// The cpu engine's shacrypt_batch on one thread: each variant's jobs through its default backend.
void cpu_shacrypt_batch(std::span<ShaCryptJob> jobs);

}  // namespace cryptaccel::cpu
