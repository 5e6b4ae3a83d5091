#include "cryptaccel/batch.hpp"

#include "api/job_validation.hpp"
#include "engine/dispatch.hpp"
#include "engine/engine.hpp"

namespace cryptaccel {

BatchReport run_batch(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs, const BatchOptions& options) {
  std::size_t bytes = 0;
  for (const CipherJob& job : jobs) bytes += job.in.size();
  const engine::Engine& chosen =
      engine::select_engine(options.engine, spec, dir, engine::Work::of(engine::WorkKind::cipher, jobs.size(), bytes));
  for (CipherJob& job : jobs) validate_job(spec, dir, options.xts_unit, job);
  engine::run_jobs(chosen, spec, dir, jobs, options);
  BatchReport report{std::string(chosen.name())};
  for (const CipherJob& job : jobs) (job.status == JobStatus::ok ? report.succeeded : report.failed)++;
  return report;
}

}  // namespace cryptaccel
