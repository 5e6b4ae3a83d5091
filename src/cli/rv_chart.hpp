// `cryptaccel rv table --chart FILE.png`: the chart is drawn by a Python script with matplotlib
// (scripts/rv_seed000_chart.py), not by C++.
#pragma once
#include <string>

namespace cryptaccel::cli::rvlab {

/// Runs the chart script on the table's JSON file, writing `png_path`. Interpreter: $CRYPTACCEL_PYTHON, else the
/// Python CMake configured with, else python3; script: $CRYPTACCEL_RV_CHART_SCRIPT, else the source tree's
/// scripts/rv_seed000_chart.py. Throws std::runtime_error with a one-line reason (matplotlib missing, script
/// missing or failed).
void draw_chart(const std::string& json_path, const std::string& png_path);

/// The same with another script of scripts/ (e.g. "rv_seed001_chart.py"); $CRYPTACCEL_RV_CHART_SCRIPT still wins.
void draw_chart(const std::string& json_path, const std::string& png_path, const std::string& script_name);

}  // namespace cryptaccel::cli::rvlab
