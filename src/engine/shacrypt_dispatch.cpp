#include "engine/shacrypt_dispatch.hpp"

#include <algorithm>
#include <vector>

#include "algo/shacrypt.hpp"
#include "engine/thread_pool.hpp"

namespace cryptaccel::engine {
namespace {

/// A job's cost in block-function calls, about: its rounds times the blocks of one round's message.
std::size_t cost(const ShaCryptJob& job) {
  const ShaCryptSetting& s = *job.setting;
  const std::size_t block = s.variant == ShaCryptVariant::sha512 ? 128 : 64;
  const std::size_t digest = s.variant == ShaCryptVariant::sha512 ? 64 : 32;
  const std::size_t round_bytes = digest + 2 * job.password.size() + s.salt.size() + 17;
  return static_cast<std::size_t>(s.rounds) * (round_bytes / block + 1);
}

}  // namespace

std::vector<std::size_t> shacrypt_runs(std::span<const ShaCryptJob> jobs, std::size_t threads) {
  std::size_t total = 0;
  for (const ShaCryptJob& job : jobs)
    if (job.status == JobStatus::pending) total += cost(job);
  const std::size_t target = std::max<std::size_t>(1, total / (std::max<std::size_t>(threads, 1) * 4));
  std::vector<std::size_t> cuts{0};
  std::size_t acc = 0, count = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].status == JobStatus::pending) acc += cost(jobs[i]), ++count;
    if (acc >= target && count >= kShaCryptMinRun && i + 1 < jobs.size()) {
      cuts.push_back(i + 1);
      acc = count = 0;
    }
  }
  cuts.push_back(jobs.size());
  return cuts;
}

void run_shacrypt_portable(std::span<ShaCryptJob> jobs, std::optional<ShaCryptVariant> only) {
  for (ShaCryptJob& job : jobs) {
    if (job.status != JobStatus::pending || (only && job.setting->variant != *only)) continue;
    const ShaCryptSetting& s = *job.setting;
    algo::shacrypt_digest(s.variant == ShaCryptVariant::sha512 ? algo::HashVariant::sha512 : algo::HashVariant::sha256,
                          job.password.data(), job.password.size(),
                          reinterpret_cast<const std::uint8_t*>(s.salt.data()), s.salt.size(), s.rounds,
                          job.digest.data());
    job.status = JobStatus::ok;
  }
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

}  // namespace cryptaccel::engine
