// Reading and checking an experiment data file (rv/experiments/*.json; schema: docs/isa-lab.md, "Experiment data
// files"), and finding one.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "cryptaccel/rvlab/data_files.hpp"
#include "cryptaccel/rvlab/experiment.hpp"
#include "json.hpp"
#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace fs = std::filesystem;

/// A schema violation; `load_experiment` prefixes the file.
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const std::set<std::string> kRowKeys = {"id", "label", "kernel", "workload", "variants", "xlens", "xlen_choice",
                                        "vlen", "timing", "runs", "optional", "baseline"};
const std::set<std::string> kWorkloadKeys = {"mode", "decrypt", "bytes", "blocks", "states", "rounds", "outlen"};

std::string string_at(const Json& j, const char* key, const std::string& where, bool required = true) {
  if (!j.contains(key)) {
    if (required) throw Malformed(where + ": no \"" + key + "\"");
    return {};
  }
  if (!j.at(key).is_string()) throw Malformed(where + ": \"" + key + "\" must be a string");
  return j.at(key).get<std::string>();
}

std::uint64_t unsigned_at(const Json& j, const char* key, const std::string& where) {
  if (!j.at(key).is_number_unsigned()) throw Malformed(where + ": \"" + key + "\" must be a non-negative integer");
  return j.at(key).get<std::uint64_t>();
}

SizeSpec size_spec(const Json& j, const char* key, const std::string& where) {
  const Json& v = j.at(key);
  SizeSpec s;
  if (v.is_number_unsigned()) {
    s.value = v.get<std::uint64_t>();
    return s;
  }
  const std::string at = where + ", \"" + key + "\"";
  if (!v.is_object()) throw Malformed(at + ": a non-negative integer or {\"manifest\", \"key\", \"default\"}");
  s.workload = string_at(v, "manifest", at);
  s.key = string_at(v, "key", at);
  if (v.contains("default")) s.fallback = unsigned_at(v, "default", at);
  return s;
}

WorkloadSpec workload_spec(const Json& j, const std::string& where) {
  if (!j.is_object()) throw Malformed(where + ": must be an object");
  for (const auto& [key, v] : j.items())
    if (!kWorkloadKeys.count(key)) throw Malformed(where + ": unknown key \"" + key + "\"");
  WorkloadSpec w;
  if (j.contains("mode")) w.mode = string_at(j, "mode", where);
  if (j.contains("decrypt")) {
    if (!j.at("decrypt").is_boolean()) throw Malformed(where + ": \"decrypt\" must be true or false");
    w.decrypt = j.at("decrypt").get<bool>();
  }
  if (j.contains("bytes")) w.bytes = size_spec(j, "bytes", where);
  if (j.contains("blocks")) w.blocks = size_spec(j, "blocks", where);
  if (j.contains("states")) w.states = size_spec(j, "states", where);
  if (j.contains("rounds")) w.rounds = size_spec(j, "rounds", where);
  if (j.contains("outlen")) w.outlen = size_spec(j, "outlen", where);
  return w;
}

std::vector<std::string> string_list(const Json& j, const char* key, const std::string& where) {
  const Json& v = j.at(key);
  if (!v.is_array() || v.empty()) throw Malformed(where + ": \"" + key + "\" must be a non-empty list of strings");
  std::vector<std::string> out;
  for (const Json& s : v) {
    if (!s.is_string()) throw Malformed(where + ": \"" + key + "\" must be a non-empty list of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

ExperimentRow parse_row(const Json& r, std::size_t index) {
  std::string where = "rows[" + std::to_string(index) + "]";
  if (!r.is_object()) throw Malformed(where + ": must be an object");
  ExperimentRow row;
  row.id = string_at(r, "id", where);
  where += " (\"" + row.id + "\")";
  row.label = string_at(r, "label", where, false);
  if (row.label.empty()) row.label = row.id;
  row.kernel = string_at(r, "kernel", where);
  if (r.contains("workload")) row.workload = workload_spec(r.at("workload"), where + ", \"workload\"");
  row.variants = string_list(r, "variants", where);
  if (!r.contains("xlens")) throw Malformed(where + ": no \"xlens\"");
  const Json& xlens = r.at("xlens");
  if (!xlens.is_array() || xlens.empty()) throw Malformed(where + ": \"xlens\" must be a non-empty list of 32 and 64");
  for (const Json& x : xlens) {
    if (!x.is_number_unsigned() || (x.get<unsigned>() != 32 && x.get<unsigned>() != 64)) {
      throw Malformed(where + ": \"xlens\" must be a non-empty list of 32 and 64");
    }
    row.xlens.push_back(x.get<unsigned>());
  }
  const std::string choice = string_at(r, "xlen_choice", where, false);
  if (!choice.empty() && choice != "each" && choice != "first") {
    throw Malformed(where + ": \"xlen_choice\" must be \"each\" or \"first\"");
  }
  row.first_xlen = choice == "first";
  if (r.contains("vlen")) {
    row.vlen = static_cast<unsigned>(unsigned_at(r, "vlen", where));
    if (row.vlen < 128 || row.vlen > 4096 || row.vlen % 32 != 0) {
      throw Malformed(where + ": \"vlen\" must be a multiple of 32 from 128 to 4096");
    }
  }
  row.timing = string_at(r, "timing", where, false);
  if (r.contains("optional")) {
    if (!r.at("optional").is_boolean()) throw Malformed(where + ": \"optional\" must be true or false");
    row.optional = r.at("optional").get<bool>();
  }
  row.baseline = string_at(r, "baseline", where, false);
  if (r.contains("runs")) {
    const Json& runs = r.at("runs");
    if (!runs.is_array() || runs.empty()) throw Malformed(where + ": \"runs\" must be a non-empty list");
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string at = where + ", runs[" + std::to_string(i) + "]";
      if (!runs[i].is_object()) throw Malformed(at + ": must be an object");
      RunSpec run;
      run.name = string_at(runs[i], "name", at);
      run.label = string_at(runs[i], "label", at, false);
      if (run.label.empty()) run.label = run.name;
      if (runs[i].contains("workload")) run.workload = workload_spec(runs[i].at("workload"), at + ", \"workload\"");
      row.runs.push_back(std::move(run));
    }
  } else {
    row.runs.push_back(RunSpec{});
  }
  Json extra = Json::object();
  for (const auto& [key, v] : r.items())
    if (!kRowKeys.count(key)) extra[key] = v;
  row.extra_json = extra.dump();
  return row;
}

Experiment parse_experiment(const Json& doc, const std::string& path) {
  if (!doc.is_object()) throw Malformed("the document must be an object");
  if (string_at(doc, "format", "the document") != "cryptaccel-rv-experiment/1") {
    throw Malformed("\"format\" must be \"cryptaccel-rv-experiment/1\"");
  }
  Experiment e;
  e.path = path;
  e.name = string_at(doc, "name", "the document");
  e.title = string_at(doc, "title", "the document");
  e.layout = string_at(doc, "layout", "the document", false);
  if (e.layout.empty()) e.layout = "generic";
  if (find_layout(e.layout) == nullptr) {
    throw Malformed("unknown \"layout\" \"" + e.layout + "\" (layouts: " + layout_names() + ")");
  }
  e.chart = string_at(doc, "chart", "the document", false);
  const std::string inputs = string_at(doc, "inputs", "the document", false);
  if (!inputs.empty() && inputs != "shared" && inputs != "by-states") {
    throw Malformed("\"inputs\" must be \"shared\" or \"by-states\"");
  }
  if (!inputs.empty()) e.inputs = inputs;
  const std::string missing = string_at(doc, "missing_kernel", "the document", false);
  if (!missing.empty() && missing != "error" && missing != "row") {
    throw Malformed("\"missing_kernel\" must be \"error\" or \"row\"");
  }
  e.missing_is_error = missing != "row";
  if (doc.contains("options")) {
    for (const std::string& o : string_list(doc, "options", "the document")) {
      if (o != "vlen" && o != "simt") throw Malformed("unknown option \"" + o + "\" in \"options\" (vlen, simt)");
      e.options.push_back(o);
    }
  }
  if (!doc.contains("rows") || !doc.at("rows").is_array() || doc.at("rows").empty()) {
    throw Malformed("\"rows\" must be a non-empty list");
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < doc.at("rows").size(); ++i) {
    ExperimentRow row = parse_row(doc.at("rows")[i], i);
    if (!ids.insert(row.id).second) throw Malformed("rows[" + std::to_string(i) + "]: id \"" + row.id + "\" twice");
    e.rows.push_back(std::move(row));
  }
  const Json paper = doc.value("paper", Json::object());
  if (!paper.is_object()) throw Malformed("\"paper\" must be an object");
  e.paper_json = paper.dump();
  check_layout_data(e);  // the layout's own keys (rows' extra keys, the paper's figures)
  return e;
}

}  // namespace

Experiment load_experiment(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the experiment file " + path);
  try {
    return parse_experiment(Json::parse(in), path);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    if (const std::size_t at = what.find("] "); what.rfind("[json.exception.", 0) == 0 && at != std::string::npos) {
      what = what.substr(at + 2);  // nlohmann's "[json.exception.parse_error.101] parse error at line 3, ..."
    }
    throw std::runtime_error("malformed experiment file " + path + ": " + what);
  } catch (const LayoutDataError& e) {
    throw std::runtime_error("malformed experiment file " + path + ": " + e.what());
  } catch (const Malformed& e) {
    throw std::runtime_error("malformed experiment file " + path + ": " + e.what());
  }
}

std::vector<std::string> experiment_names() {
  std::set<std::string> names;
  if (const char* env = std::getenv("CRYPTACCEL_RV_EXPERIMENTS"); env != nullptr && *env != '\0') {
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(env, ec))
      if (f.path().extension() == ".json") names.insert(f.path().stem().string());
  }
  for (const std::string& dir : data_directories()) {
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(fs::path(dir) / "experiments", ec))
      if (f.path().extension() == ".json") names.insert(f.path().stem().string());
  }
  return {names.begin(), names.end()};
}

std::string locate_experiment(const std::string& name, const std::string& option) {
  if (!option.empty()) {
    if (!fs::is_regular_file(option)) throw std::runtime_error("--experiment: no such file: " + option);
    return option;
  }
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_' || c == '.';
  }) && name.find("..") == std::string::npos;
  if (plain) {
    if (const char* env = std::getenv("CRYPTACCEL_RV_EXPERIMENTS"); env != nullptr && *env != '\0') {
      const fs::path p = fs::path(env) / (name + ".json");
      if (fs::is_regular_file(p)) return p.string();
    }
    if (std::string found = find_data_file("experiments", name + ".json"); !found.empty()) return found;
  }
  std::string known;
  for (const std::string& n : experiment_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown table '" + name + "' (tables: " + (known.empty() ? "none found" : known) + ")");
}

std::string locate_timing_preset(const std::string& name) {
  std::string env_name = "CRYPTACCEL_RV_" + name + "_TIMING";
  for (char& c : env_name) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (const char* env = std::getenv(env_name.c_str()); env != nullptr && *env != '\0') return env;
  if (std::string found = find_data_file("timing", name + ".json"); !found.empty()) return found;
  return "rv/timing/" + name + ".json";
}

}  // namespace cryptaccel::rvlab
