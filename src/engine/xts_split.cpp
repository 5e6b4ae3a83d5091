#include "engine/xts_split.hpp"

#include <algorithm>
#include <exception>

#include "engine/job_split.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::engine {
namespace {

constexpr std::size_t kBlock = 16;

}  // namespace

void run_split_xts_job(const XtsSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t piece_bytes) {
  const std::size_t len = job.in.size();  // validation guarantees len >= 16
  const std::size_t r = len % kBlock;
  // Blocks that may start a piece: with stealing, the last full block stays with the partial one after it.
  const std::size_t starts = len / kBlock - (r ? 1 : 0);
  const std::size_t piece_blocks = std::max<std::size_t>(1, (piece_bytes + kBlock - 1) / kBlock);
  const std::size_t pieces = std::max<std::size_t>(1, (starts + piece_blocks - 1) / piece_blocks);
  try {
    parallel_for(pieces, threads, [&](std::size_t k) {
      const std::size_t first = k * piece_blocks;
      const std::size_t n = k + 1 == pieces ? len - first * kBlock : piece_blocks * kBlock;  // the last: to the end
      key.crypt(dir, job.iv.data(), first, job.in.data() + first * kBlock, job.out.data() + first * kBlock, n);
    });
  } catch (const std::exception& e) {  // a backend failure: nothing is released
    secure_wipe(job.out.data(), len);
    job.status = JobStatus::invalid_argument, job.out_len = 0, job.error = e.what();
    return;
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

void run_split_xts(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                   std::size_t xts_unit, std::size_t threads) {
  if (spec.mode != Mode::xts || threads < 2) return;
  // As for GCM: a job is split only when it is large within its batch, so that many similar jobs run one per thread.
  std::size_t total = 0;
  for (const CipherJob& job : jobs)
    if (job.status == JobStatus::pending) total += job.in.size();
  const std::size_t piece = std::max(kXtsMinPieceBytes, total / (threads * kPiecesPerThread));
  const std::size_t min_bytes = std::max(kXtsSplitMinBytes, 2 * piece);
  for (CipherJob& job : jobs) {
    const std::size_t len = job.in.size();
    if (job.status != JobStatus::pending || len < min_bytes || (xts_unit != 0 && xts_unit < len)) continue;
    const auto key = engine.xts_split_key(spec.cipher, job.key);
    if (!key) return;  // the engine does not split XTS (or lacks the instructions)
    // Pieces of this job: kPiecesPerThread per thread, to balance uneven progress.
    run_split_xts_job(*key, dir, job, threads, std::max(kXtsMinPieceBytes, len / (threads * kPiecesPerThread)));
  }
}

}  // namespace cryptaccel::engine
