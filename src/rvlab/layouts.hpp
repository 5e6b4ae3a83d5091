// Internal to src/rvlab: the report layouts of the experiments (experiment.hpp). A layout prints a result (text) and
// writes it as JSON, each beside the paper's figures of its data file; it also names a cell in problem lines and
// checks the data file's keys it reads (the rows' extra keys, "paper"). The papers' own tables are the layouts
// "seed000", "seed001" and "seed004" (layout_seed00N.cpp); "generic" (layout_generic.cpp) serves any new paper.
#pragma once
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include "cryptaccel/rvlab/experiment.hpp"
#include "json.hpp"

namespace cryptaccel::rvlab {

/// One report layout.
struct Layout {
  const char* name;  ///< the data file's "layout"
  /// Checks the layout's own keys of the data file; throws LayoutDataError naming the key.
  void (*check)(const Experiment& experiment);
  /// How a problem line names its cell: "sha256 native rv32 (SHA-256, 2048 B)".
  std::string (*cell_name)(const ExperimentResult& result, const ExperimentCell& cell);
  /// The text report.
  void (*text)(std::FILE* out, const ExperimentResult& result);
  /// The JSON report; `environment`'s members follow "title".
  Json (*json)(const ExperimentResult& result, const Json& environment);
};

/// A data file whose layout keys are wrong (load_experiment reports it as malformed).
struct LayoutDataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The layout named `name`, or nullptr.
const Layout* find_layout(const std::string& name);
/// "generic, seed000, seed001, seed004".
std::string layout_names();
/// Runs the experiment's layout's check (throws LayoutDataError).
void check_layout_data(const Experiment& experiment);

/// The row's extra keys (ExperimentRow::extra_json) as JSON.
Json row_extra(const ExperimentRow& row);
/// The paper's figures (Experiment::paper_json) as JSON.
Json paper(const Experiment& experiment);
/// Whether the rows without a preset ran on the default cycle model (no overrides file).
bool default_model_untouched(const ExperimentResult& result);
/// The head every report's JSON starts with: table, title, the front end's `environment` (timestamp, machine, build),
/// manifest and kernel compiler; a layout appends its own keys after it.
Json report_head(const ExperimentResult& result, const Json& environment);
/// The first run of a cell, or nullptr (no cell, or the cell did not run).
const KernelRun* first_run(const ExperimentCell* cell);
/// `value` with `decimals` decimals ("%.*f"), "-" when there is none.
std::string fixed(const std::optional<double>& value, int decimals);

extern const Layout kLayoutGeneric, kLayoutSeed000, kLayoutSeed001, kLayoutSeed004;

}  // namespace cryptaccel::rvlab
