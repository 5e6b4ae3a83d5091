// One large XTS data unit split over host threads. Block j of a data unit is enciphered under the tweak
// T_j = E_K2(iv)·α^j, and α^j is a product of the public powers α^(2^i) (algo/xts_tweak.hpp), so any thread can
// start at any block: pieces of whole blocks run in parallel, each from its own T_j. With a partial last block
// (ciphertext stealing) the last full block and the partial one form a tail piece that runs the IEEE 1619 §5.3.2 /
// §5.4.2 steps with T_{m-1} and T_m. Engines provide the building blocks through Engine::xts_split_key.
#pragma once
#include <cstddef>
#include <span>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// XTS data units shorter than this run whole, on one thread (the split costs a key set-up per piece and the tweak
/// powers; EVP's XTS runs at ~5 GB/s per core, so 128 KiB is ~25 us of work).
inline constexpr std::size_t kXtsSplitMinBytes = 128 * 1024;

/// Smallest piece a split data unit is cut into.
inline constexpr std::size_t kXtsMinPieceBytes = 16 * 1024;

/// Runs, split over up to `threads` host threads, every pending job of `jobs` that is one data unit (`xts_unit` 0
/// or at least the job's length) of at least kXtsSplitMinBytes and large within its batch, when `engine` offers
/// xts_split_key for spec.cipher; sets those jobs' status. Other jobs are left pending.
void run_split_xts(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                   std::size_t xts_unit, std::size_t threads);

/// Runs one validated, pending single-data-unit XTS job with `key`, split into pieces of about `piece_bytes`
/// (rounded up to whole blocks) over up to `threads` threads. Exposed for tests, which choose small pieces.
void run_split_xts_job(const XtsSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t piece_bytes);

}  // namespace cryptaccel::engine
