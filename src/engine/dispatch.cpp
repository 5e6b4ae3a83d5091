#include "engine/dispatch.hpp"

#include <algorithm>
#include <vector>

#include "engine/gcm_split.hpp"
#include "engine/job_split.hpp"
#include "engine/thread_pool.hpp"
#include "engine/xts_split.hpp"

namespace cryptaccel::engine {
namespace {

/// A contiguous run of jobs handed to the engine in one call, with the spec it runs under.
struct Chunk {
  const CipherSpec* spec;
  std::span<CipherJob> jobs;
};

/// Per-job cost in bytes-equivalent, so that empty jobs still get divided among threads.
constexpr std::size_t kJobOverheadBytes = 64;

/// Cuts `jobs` into runs of about `target` input bytes (at least one job each), so that many small jobs cost one
/// engine call per run rather than one per job; calls `emit(run)` for each.
template <class Job, class Emit>
void cut_runs(std::span<Job> jobs, std::size_t target, Emit emit) {
  std::size_t begin = 0, bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    bytes += jobs[i].in.size() + kJobOverheadBytes;
    if (bytes >= target || i + 1 == jobs.size()) {
      emit(jobs.subspan(begin, i + 1 - begin));
      begin = i + 1;
      bytes = 0;
    }
  }
}

/// The batch's cost in bytes-equivalent (input bytes plus kJobOverheadBytes a job).
template <class Job>
std::size_t batch_cost(std::span<Job> jobs) {
  std::size_t total = 0;
  for (const Job& job : jobs) total += job.in.size() + kJobOverheadBytes;
  return total;
}

/// Whether a batch is less than one piece (kMinPieceBytes): it would make one run, and no job is large enough to be
/// split, so it runs on the calling thread without planning (whose allocations cost small messages on 2 threads
/// about a third of their speed: 64-byte AES-256-CTR 0.52x OpenSSL against 0.78x on one thread, idle-xts-rsa/).
template <class Job>
bool below_one_piece(std::span<Job> jobs) {
  return batch_cost(jobs) < kMinPieceBytes;
}

template <class Job>
std::size_t run_target(std::span<Job> jobs, std::size_t threads) {
  return std::max<std::size_t>(kMinPieceBytes, batch_cost(jobs) / (threads * kPiecesPerThread));
}

void add_chunks(const CipherSpec& spec, std::span<CipherJob> jobs, std::size_t target, std::vector<Chunk>& out) {
  cut_runs(jobs, target, [&](std::span<CipherJob> run) { out.push_back({&spec, run}); });
}

}  // namespace

void run_jobs(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
              const BatchOptions& options) {
  const std::size_t threads = options.threads ? options.threads : hardware_threads();
  if (!engine.runs_on_host_threads() || threads == 1 || jobs.empty() || below_one_piece(jobs)) {
    engine.run_cipher_jobs(spec, dir, jobs, options);
    return;
  }
  // Large GCM jobs first, each split over all threads (their status is set; the rest stay pending).
  run_split_gcm(engine, spec, dir, jobs, threads);
  // Large single-data-unit XTS jobs likewise (SplitPlan cuts XTS only at data-unit boundaries).
  run_split_xts(engine, spec, dir, jobs, options.xts_unit, threads);
  SplitPlan plan(spec, dir, jobs, options.xts_unit, threads);
  CipherSpec unpadded = spec;
  unpadded.padding = false;

  const std::size_t target = run_target(jobs, threads);
  std::vector<Chunk> chunks;
  if (plan.trivial()) {
    add_chunks(spec, jobs, target, chunks);
  } else {
    add_chunks(spec, plan.with_batch_spec(), target, chunks);
    add_chunks(unpadded, plan.without_padding(), target, chunks);
  }
  parallel_for(chunks.size(), threads, [&](std::size_t i) {
    engine.run_cipher_jobs(*chunks[i].spec, dir, chunks[i].jobs, options);
  });
  if (!plan.trivial()) plan.merge(jobs);
}

void run_hash_jobs(const Engine& engine, HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options) {
  const std::size_t threads = options.threads ? options.threads : hardware_threads();
  if (!engine.runs_on_host_threads() || threads == 1 || jobs.size() < 2 || below_one_piece(jobs)) {
    engine.run_hash_jobs(algorithm, jobs, options);
    return;
  }
  // One message is serial (each block depends on the last), so the parallelism is across messages.
  std::vector<std::span<HashJob>> runs;
  cut_runs(jobs, run_target(jobs, threads), [&](std::span<HashJob> run) { runs.push_back(run); });
  parallel_for(runs.size(), threads, [&](std::size_t i) { engine.run_hash_jobs(algorithm, runs[i], options); });
}

void run_keccak_permutations(const Engine& engine, std::span<KeccakState> states, std::size_t threads) {
  if (threads == 0) threads = hardware_threads();
  constexpr std::size_t kStatesPerRun = 4096;  // ~10 µs of work on one core per run with the portable permutation
  if (!engine.runs_on_host_threads() || threads == 1 || states.size() <= kStatesPerRun) {
    engine.run_keccak_permutations(states);
    return;
  }
  const std::size_t runs = (states.size() + kStatesPerRun - 1) / kStatesPerRun;
  parallel_for(runs, threads, [&](std::size_t i) {
    engine.run_keccak_permutations(states.subspan(i * kStatesPerRun, std::min(kStatesPerRun, states.size() - i * kStatesPerRun)));
  });
}

}  // namespace cryptaccel::engine
