// Internal to src/rvlab: nlohmann JSON with keys in the order written, and the JSON forms of counts, cycle models and
// runs shared by `rv run --json` and the experiment reports. The public headers carry no nlohmann type.
#pragma once
#include <nlohmann/json.hpp>

#include "cryptaccel/rv.hpp"
#include "cryptaccel/rvlab/kernel_run.hpp"

namespace cryptaccel::rvlab {

/// JSON with keys in the order written.
using Json = nlohmann::ordered_json;

/// {"instret", "cycles", "taken_branches", "by_class": {...}[, "by_mnemonic": {...}]} of some counts.
Json counts_json(const cryptaccel::rv::Counts& c, bool with_mnemonics);

/// Every parameter of a cycle model (class costs, taken-branch penalty, vector timing) under the keys of its files.
Json cycle_model_json(const cryptaccel::rv::CycleModel& m);

/// The run as a JSON object (run_json's document).
Json run_object(const KernelRun& run);

}  // namespace cryptaccel::rvlab
