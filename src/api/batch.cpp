#include "cryptaccel/batch.hpp"

#include "api/job_validation.hpp"
#include "engine/dispatch.hpp"
#include "engine/engine.hpp"

namespace cryptaccel {

BatchReport run_batch(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs, const BatchOptions& options) {
  const engine::Engine& chosen = engine::select_engine(options.engine, spec, dir);
  for (CipherJob& job : jobs) validate_job(spec, dir, options.xts_unit, job);
  engine::run_jobs(chosen, spec, dir, jobs, options);
  BatchReport report{std::string(chosen.name())};
  for (const CipherJob& job : jobs) (job.status == JobStatus::ok ? report.succeeded : report.failed)++;
  return report;
}

}  // namespace cryptaccel
