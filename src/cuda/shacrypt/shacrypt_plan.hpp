// Host side of SHA-crypt on the GPU: candidates grouped by (variant, rounds) and packed into device batches (inputs,
// offsets, room for each candidate's round templates), the schedule of loop launches over the rounds, and a host
// emulation of a batch through the same per-thread bodies (src/cuda/shacrypt/shacrypt_ops.hpp) for the CPU tests.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cryptaccel/shacrypt.hpp"
#include "cuda/shacrypt/shacrypt_ops.hpp"

namespace cryptaccel::cuda {

/// Rounds per loop-kernel launch: about 0.25 s for a million sha512crypt candidates on an H100-class GPU, well under
/// a display watchdog (2 s and more); rounds=999999999 is a million launches, never one long one.
inline constexpr std::uint32_t kShaCryptRoundsPerLaunch = 1000;

/// Device memory a batch's templates may take (the inputs and digests are small beside it).
inline constexpr std::uint64_t kShaCryptMaxTemplateBytes = std::uint64_t{1} << 30;

/// The loop launches for `rounds` rounds: [begin, end) pairs covering 0..rounds in order, each at most `per_launch`.
std::vector<std::pair<std::uint32_t, std::uint32_t>> shacrypt_round_chunks(std::uint32_t rounds,
                                                                           std::uint32_t per_launch);

/// One device batch: candidates of one variant and rounds count, packed as ShaCryptArgs reads them.
struct ShaCryptPack {
  ShaCryptVariant variant = ShaCryptVariant::sha512;
  std::uint32_t rounds = 0;
  std::vector<ShaCryptJob*> jobs;
  std::vector<std::uint8_t> input;         ///< passwords and salts
  std::vector<std::uint64_t> pw_offset;    ///< jobs.size() + 1
  std::vector<std::uint64_t> salt_offset;  ///< jobs.size()
  std::vector<std::uint8_t> salt_len;      ///< jobs.size()
  std::vector<std::uint64_t> tmpl_offset;  ///< jobs.size()
  std::uint64_t template_bytes = 0;        ///< total
  std::size_t digest_size() const { return variant == ShaCryptVariant::sha512 ? 64 : 32; }
};

/// Packs the pending jobs: one pack per (variant, rounds) group, split so that no pack's templates exceed
/// `max_template_bytes` (a candidate larger than that alone still gets a pack of its own).
std::vector<ShaCryptPack> shacrypt_pack(std::span<ShaCryptJob> jobs,
                                        std::uint64_t max_template_bytes = kShaCryptMaxTemplateBytes);

/// Runs `pack` on the host: init, the loop launches of shacrypt_round_chunks(rounds, per_launch), finish; writes
/// each job's digest and sets it ok. What the GPU does, thread by thread (tests).
void shacrypt_emulate(const ShaCryptPack& pack, std::uint32_t per_launch = kShaCryptRoundsPerLaunch);

}  // namespace cryptaccel::cuda
