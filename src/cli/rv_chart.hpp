// `cryptaccel rv table --chart FILE.png`: the chart is drawn by a Python script with matplotlib (the experiment's
// "chart", scripts/rv_seed00N_chart.py), not by C++.
#pragma once
#include <string>

namespace cryptaccel::cli::rvcmd {

/// Runs the chart script `script_name` (the experiment's "chart", e.g. "rv_seed000_chart.py") on the table's JSON
/// file, writing `png_path`. Interpreter: $CRYPTACCEL_PYTHON, else the Python CMake configured with, else python3;
/// script: $CRYPTACCEL_RV_CHART_SCRIPT, else charts/<script_name> in the ISA lab's data directories (installed tree,
/// build tree: rvlab/data_files.hpp). Throws std::runtime_error with a one-line reason (matplotlib missing, script
/// missing or failed).
void draw_chart(const std::string& json_path, const std::string& png_path, const std::string& script_name);

}  // namespace cryptaccel::cli::rvcmd
