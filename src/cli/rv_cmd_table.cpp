// `cryptaccel rv table seed000|seed001|seed004`: runs the table (rv_table.cpp, rv_seed001_table.cpp,
// rv_seed004_table.cpp), prints it or its JSON, draws the chart.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "atomic_output.hpp"
#include "rv_chart.hpp"
#include "rv_cmds.hpp"
#include "rv_manifest.hpp"
#include "rv_seed001_table.hpp"
#include "rv_seed004_table.hpp"
#include "rv_spike.hpp"
#include "rv_table.hpp"

namespace cryptaccel::cli::rvlab {
namespace {

void check_simt(const SimtConfig& s) {
  if (s.cores == 0 || s.warps == 0 || s.threads == 0) {
    throw std::invalid_argument("--cores, --warps and --threads must be at least 1");
  }
  if (s.cores > 4096 || s.warps > 1024 || s.threads > 1024) {
    throw std::invalid_argument("--cores at most 4096, --warps and --threads at most 1024");
  }
  if (!std::isfinite(s.clock_mhz) || s.clock_mhz <= 0 || s.clock_mhz > 1e6) {
    throw std::invalid_argument("--clock-mhz must be more than 0 (MHz)");
  }
}

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

/// Writes the JSON (unless stdout) and the chart from `text`, the table's JSON document.
void write_outputs(const TableOptions& o, std::optional<AtomicOutput>& json_out, const std::string& text,
                   const std::string& chart_script) {
  const bytes_view text_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (json_out) json_out->commit(text_bytes);
  if (o.chart_path.empty()) return;
  if (!o.json_path.empty() && o.json_path != "-") {
    draw_chart(o.json_path, o.chart_path, chart_script);
  } else {
    TempJson tmp;
    AtomicOutput(tmp.path).commit(text_bytes);
    draw_chart(tmp.path, o.chart_path, chart_script);
  }
}

int table_seed001(const TableOptions& o) {
  const Manifest m = load_manifest(locate_manifest(o.manifest));
  RunOptions options;
  options.check = true;
  if (o.vlen) {
    const unsigned v = *o.vlen;
    if (v < 128 || v > 4096 || (v & (v - 1)) != 0) {
      throw std::invalid_argument("--vlen must be a power of two from 128 to 4096, got " + std::to_string(v));
    }
    options.vlen = v;
  }
  if (!o.cycle_model_file.empty()) options.cycle_model.load_file(o.cycle_model_file);
  if (o.vs_spike) options.spike = locate_spike();
  std::optional<AtomicOutput> json_out;
  if (!o.json_path.empty() && o.json_path != "-") json_out.emplace(o.json_path);
  std::optional<AtomicOutput> chart_check;
  if (!o.chart_path.empty()) chart_check.emplace(o.chart_path);

  const Seed001Table table =
      run_seed001(m, options, o.cycle_model_file.empty(), o.seed ? *o.seed : std::random_device{}());
  const std::string text = seed001_json(table).dump(2) + "\n";
  if (o.json_path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    print_seed001(stdout, table);
  }
  std::fflush(stdout);
  for (const std::string& p : table.problems) std::fprintf(stderr, "cryptaccel rv: %s\n", p.c_str());
  write_outputs(o, json_out, text, "rv_seed001_chart.py");
  return table.ok() ? 0 : 1;
}

int table_seed004(const TableOptions& o) {
  if (o.vlen) throw std::invalid_argument("--vlen applies to the seed001 table; seed004 runs each row at its own VLEN");
  const Manifest m = load_manifest(locate_manifest(o.manifest));
  Seed004Settings settings;
  settings.overrides_path = o.cycle_model_file;  // a bad file is an error before the first run (run_seed004)
  settings.preset_path = seed004_preset_path();
  if (o.vs_spike) settings.spike = locate_spike();
  settings.seed = o.seed ? *o.seed : std::random_device{}();
  std::optional<AtomicOutput> json_out;
  if (!o.json_path.empty() && o.json_path != "-") json_out.emplace(o.json_path);
  std::optional<AtomicOutput> chart_check;
  if (!o.chart_path.empty()) chart_check.emplace(o.chart_path);

  const Seed004Table table = run_seed004(m, settings);
  const std::string text = seed004_json(table).dump(2) + "\n";
  if (o.json_path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    print_seed004(stdout, table);
  }
  std::fflush(stdout);
  for (const std::string& p : table.problems) std::fprintf(stderr, "cryptaccel rv: %s\n", p.c_str());
  write_outputs(o, json_out, text, "rv_seed004_chart.py");
  return table.ok() ? 0 : 1;
}

}  // namespace

int rv_table(const TableOptions& o) {
  if (o.name == "seed001") return table_seed001(o);
  if (o.name == "seed004") return table_seed004(o);
  if (o.name != "seed000") {
    throw std::invalid_argument("unknown table '" + o.name + "' (tables: seed000, seed001, seed004)");
  }
  if (o.vlen) throw std::invalid_argument("--vlen applies to the seed001 table (vector kernels)");
  check_simt(o.simt);
  const Manifest m = load_manifest(locate_manifest(o.manifest));
  RunOptions options;
  options.check = true;
  if (!o.cycle_model_file.empty()) options.cycle_model.load_file(o.cycle_model_file);
  if (o.vs_spike) options.spike = locate_spike();
  std::optional<AtomicOutput> json_out;
  if (!o.json_path.empty()) json_out.emplace(o.json_path);  // fails now if it cannot be written later
  std::optional<AtomicOutput> chart_check;
  if (!o.chart_path.empty()) chart_check.emplace(o.chart_path);  // the same early check for the PNG's directory

  const SeedTable table =
      run_seed000(m, options, o.cycle_model_file.empty(), o.simt, o.seed ? *o.seed : std::random_device{}());
  const Json doc = seed000_json(table);
  const std::string text = doc.dump(2) + "\n";
  const bytes_view text_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());

  if (o.json_path != "-") print_seed000(stdout, table);
  std::fflush(stdout);
  if (json_out) json_out->commit(text_bytes);
  for (const std::string& p : table.problems) std::fprintf(stderr, "cryptaccel rv: %s\n", p.c_str());

  if (!o.chart_path.empty()) {
    if (!o.json_path.empty() && o.json_path != "-") {
      draw_chart(o.json_path, o.chart_path);
    } else {
      TempJson tmp;
      AtomicOutput(tmp.path).commit(text_bytes);
      draw_chart(tmp.path, o.chart_path);
    }
  }
  return table.ok() ? 0 : 1;
}

}  // namespace cryptaccel::cli::rvlab
