#include "engine/dispatch.hpp"

#include <algorithm>
#include <vector>

#include "engine/job_split.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::engine {
namespace {

/// A contiguous run of jobs handed to the engine in one call, with the spec it runs under.
struct Chunk {
  const CipherSpec* spec;
  std::span<CipherJob> jobs;
};

/// Cuts `jobs` into runs of about `target` input bytes (at least one job each), so that many small jobs cost one
/// engine call per run rather than one per job.
void add_chunks(const CipherSpec& spec, std::span<CipherJob> jobs, std::size_t target, std::vector<Chunk>& out) {
  std::size_t begin = 0, bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    bytes += jobs[i].in.size() + 64;  // + a per-job cost, so that empty jobs still get divided
    if (bytes >= target || i + 1 == jobs.size()) {
      out.push_back({&spec, jobs.subspan(begin, i + 1 - begin)});
      begin = i + 1;
      bytes = 0;
    }
  }
}

}  // namespace

void run_jobs(const Engine& engine, const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
              const BatchOptions& options) {
  const std::size_t threads = options.threads ? options.threads : hardware_threads();
  if (!engine.runs_on_host_threads() || threads == 1 || jobs.empty()) {
    engine.run_cipher_jobs(spec, dir, jobs, options);
    return;
  }
  SplitPlan plan(spec, dir, jobs, options.xts_unit, threads);
  CipherSpec unpadded = spec;
  unpadded.padding = false;

  std::size_t total = 0;
  for (const CipherJob& job : jobs) total += job.in.size() + 64;
  const std::size_t target = std::max<std::size_t>(kMinPieceBytes, total / (threads * 4));
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

}  // namespace cryptaccel::engine
