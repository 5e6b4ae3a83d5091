// The one dispatcher (see the header): how a batch of each family is spread over host threads or handed whole to an
// engine with its own parallelism.
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

/// A SHA-crypt job's cost in block-function calls, about: its rounds times the blocks of one round's message.
std::size_t shacrypt_cost(const ShaCryptJob& job) {
  const ShaCryptSetting& s = *job.setting;
  const std::size_t block = s.variant == ShaCryptVariant::sha512 ? 128 : 64;
  const std::size_t digest = s.variant == ShaCryptVariant::sha512 ? 64 : 32;
  const std::size_t round_bytes = digest + 2 * job.password.size() + s.salt.size() + 17;
  return static_cast<std::size_t>(s.rounds) * (round_bytes / block + 1);
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

// ---- SHA-crypt ----

std::vector<std::size_t> shacrypt_runs(std::span<const ShaCryptJob> jobs, std::size_t threads) {
  std::size_t total = 0;
  for (const ShaCryptJob& job : jobs)
    if (job.status == JobStatus::pending) total += shacrypt_cost(job);
  const std::size_t target = std::max<std::size_t>(1, total / (std::max<std::size_t>(threads, 1) * 4));
  std::vector<std::size_t> cuts{0};
  std::size_t acc = 0, count = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].status == JobStatus::pending) acc += shacrypt_cost(jobs[i]), ++count;
    if (acc >= target && count >= kShaCryptMinRun && i + 1 < jobs.size()) {
      cuts.push_back(i + 1);
      acc = count = 0;
    }
  }
  cuts.push_back(jobs.size());
  return cuts;
}

void run_shacrypt_jobs(const Engine& engine, std::span<ShaCryptJob> jobs, const BatchOptions& options) {
  const std::size_t threads = options.threads ? options.threads : hardware_threads();
  if (!engine.runs_on_host_threads() || threads == 1 || jobs.size() <= kShaCryptMinRun) {
    engine.run_shacrypt_jobs(jobs, options);
    return;
  }
  const std::vector<std::size_t> cuts = shacrypt_runs(jobs, threads);
  parallel_for(cuts.size() - 1, threads, [&](std::size_t k) {
    engine.run_shacrypt_jobs(jobs.subspan(cuts[k], cuts[k + 1] - cuts[k]), options);
  });
}

// ---- RSA ----

void run_rsa_private_jobs(const Engine& engine, std::size_t count, std::size_t threads,
                          const std::function<RsaPrivateJob(std::size_t)>& prepare,
                          const std::function<void(std::size_t)>& finish) {
  if (engine.runs_on_host_threads()) {
    // Runs of kRunQuantum to kHostRun operations, about four per thread so that work stealing evens out cores of
    // unequal speed: each run is prepared, handed to the engine at once (the cpu engine signs four at a time with
    // AVX-512 IFMA: runs are multiples of four where the batch allows) and finished on the same thread.
    constexpr std::size_t kHostRun = 16, kRunQuantum = 4;
    const std::size_t workers = threads ? threads : hardware_threads();
    const std::size_t per_run = (count + 4 * workers - 1) / (4 * workers);
    const std::size_t run =
        std::min(kHostRun, std::max(kRunQuantum, (per_run + kRunQuantum - 1) / kRunQuantum * kRunQuantum));
    parallel_for((count + run - 1) / run, threads, [&](std::size_t t) {
      const std::size_t first = t * run, last = std::min(count, first + run);
      std::vector<RsaPrivateJob> jobs;
      jobs.reserve(last - first);
      for (std::size_t i = first; i < last; ++i) jobs.push_back(prepare(i));
      engine.run_rsa_private(jobs);
      for (std::size_t i = first; i < last; ++i) finish(i);
    });
    return;
  }
  std::vector<RsaPrivateJob> jobs(count);
  parallel_for(count, threads, [&](std::size_t i) { jobs[i] = prepare(i); });
  engine.run_rsa_private(jobs);
  parallel_for(count, threads, finish);
}

void run_rsa_public_jobs(const Engine& engine, std::span<const RsaPublicJob> jobs, std::size_t threads) {
  if (engine.runs_on_host_threads()) {
    parallel_for(jobs.size(), threads, [&](std::size_t i) { engine.run_rsa_public(jobs.subspan(i, 1)); });
    return;
  }
  engine.run_rsa_public(jobs);
}

void run_modexp_jobs(const Engine& engine, const rsa::Modulus& modulus, bytes_view exponent,
                     std::span<const ModexpJob> jobs, std::size_t threads) {
  if (engine.runs_on_host_threads()) {
    parallel_for(jobs.size(), threads, [&](std::size_t i) { engine.run_modexp(modulus, exponent, jobs.subspan(i, 1)); });
    return;
  }
  engine.run_modexp(modulus, exponent, jobs);
}

}  // namespace cryptaccel::engine
