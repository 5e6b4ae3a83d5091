// Experiments: a seed paper's table as a data file (rv/experiments/<name>.json, schema in docs/isa-lab.md,
// "Experiment data files") run by one runner. A row names a kernel, its variants and XLENs, a workload, a machine
// (VLEN, timing preset) and the runs to make; the file also holds the paper's published figures and the report
// layout that prints ours beside them. Adding a paper is adding a data file.
//
//   const rvlab::Experiment e = rvlab::load_experiment(rvlab::locate_experiment("seed001", ""));
//   const rvlab::Manifest m = rvlab::load_manifest(rvlab::locate_manifest(""));
//   rvlab::ExperimentSettings s;  s.seed = 1;
//   const rvlab::ExperimentResult r = rvlab::run_experiment(e, m, s);
//   rvlab::write_report_text(stdout, r);             // the table, ours beside the paper's
//   std::string doc = rvlab::report_json(r, "{}");   // the same as JSON
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/rv.hpp"
#include "cryptaccel/rvlab/kernel_run.hpp"
#include "cryptaccel/rvlab/manifest.hpp"
#include "cryptaccel/rvlab/simt.hpp"
#include "cryptaccel/rvlab/workload.hpp"

namespace cryptaccel::rvlab {

/// A workload size of a row: a number, or a size of one of the kernel's named workloads in the manifest
/// ({"manifest": "seed000", "key": "length", "default": 2048}).
struct SizeSpec {
  std::optional<std::uint64_t> value;  ///< a fixed size
  std::string workload;                ///< else: the manifest workload's name
  std::string key;                     ///< and its size key ("blocks", "length", ...)
  std::uint64_t fallback = 0;          ///< when the manifest has no such size
};

/// The workload of a row or of one of its runs, as written (sizes not resolved yet).
struct WorkloadSpec {
  std::optional<std::string> mode;     ///< aes-cipher: ecb, cbc, ctr
  std::optional<bool> decrypt;         ///< aes-cipher
  std::optional<SizeSpec> bytes, blocks, states, rounds, outlen;  ///< as WorkloadRequest's
};

/// One run of every cell of a row (e.g. 24 and 12 Keccak rounds): its name and its workload overrides.
struct RunSpec {
  std::string name;       ///< key of the run in the JSON ("24"); "" for the only run of a row
  std::string label;      ///< prefix of its problems ("24 rounds"); "" for the only run of a row
  WorkloadSpec workload;  ///< keys that override the row's workload
};

/// One row of an experiment: a kernel, its variants and XLENs on one machine, with one workload.
struct ExperimentRow {
  std::string id;        ///< unique in the file: "sha256", "aes128-enc-block", "custom64-lmul8-sn3", ...
  std::string label;     ///< as written: may hold {algorithm}, {bytes}, {blocks}, {states} (filled in when run)
  std::string kernel;    ///< manifest kernel
  WorkloadSpec workload;              ///< the input
  std::vector<std::string> variants;  ///< cells: one per variant (in this order) ...
  std::vector<unsigned> xlens;        ///< ... and XLEN (each, in this order), or the first built one (first_xlen)
  bool first_xlen = false;            ///< "xlen_choice": "first": one cell per variant, on the first XLEN built
  unsigned vlen = 0;                  ///< VLEN of the vector kernels (0: the --vlen setting, else the variant's)
  std::string timing;                 ///< timing preset (rv/timing/<name>.json) over the default model; "": none
  std::vector<RunSpec> runs;          ///< at least one
  bool optional = false;              ///< a kernel the manifest lacks leaves the row out silently
  std::string baseline;               ///< the variant speed-ups are relative to ("" none)
  std::string extra_json;             ///< every other key of the row, as a JSON object (read by the report layout)
};

/// An experiment data file, checked (load_experiment).
struct Experiment {
  std::string path;    ///< the file
  std::string name;    ///< "seed000", ...: the name `rv table` takes
  std::string title;   ///< one line, the JSON report's "title"
  std::string layout;  ///< report layout: "seed000", "seed001", "seed004" (the papers' own tables) or "generic"
  std::string chart;   ///< the chart script (scripts/<chart>) for --chart, "" none
  std::string inputs = "shared";  ///< "shared": one random input per row (and run), drawn in row order from one
                                  ///< generator, fed to every cell; "by-states": inputs depend on (seed, states) only
  bool missing_is_error = true;   ///< a kernel the manifest lacks: an error ("missing_kernel": "error"), else the
                                  ///< row's cells are "missing" ("row"); absent variants/XLENs are skipped, resp.
                                  ///< missing, the same way
  std::vector<std::string> options;  ///< table options that apply besides the common ones: "vlen", "simt"
  std::vector<ExperimentRow> rows;   ///< in printing order
  std::string paper_json;            ///< the paper's published figures ("paper"), as a JSON object
};

/// Reads and checks an experiment data file. Throws std::runtime_error with one line, "malformed experiment file
/// PATH: WHAT" (WHAT names the key and the row), on anything that does not follow the schema.
Experiment load_experiment(const std::string& path);

/// The data file of experiment `name`: `option` (a file, --experiment) if given, else
/// $CRYPTACCEL_RV_EXPERIMENTS/<name>.json, else experiments/<name>.json in the data directories. Throws
/// std::invalid_argument "unknown table 'NAME' (tables: ...)" when there is none.
std::string locate_experiment(const std::string& name, const std::string& option);

/// The experiments found (names of experiments/*.json in the data directories, sorted).
std::vector<std::string> experiment_names();

/// The timing preset `name`: $CRYPTACCEL_RV_<NAME>_TIMING (upper case, '-' as '_'), else timing/<name>.json in the
/// data directories; when none exists, the path looked for (for the message).
std::string locate_timing_preset(const std::string& name);

/// How to run an experiment.
struct ExperimentSettings {
  std::string cycle_model_file;   ///< overrides for every row's model (after its preset); "" none
  std::string spike;              ///< non-empty: also run on this Spike (kernels without x* custom extensions)
  std::optional<unsigned> vlen;   ///< VLEN for the rows that give none (the "vlen" option)
  SimtConfig simt;                ///< the SIMT estimate's machine (the "simt" option)
  std::uint64_t seed = 0;         ///< of the random inputs
};

/// One row x variant x XLEN with its runs.
struct ExperimentCell {
  std::size_t row = 0;        ///< index in ExperimentResult::rows
  std::string variant;        ///< manifest variant
  unsigned xlen = 0;          ///< the XLEN it ran on (0 when missing)
  /// "ok"; "missing" (not in the manifest, or not built); "failed" (a run or a check failed); "not run" (no preset)
  std::string status;
  std::vector<std::optional<KernelRun>> runs;  ///< one per RunSpec of the row (empty when not run)
  std::vector<std::string> problems;           ///< this cell's problems (run problems prefixed by the run's label)

  /// True when every run ran and passed its checks.
  bool ok() const { return status == "ok"; }
};

/// A timing preset as used.
struct TimingPreset {
  std::string name;                                  ///< "seed004"
  std::string path;                                  ///< the file (found or looked for)
  std::string json;                                  ///< its contents ("" when missing or unusable)
  std::optional<cryptaccel::rv::CycleModel> model;   ///< defaults + preset + overrides; none: missing or unusable
  std::string problem;                               ///< why there is no model
};

/// An experiment's outcome.
struct ExperimentResult {
  Experiment experiment;                  ///< what ran
  std::vector<ExperimentRow> rows;        ///< the rows run, labels filled in (optional rows left out)
  std::vector<std::vector<WorkloadRequest>> requests;  ///< per row, per run: the resolved workload
  std::string manifest_path;              ///< the kernels' manifest
  std::string compiler;                   ///< clang that built the kernels
  ExperimentSettings settings;            ///< as given
  cryptaccel::rv::CycleModel default_model = cryptaccel::rv::CycleModel::defaults();  ///< + overrides: rows without a preset
  std::vector<TimingPreset> presets;         ///< the presets rows named
  std::vector<ExperimentCell> cells;      ///< row-major, then variant, then XLEN
  std::vector<std::string> problems;      ///< one line per problem, prefixed by its row and cell
  double seconds = 0;                     ///< wall time of all runs

  /// No problem.
  bool ok() const { return problems.empty(); }
  /// The cell of row `id` x variant (x xlen, 0: any), or nullptr.
  const ExperimentCell* cell(const std::string& id, const std::string& variant, unsigned xlen = 0) const;
  /// The row with this id, or nullptr.
  const ExperimentRow* row(const std::string& id) const;
  /// The preset named `name`, or nullptr.
  const TimingPreset* preset(const std::string& name) const;
};

/// Checks that `settings` apply to `experiment` (--vlen only where it takes "vlen"; a SIMT shape where it takes
/// "simt"); throws std::invalid_argument with one line otherwise.
void check_settings(const Experiment& experiment, const ExperimentSettings& settings);

/// Runs every row x variant x XLEN x run, each output checked against the ref engine (and Spike when set). Problems
/// of a cell (missing kernels in "row" mode, failed checks) are collected, not thrown; throws for a kernel the
/// manifest lacks in "error" mode, and for settings that do not apply (--vlen, SIMT shape) or a bad overrides file.
ExperimentResult run_experiment(const Experiment& experiment, const Manifest& manifest,
                                const ExperimentSettings& settings);

/// Prints the report of the experiment's layout: ours beside the paper's figures.
void write_report_text(std::FILE* out, const ExperimentResult& result);

/// The report as a JSON document (indented by 2, with a final newline). `environment` is a JSON object whose
/// members (e.g. timestamp, machine, build: what the front end knows of the host) follow "title".
std::string report_json(const ExperimentResult& result, const std::string& environment);

}  // namespace cryptaccel::rvlab
