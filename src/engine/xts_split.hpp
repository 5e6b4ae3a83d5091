// One large XTS data unit split over host threads. Block j of a data unit is enciphered under the tweak
// T_j = E_K2(iv)·α^j, and α^j is a product of public powers of α (algo/xts_tweak.hpp), so an engine kernel that
// starts at any block (Engine::xts_split_key) lets each thread take a run of whole blocks. With a partial last block
// (ciphertext stealing, IEEE 1619 §5.3.2) the last full block and the partial block are processed together, so they
// always stay in the last piece, which the thread that owns the end of the data unit runs.
#pragma once
#include <cstddef>
#include <span>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {

/// XTS data units shorter than this run whole, on one thread (OpenSSL's fused XTS on the cpu engine): below it the
/// split's fixed costs (a key expansion, the starting tweak of each piece, waking a pool thread) outweigh a second
/// core. Measured with `cryptaccel speed -a aes-128-xts aes-256-xts --threads 2 --vs openssl` on the 2-core EPYC
/// under other load (medians of 5, against OpenSSL's XTS on one core): split at 32 and 64 KiB, AES-128-XTS lost
/// (0.6-0.9x); at 128 KiB it ranged from 0.8x to 1.36x between runs; at 256 KiB it gained in every run (1.1-1.6x).
/// AES-256-XTS (more work per byte) already gained at 96-128 KiB; one threshold serves both. OpenSSL's XTS runs at
/// ~5.8 GB/s per core here, so 256 KiB is ~45 us of work, about what GCM's 128 KiB threshold is (gcm_split.hpp).
inline constexpr std::size_t kXtsSplitMinBytes = 256 * 1024;

/// Smallest piece a split data unit is cut into.
inline constexpr std::size_t kXtsMinPieceBytes = 16 * 1024;

/// Runs, split over up to `threads` host threads, every pending job of `jobs` that is one data unit (`xts_unit` 0 or
/// at least the job's length) of at least kXtsSplitMinBytes and large within its batch, when `engine` offers
/// xts_split_key for spec.cipher; sets those jobs' status. Other jobs are left pending.
void run_split_xts(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                   std::size_t xts_unit, std::size_t threads);

/// Runs one validated, pending single-data-unit XTS job with `key`, cut into pieces of about `piece_bytes` (rounded
/// up to whole blocks; the last piece also takes a partial block and the full block before it) over up to `threads`
/// threads. Exposed for tests, which choose small pieces.
void run_split_xts_job(const XtsSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t piece_bytes);

}  // namespace cryptaccel::engine
