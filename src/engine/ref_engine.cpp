// The `ref` engine: portable C++, constant-time bitsliced AES/SM4; dispatch spreads its jobs over host threads. The oracle for other engines.
#include "engine/engine.hpp"
#include "ref/cipher_modes.hpp"

namespace cryptaccel::engine {
namespace {

class RefEngine final : public Engine {
 public:
  std::string_view name() const override { return "ref"; }
  std::string_view description() const override {
    return "portable C++20, spec-faithful, constant-time (bitsliced AES and SM4); the oracle for other engines";
  }
  std::string unavailable_reason() const override { return {}; }
  bool supports(const CipherSpec&, Direction) const override { return true; }
  bool runs_on_host_threads() const override { return true; }
  void run_cipher_jobs(const CipherSpec& spec, Direction dir, std::span<CipherJob> jobs,
                       const BatchOptions& options) const override {
    for (CipherJob& job : jobs)
      if (job.status == JobStatus::pending) ref::run_cipher_job(spec, dir, job, options.xts_unit);
  }
};

}  // namespace

const Engine& ref_engine() {
  static const RefEngine engine;
  return engine;
}

}  // namespace cryptaccel::engine
