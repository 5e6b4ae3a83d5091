#include "engine/xts_split.hpp"

#include <algorithm>
#include <cstring>

#include "algo/xts_tweak.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::engine {
namespace {

constexpr std::size_t kBlock = 16;

const algo::Gf128* alpha_powers() {
  static const auto table = [] {
    struct Table {
      algo::Gf128 pow2[algo::kXtsAlphaPowers];
    } t;
    algo::xts_alpha_pow_table(t.pow2);
    return t;
  }();
  return table.pow2;
}

/// The ciphertext-stealing tail: the last full block (index m-1) and the r-byte partial block after it, at `in` /
/// `out`; t0 is the data unit's first tweak.
void stealing_tail(const XtsSplitKey& key, Direction dir, const std::uint8_t t0[16], std::size_t m, std::size_t r,
                   const std::uint8_t* in, std::uint8_t* out) {
  std::uint8_t t_prev[kBlock], t_last[kBlock], full[kBlock], part[kBlock], x[kBlock];
  std::memcpy(t_prev, t0, kBlock);
  algo::xts_mul_alpha_pow_portable(t_prev, m - 1, alpha_powers());
  std::memcpy(t_last, t0, kBlock);
  algo::xts_mul_alpha_pow_portable(t_last, m, alpha_powers());
  std::memcpy(full, in, kBlock);  // copies first: the job may be in place
  std::memcpy(part, in + kBlock, r);
  if (dir == Direction::encrypt) {
    key.blocks(dir, t_prev, full, x, 1);        // CC = E(P_{m-1}) under T_{m-1}
    std::memcpy(out + kBlock, x, r);            // C_m = the first r bytes of CC
    std::memcpy(x, part, r);                    // PP = P_m || the rest of CC
    key.blocks(dir, t_last, x, out, 1);         // C_{m-1} = E(PP) under T_m
  } else {
    key.blocks(dir, t_last, full, x, 1);        // PP = D(C_{m-1}) under T_m
    std::memcpy(out + kBlock, x, r);            // P_m = the first r bytes of PP
    std::memcpy(x, part, r);                    // CC = C_m || the rest of PP
    key.blocks(dir, t_prev, x, out, 1);         // P_{m-1} = D(CC) under T_{m-1}
  }
  secure_wipe(t_prev, sizeof t_prev), secure_wipe(t_last, sizeof t_last), secure_wipe(full, sizeof full);
  secure_wipe(part, sizeof part), secure_wipe(x, sizeof x);
}

}  // namespace

void run_split_xts_job(const XtsSplitKey& key, Direction dir, CipherJob& job, std::size_t threads,
                       std::size_t piece_bytes) {
  const std::size_t len = job.in.size();
  const std::size_t m = len / kBlock, r = len % kBlock;  // validation guarantees m >= 1
  const std::size_t bulk = r ? m - 1 : m;                // blocks the pieces cover; the tail takes the rest
  const std::size_t piece_blocks = std::max<std::size_t>(1, (piece_bytes + kBlock - 1) / kBlock);
  const std::size_t pieces = (bulk + piece_blocks - 1) / piece_blocks;
  std::uint8_t t0[kBlock];
  key.first_tweak(job.iv.data(), t0);
  parallel_for(pieces + (r ? 1 : 0), threads, [&](std::size_t k) {
    if (k == pieces) return stealing_tail(key, dir, t0, m, r, job.in.data() + bulk * kBlock,
                                          job.out.data() + bulk * kBlock);
    const std::size_t first = k * piece_blocks, n = std::min(piece_blocks, bulk - first);
    std::uint8_t t[kBlock];
    std::memcpy(t, t0, kBlock);
    algo::xts_mul_alpha_pow_portable(t, first, alpha_powers());
    key.blocks(dir, t, job.in.data() + first * kBlock, job.out.data() + first * kBlock, n);
    secure_wipe(t, sizeof t);
  });
  secure_wipe(t0, sizeof t0);
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
  const std::size_t piece = std::max(kXtsMinPieceBytes, total / (threads * 4));
  const std::size_t min_bytes = std::max(kXtsSplitMinBytes, 2 * piece);
  for (CipherJob& job : jobs) {
    const std::size_t len = job.in.size();
    if (job.status != JobStatus::pending || len < min_bytes || (xts_unit != 0 && xts_unit < len)) continue;
    const auto key = engine.xts_split_key(spec.cipher, job.key);
    if (!key) return;  // the engine does not split XTS
    run_split_xts_job(*key, dir, job, threads, std::max(kXtsMinPieceBytes, len / (threads * 4)));
  }
}

}  // namespace cryptaccel::engine
