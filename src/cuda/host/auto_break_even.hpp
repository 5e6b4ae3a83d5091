// The smallest requests for which `auto` hands work to the cuda engine (Engine::worth_auto). Below them the GPU's
// fixed cost per call (pinned staging, launches, synchronisation: 0.04 ms for one tiny hash, ~37 ms for one RSA-2048
// signature, whose latency is a whole exponentiation on one GPU thread) exceeds what the host cores need for the
// whole request. Measured on the first GPU machine (H100 SXM, 16 host cores; cryptaccel_crossover_bench,
// bench/results/2026-11-27-h100/run3): host-resident ciphers, hashes, Keccak and RSA public operations were never
// faster on cuda than on the cpu engine's 16 cores at any size measured (up to 256 MiB / 2^21 messages / 2^20
// states / 2^16 verifications: 0.3x-0.9x), so `auto` keeps them on the host; RSA-2048 signatures pay from 1024 on
// (1.23x, 3.42x at 8192) and sha512crypt between 1024 candidates (0.92x) and 16384 (12.5x). A named engine
// (`--engine cuda`, the device-resident API) is used whatever these say. They move with the host's core count,
// the GPU and the host-resident pipeline (bench/gpu/NOTES.md: measure again when either changes).
#pragma once
#include <cstddef>

#include "engine/engine.hpp"

namespace cryptaccel::cuda {

/// Break-even sizes, per kind of request (items and/or input bytes; a request meeting either bound is large enough;
/// kNever: `auto` never offloads this kind).
struct BreakEven {
  std::size_t items;
  std::size_t bytes;
};

inline constexpr std::size_t kMiB = std::size_t{1} << 20;
inline constexpr std::size_t kNever = ~std::size_t{0};

/// The break-even size of `kind` on the cuda engine.
constexpr BreakEven break_even(engine::WorkKind kind) {
  switch (kind) {
    case engine::WorkKind::cipher: return {kNever, kNever};
    case engine::WorkKind::hash: return {kNever, kNever};
    case engine::WorkKind::keccak: return {kNever, kNever};
    case engine::WorkKind::rsa_private: return {1024, kNever};
    case engine::WorkKind::rsa_public: return {kNever, kNever};
    // SHA-crypt: rounds summed over the candidates (2048 candidates of the default 5000 rounds; cuda's time was
    // flat at ~0.11 s from 1 to 16384 candidates, the cpu's 0.1 ms per candidate: even at ~1100).
    case engine::WorkKind::shacrypt: return {kNever, std::size_t{2048} * 5000};
  }
  return {kNever, kNever};
}

/// Whether `auto` should give `work` to the cuda engine: a request of unknown size counts as large.
constexpr bool worth_auto(const engine::Work& work) {
  if (!work.known) return true;
  const BreakEven b = break_even(work.kind);
  return work.items >= b.items || work.bytes >= b.bytes;
}

}  // namespace cryptaccel::cuda
