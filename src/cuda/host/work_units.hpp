// How many work units (GPU threads' worth of work) each kind of job takes. The host builds the unit prefix sums from
// these counts and the kernels (src/cuda/kernels/thread_ops.hpp) map a unit back to its blocks with the same arithmetic, so
// both live here.
#pragma once
#include <cstdint>

#include "algo/hd.hpp"
#include "cuda/host/layout.hpp"

namespace cryptaccel::cuda {

/// ECB, CTR, CBC decryption, GCM's counter mode: `lanes` blocks per unit (a final partial block counts as a block).
CA_HD std::uint64_t block_units(std::uint64_t len, unsigned lanes) {
  const std::uint64_t blocks = (len + kBlock - 1) / kBlock;
  return (blocks + lanes - 1) / lanes;
}

/// Blocks of an XTS data unit of `len` (>= 16) bytes that are processed without ciphertext stealing.
CA_HD std::uint64_t xts_plain_blocks(std::uint64_t len) { return len / kBlock - (len % kBlock ? 1 : 0); }

/// Units of one XTS data unit (or data-unit slice): runs of kXtsRunBlocks plain blocks, plus one unit for the
/// stealing pair (the last whole block and the partial one) when the length is not a multiple of 16.
CA_HD std::uint64_t xts_runs(std::uint64_t len) {
  return (xts_plain_blocks(len) + kXtsRunBlocks - 1) / kXtsRunBlocks + (len % kBlock ? 1 : 0);
}

/// Units of an XTS piece of `len` bytes with data units of `unit` bytes (0: the piece is one data unit or a slice).
CA_HD std::uint64_t xts_units(std::uint64_t len, std::uint64_t unit) {
  if (unit == 0 || unit >= len) return xts_runs(len);
  const std::uint64_t full = len / unit, tail = len % unit;
  return full * xts_runs(unit) + (tail ? xts_runs(tail) : 0);
}

/// GHASH input blocks of a GCM slice: its AAD (zero-padded) then its text (zero-padded).
CA_HD std::uint64_t ghash_blocks(std::uint64_t aad_len, std::uint64_t text_len) {
  return (aad_len + kBlock - 1) / kBlock + (text_len + kBlock - 1) / kBlock;
}

/// GHASH segment slots of a slice: its segments rounded up to a power of two (at least one), so that the tree
/// combine is a perfect binary tree; the missing blocks are virtual zero blocks at the front (they leave GHASH's
/// zero initial state unchanged).
CA_HD std::uint64_t ghash_slots(std::uint64_t blocks) {
  const std::uint64_t segments = (blocks + kGhashSegmentBlocks - 1) / kGhashSegmentBlocks;
  std::uint64_t p = 1;
  while (p < segments) p <<= 1;
  return p;
}

}  // namespace cryptaccel::cuda
