// Batch hashing and batch Keccak-f[1600]: validation, engine choice, dispatch.
#include "algo/bits.hpp"
#include "algo/keccak.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "engine/dispatch.hpp"
#include "engine/engine.hpp"

namespace cryptaccel {

BatchReport hash_batch(HashAlgorithm algorithm, std::span<HashJob> jobs, const BatchOptions& options) {
  std::size_t bytes = 0;
  for (const HashJob& job : jobs) bytes += job.in.size();
  const engine::Engine& chosen = engine::select_hash_engine(options.engine, algorithm, engine::HashUse::batch,
                                                            engine::Work::of(engine::WorkKind::hash, jobs.size(), bytes));
  const HashInfo& info = hash_info(algorithm);
  for (HashJob& job : jobs) {
    job.error.clear();
    job.status = JobStatus::pending;
    if (info.xof ? job.digest.empty() : job.digest.size() != info.digest_size) {
      job.status = JobStatus::invalid_argument;
      job.error = "a " + std::string(info.name) + " digest buffer must be " +
                  (info.xof ? std::string("at least 1 byte") : std::to_string(info.digest_size) + " bytes") +
                  ", got " + std::to_string(job.digest.size());
    }
  }
  engine::run_hash_jobs(chosen, algorithm, jobs, options);
  BatchReport report{std::string(chosen.name())};
  for (const HashJob& job : jobs) (job.status == JobStatus::ok ? report.succeeded : report.failed)++;
  return report;
}

std::string keccak_f1600_batch(std::span<KeccakState> states, std::string_view engine) {
  const engine::Engine& chosen =
      engine::select_keccak_engine(engine, engine::Work::of(engine::WorkKind::keccak, states.size()));
  engine::run_keccak_permutations(chosen, states, 0);
  return std::string(chosen.name());
}

void keccak_p1600_bytes(mutable_bytes states, unsigned rounds) {
  if (rounds < 1 || rounds > 24) throw InvalidArgument("Keccak-p rounds must be 1..24, got " + std::to_string(rounds));
  if (states.size() % 200 != 0) throw InvalidArgument("Keccak states are 200 bytes each, got " + std::to_string(states.size()));
  for (std::size_t at = 0; at < states.size(); at += 200) {
    std::uint64_t a[25];
    for (std::size_t i = 0; i < 25; ++i) a[i] = algo::load_le64(states.data() + at + 8 * i);
    for (unsigned r = 24 - rounds; r < 24; ++r) algo::keccak_round(a, CA_TABLE(algo::kKeccakRc)[r]);
    for (std::size_t i = 0; i < 25; ++i) algo::store_le64(states.data() + at + 8 * i, a[i]);
    secure_wipe(a, sizeof a);
  }
}

}  // namespace cryptaccel
