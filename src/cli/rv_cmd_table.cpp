// `cryptaccel rv table NAME`: the experiment NAME (rv/experiments/NAME.json) through the library's runner; prints its
// report or its JSON, writes the JSON file and draws the chart.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "cryptaccel/atomic_output.hpp"
#include "rv_chart.hpp"
#include "rv_cmds.hpp"
#include "cryptaccel/bench/machine.hpp"

namespace cryptaccel::cli::rvcmd {
namespace {

namespace lab = cryptaccel::rvlab;

/// A temporary file for the chart's JSON when --json did not name one; removed at scope exit.
struct TempJson {
  std::string path;
  TempJson() {
    path = (std::filesystem::temp_directory_path() / "cryptaccel-rv-table-XXXXXX").string();
    const int fd = ::mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the chart's data");
    ::close(fd);
  }
  ~TempJson() { ::unlink(path.c_str()); }
};

/// What the JSON report says about the host: timestamp, machine, build.
std::string environment() {
  return nlohmann::ordered_json{{"timestamp", bench::utc_timestamp()},
                               {"machine", nlohmann::ordered_json::parse(bench::machine_json())},
                               {"build", nlohmann::ordered_json::parse(bench::build_json())}}
      .dump();
}

}  // namespace

int rv_table(const TableOptions& o) {
  const lab::Experiment experiment = lab::load_experiment(lab::locate_experiment(o.name, ""));
  lab::ExperimentSettings settings;
  settings.cycle_model_file = o.cycle_model_file;
  settings.vlen = o.vlen;
  settings.simt = o.simt;
  lab::check_settings(experiment, settings);
  const lab::Manifest manifest = lab::load_manifest(lab::locate_manifest(o.manifest));
  if (o.vs_spike) settings.spike = lab::locate_spike();
  settings.seed = o.seed ? *o.seed : std::random_device{}();
  if (!o.chart_path.empty() && experiment.chart.empty()) {
    throw std::invalid_argument("--chart: the " + experiment.name + " table has no chart script");
  }
  std::optional<AtomicOutput> json_out;  // both fail now if they cannot be written later
  if (!o.json_path.empty() && o.json_path != "-") json_out.emplace(o.json_path);
  std::optional<AtomicOutput> chart_check;
  if (!o.chart_path.empty()) chart_check.emplace(o.chart_path);

  const lab::ExperimentResult result = lab::run_experiment(experiment, manifest, settings);
  const std::string text = lab::report_json(result, environment());
  if (o.json_path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    lab::write_report_text(stdout, result);
  }
  std::fflush(stdout);
  for (const std::string& p : result.problems) std::fprintf(stderr, "cryptaccel rv: %s\n", p.c_str());

  const bytes_view text_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (json_out) json_out->commit(text_bytes);
  if (!o.chart_path.empty()) {
    if (json_out) {
      draw_chart(o.json_path, o.chart_path, experiment.chart);
    } else {
      TempJson tmp;
      AtomicOutput(tmp.path).commit(text_bytes);
      draw_chart(tmp.path, o.chart_path, experiment.chart);
    }
  }
  return result.ok() ? 0 : 1;
}

}  // namespace cryptaccel::cli::rvcmd
