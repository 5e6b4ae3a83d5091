// Multi-buffer hashing: a SIMD kernel hashes L independent messages at once, one per lane, and a scheduler keeps
// the lanes fed from a batch of messages of any lengths (the approach of Intel's ipsec-mb and isa-l_crypto "mb"
// managers). Each kernel is one file compiled for its ISA (target attributes); the scheduler is portable.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "cryptaccel/hash.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::cpu {

/// A kernel that absorbs whole blocks into `lanes` hash states at once. The states live in an opaque buffer of
/// `state_bytes` bytes (at most kMaxLaneStateBytes, 64-byte aligned) in the kernel's own layout, converted from and to
/// the one-message layout of src/algo/hash_message.hpp (25 64-bit words) only when a lane starts or ends a message.
struct LaneKernel {
  const char* name;           ///< e.g. "sha256-avx2-x8"
  std::size_t lanes;          ///< messages hashed at once
  std::size_t state_bytes;    ///< size of the kernel's state buffer
  /// Absorbs `n` blocks of `block` bytes into every lane; lane i reads n * block bytes from in[i] (idle lanes read
  /// a dummy buffer and their state is thrown away). `block` matters only for Keccak (the rate).
  void (*blocks)(void* state, const std::uint8_t* const* in, std::size_t n, std::size_t block);
  /// Loads lane `lane`'s state from the one-message layout.
  void (*set_lane)(void* state, std::size_t lane, const std::uint64_t words[25]);
  /// Stores lane `lane`'s state in the one-message layout.
  void (*get_lane)(const void* state, std::size_t lane, std::uint64_t words[25]);
};

/// Room the scheduler reserves for a kernel's state (Keccak x4: 25 lanes x 4 states x 8 bytes = 800).
inline constexpr std::size_t kMaxLaneStateBytes = 1024;
/// Most lanes any kernel has.
inline constexpr std::size_t kMaxLanes = 16;

/// How run_lanes finishes a batch.
struct LaneOptions {
  /// Once no message is waiting and at most this many lanes are still busy, their messages are finished one at a
  /// time with `single` (which must then be non-null): worth it where the one-message block function beats a
  /// kernel running mostly idle lanes. 0: the kernel finishes everything.
  std::size_t drain_lanes = 0;
  engine::Engine::HashBlocksFn single = nullptr;
};

/// Hashes every pending job of `jobs` with `kernel` (long messages first, so that lanes finish close together);
/// sets each job's status to ok. Digest buffers must already be validated.
void run_lanes(const LaneKernel& kernel, HashAlgorithm algorithm, std::span<HashJob> jobs, const LaneOptions& options);

/// Bytes build_final_blocks may write: two blocks of the largest block size (SHAKE128's 168-byte rate).
inline constexpr std::size_t kFinalBlocksBytes = 2 * 168;

/// As algo::hash_final_blocks (the padded last 1 or 2 blocks after the whole ones, from the `tail_len` bytes left
/// over), with bulk copies: it runs once per message, often a short one. Returns the number of blocks.
std::size_t build_final_blocks(HashAlgorithm algorithm, const std::uint8_t* tail, std::size_t tail_len,
                               std::uint64_t total_bytes, std::uint8_t out[kFinalBlocksBytes]);

/// Writes the digest of a state that has absorbed its final blocks (one-message layout) to `out`, whose size is
/// validated: a word-wise algo::hash_output (SHAKE outputs longer than the rate squeeze the portable permutation).
void write_digest(HashAlgorithm algorithm, std::uint64_t words[25], mutable_bytes out);

// The kernels (each in its own file; call only when cpu_features() has what the comment names).
const LaneKernel& sha256_shani_x2_kernel();  ///< SHA-224/256, 2 lanes, SHA-NI + SSE4.1
const LaneKernel& sha256_avx2_x8_kernel();   ///< SHA-224/256, 8 lanes, AVX2
const LaneKernel& sha256_avx512_x16_kernel();  ///< SHA-224/256, 16 lanes, AVX-512 F/BW
const LaneKernel& sha512_avx2_x4_kernel();   ///< SHA-384/512/512-224/512-256, 4 lanes, AVX2
const LaneKernel& sm3_avx2_x8_kernel();      ///< SM3, 8 lanes, AVX2
const LaneKernel& sm3_avx512_x16_kernel();   ///< SM3, 16 lanes, AVX-512 F/BW
const LaneKernel& keccak_avx2_x4_kernel();   ///< SHA-3 and SHAKE, 4 lanes, AVX2

/// Keccak-f[1600] on every state, four at a time with AVX2 (call only when cpu_features().avx2).
void keccak_f1600_avx2_x4(std::span<KeccakState> states);

}  // namespace cryptaccel::cpu
