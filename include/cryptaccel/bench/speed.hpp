// The speed harness (cryptaccel::bench): a whole speed run, as `cryptaccel speed` and cryptaccel.bench make it. A
// request (what the user asked for, unchecked) becomes a plan (checked settings, the workloads, the implementations
// to time); running the plan checks each implementation against the ref engine, then times every cell side by side
// (time_cells) and gives the rows of the report (bench/report.hpp).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cryptaccel/bench/report.hpp"
#include "cryptaccel/bench/timer.hpp"
#include "cryptaccel/bench/workload.hpp"

namespace cryptaccel::bench {

/// What to measure, as given on a command line (`cryptaccel speed`'s options) or by Python: text, checked by
/// plan_speed. Empty fields take the defaults.
struct SpeedRequest {
  std::vector<std::string> algorithms;  ///< workload names (any case); empty: default_workload_names()
  std::vector<std::string> engines;     ///< engine names or "auto"; empty: every available engine
  std::vector<std::string> sizes;       ///< message sizes: "16", "1k" (1024), "64K", "1M"; empty: 16 ... 16384
  double seconds = 1.0;                 ///< time per cell, more than 0 and at most 3600
  std::string threads;                  ///< host threads per call, a non-negative integer; empty: 0 (all cores)
  std::string batch;                    ///< also time batches of this many messages per call; empty: no batch rows
  std::string vs;                       ///< "openssl" to time OpenSSL's libcrypto too; empty: not
};

/// A checked request: the settings the report echoes, the workloads and the implementations to time.
struct SpeedPlan {
  SpeedSettings settings;
  std::vector<std::unique_ptr<Workload>> workloads;
  std::vector<std::string> impls;  ///< settings.engines, then "openssl" with vs_openssl
};

/// Checks `request` and turns it into a plan. Throws InvalidArgument for a bad value (messages name the option of
/// `cryptaccel speed`: "--bytes: not a size: '12q' ...") and EngineUnavailable for an engine that is unknown or
/// cannot run here.
SpeedPlan plan_speed(const SpeedRequest& request);

/// What a run reports as it goes (progress and failures); every method does nothing by default. Called on the
/// thread that runs the plan.
class SpeedObserver {
 public:
  virtual ~SpeedObserver() = default;
  /// An implementation's check against the ref engine starts; `row` is its first row.
  virtual void checking(const RowResult& row) { (void)row; }
  /// Cell `cell` of `row` (one message size) is about to be timed on `impls` side by side for `seconds` each.
  virtual void timing(const RowResult& row, std::size_t cell, const std::vector<std::string>& impls, double seconds) {
    (void)row, (void)cell, (void)impls, (void)seconds;
  }
  /// Those cells were timed: one measurement per implementation, or its error (non-empty: not timed).
  virtual void timed(const std::vector<Measurement>& measured, const std::vector<std::string>& errors) {
    (void)measured, (void)errors;
  }
  /// An implementation failed its check or a cell (after its workload): `message` is "LABEL: ERROR".
  virtual void failed(const std::string& message) { (void)message; }
};

/// The outcome of a run: the report's rows, and the failures.
struct SpeedRun {
  std::vector<RowResult> rows;      ///< every row, failed ones with their error (left out of the table)
  std::vector<std::string> errors;  ///< one "LABEL: ERROR" per failed implementation, as observer.failed saw them
  /// True when every implementation passed its check and every cell ran (the exit status 0 of `cryptaccel speed`).
  bool ok() const { return errors.empty(); }
};

/// Runs `plan`: for each workload, checks each implementation against the ref engine, then times its cells side by
/// side with the others (time_cells). Random inputs come from a fresh std::random_device seed.
SpeedRun run_speed(const SpeedPlan& plan, SpeedObserver* observer = nullptr);

}  // namespace cryptaccel::bench
