// Layout "seed000" (rv/experiments/seed000.json): Table 1, the speed-ups of Figures 2-4, the SIMT estimate and a
// Table 3 analogue, each beside the paper's published numbers. Row keys it reads: "figure", "paper_configurations"
// (our variant -> the paper's configuration), "paper_operations" (operations behind Table 1's totals), "table3"
// ({"fast", "slow", "xlen"}: the cells of the Table 3 analogue). Paper keys: "configuration.cores", "table1",
// "table3".
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace rv = cryptaccel::rv;

/// Derived figures of one cell.
struct Derived {
  std::optional<double> speedup_cycles, speedup_instructions;  ///< over the row's baseline, same XLEN
  SimtEstimate simt;
};

Derived derive(const ExperimentResult& t, const ExperimentCell& c) {
  Derived d;
  const KernelRun* run = first_run(&c);
  if (run == nullptr) return d;
  const rv::Counts& r = run->result.region;
  d.simt = simt_estimate(t.settings.simt, r.instret, r.cycles, run->input.payload_bytes);
  const ExperimentRow& row = t.rows[c.row];
  const KernelRun* base = first_run(t.cell(row.id, row.baseline, c.xlen));
  if (base != nullptr && base->ok() && c.ok() && r.cycles > 0 && r.instret > 0) {
    d.speedup_cycles = static_cast<double>(base->result.region.cycles) / static_cast<double>(r.cycles);
    d.speedup_instructions = static_cast<double>(base->result.region.instret) / static_cast<double>(r.instret);
  }
  return d;
}

/// The paper's Table 1 row for our row x variant, if it has one.
std::optional<Json> table1(const Json& paper, const ExperimentRow& row, const std::string& variant) {
  const Json configs = row_extra(row).value("paper_configurations", Json::object());
  if (!configs.contains(variant)) return std::nullopt;
  for (const Json& r : paper.at("table1"))
    if (r.at("workload") == row.id && r.at("configuration") == configs.at(variant)) return r;
  return std::nullopt;
}

std::optional<double> paper_speedup(const Json& paper, const ExperimentRow& row, const std::string& variant) {
  const auto base = table1(paper, row, row.baseline);
  const auto r = table1(paper, row, variant);
  if (!base || !r) return std::nullopt;
  return base->at("kcycles").get<double>() / r->at("kcycles").get<double>();
}

std::optional<double> paper_per_operation(const Json& paper, const ExperimentRow& row, const std::string& variant) {
  const auto r = table1(paper, row, variant);
  if (!r) return std::nullopt;
  return r->at("kinstructions").get<double>() * 1000 / row_extra(row).at("paper_operations").get<unsigned>();
}

/// The Table 3 analogue's cells (fast: N accelerated cores, slow: all cores in software), when both ran cleanly.
std::pair<const ExperimentCell*, const ExperimentCell*> table3_cells(const ExperimentResult& t) {
  for (const ExperimentRow& row : t.rows) {
    const Json x = row_extra(row);
    if (!x.contains("table3")) continue;
    const unsigned xlen = x["table3"].at("xlen").get<unsigned>();
    const ExperimentCell* fast = t.cell(row.id, x["table3"].at("fast").get<std::string>(), xlen);
    const ExperimentCell* slow = t.cell(row.id, x["table3"].at("slow").get<std::string>(), xlen);
    if (fast != nullptr && slow != nullptr && fast->ok() && slow->ok()) return {fast, slow};
  }
  return {nullptr, nullptr};
}

/// Variants present for a row, in cell order.
std::vector<std::string> variants(const ExperimentResult& t, const std::string& id) {
  std::vector<std::string> out;
  for (const ExperimentCell& c : t.cells)
    if (t.rows[c.row].id == id && std::find(out.begin(), out.end(), c.variant) == out.end()) out.push_back(c.variant);
  return out;
}

std::string count(const ExperimentCell* c, bool cycles) {
  if (c == nullptr) return "-";
  if (!c->ok()) return "FAILED";
  const rv::Counts& r = first_run(c)->result.region;
  return std::to_string(cycles ? r.cycles : r.instret);
}

std::string ratio(const ExperimentResult& t, const ExperimentCell* c) {
  if (c == nullptr) return "-";
  const Derived d = derive(t, *c);
  return d.speedup_cycles ? fixed(*d.speedup_cycles, 2) : "-";
}

std::string cycle_model_text(const ExperimentResult& t) {
  if (default_model_untouched(t)) return "defaults (docs/isa-lab.md)";
  std::string s;
  for (std::size_t i = 0; i < rv::kClassCount; ++i) {
    s += (s.empty() ? "" : ", ") + std::string(rv::class_name(static_cast<rv::InsnClass>(i))) + " " +
         std::to_string(t.default_model.latency[i]);
  }
  return s + ", taken-branch-penalty " + std::to_string(t.default_model.taken_branch_penalty);
}

void print_table1(std::FILE* out, const ExperimentResult& t, const Json& paper) {
  std::fprintf(out,
               "Table 1: instructions and modelled cycles of one operation (one thread's work in the paper), "
               "measured region\n");
  std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", "", "", "RV32", "", "RV64", "", "paper (Vortex)");
  std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", "Algorithm", "Configuration", "instructions", "cycles",
               "instructions", "cycles", "instructions/op");
  for (const ExperimentRow& w : t.rows) {
    bool first = true;
    for (const std::string& v : variants(t, w.id)) {
      const ExperimentCell* c32 = t.cell(w.id, v, 32);
      const ExperimentCell* c64 = t.cell(w.id, v, 64);
      const auto p = paper_per_operation(paper, w, v);
      std::fprintf(out, "%-34s %-15s %14s %12s %14s %12s %16s\n", first ? w.label.c_str() : "", v.c_str(),
                   count(c32, false).c_str(), count(c32, true).c_str(), count(c64, false).c_str(),
                   count(c64, true).c_str(), p ? fixed(*p, 0).c_str() : "-");
      first = false;
    }
  }
  std::fprintf(out,
               "paper: Table 1's totals divided by the operations behind them (512 SHA-256 messages; 256 threads x "
               "512 AES blocks)\n\n");
}

void print_speedups(std::FILE* out, const ExperimentResult& t, const Json& paper) {
  std::fprintf(out,
               "Figures 2-4: speed-up in modelled cycles over software (software-naive for SHA, software-table for "
               "AES: the paper's \"Software\")\n");
  std::fprintf(out, "%-9s %-34s %-15s %7s %7s %7s\n", "", "Workload", "Configuration", "RV32", "RV64", "paper");
  std::string last_figure;
  for (const ExperimentRow& w : t.rows) {
    const std::string figure = row_extra(w).value("figure", "");
    bool first = true;
    for (const std::string& v : variants(t, w.id)) {
      if (v == w.baseline) continue;
      const auto p = paper_speedup(paper, w, v);
      const bool new_figure = first && figure != last_figure;
      last_figure = figure;
      std::fprintf(out, "%-9s %-34s %-15s %7s %7s %7s\n", new_figure ? figure.c_str() : "", first ? w.label.c_str() : "",
                   v.c_str(), ratio(t, t.cell(w.id, v, 32)).c_str(), ratio(t, t.cell(w.id, v, 64)).c_str(),
                   p ? fixed(*p, 2).c_str() : "-");
      first = false;
    }
  }
  std::fprintf(out,
               "paper: cycle ratios of Table 1 (= the speed-ups quoted in Sections 5.1 and 5.3); Figure 3's values are "
               "not given in the text. Our native is the paper's \"Native+Hybrid\" for key expansion.\n\n");
}

/// The paper's Table 3 figure (at 192 MHz) for n cores, when our machine has the paper's core count.
std::optional<double> paper_table3(const Json& paper, const SimtConfig& s, unsigned n) {
  const Json& rows = paper.at("table3");
  if (s.cores != paper.at("configuration").at("cores").get<unsigned>() || n > rows.size()) return std::nullopt;
  return rows[n - 1].at("at_192_mhz").get<double>();
}

void print_simt(std::FILE* out, const ExperimentResult& t, const Json& paper) {
  const SimtConfig& s = t.settings.simt;
  std::fprintf(out, "SIMT throughput estimate (RV32, as Vortex): %u cores x %u warps x %u threads = %u threads at %g MHz\n",
               s.cores, s.warps, s.threads, s.cores * s.warps * s.threads, s.clock_mhz);
  std::fprintf(out, "model: %s\n", simt_model_text().c_str());
  std::fprintf(out, "%-34s %-15s %13s %-8s %14s %11s %9s\n", "Workload", "Configuration", "cycles/round", "bound",
               "operations/s", "MB/s", "speed-up");
  for (const ExperimentRow& w : t.rows) {
    const ExperimentCell* base = t.cell(w.id, w.baseline, 32);
    bool first = true;
    for (const std::string& v : variants(t, w.id)) {
      const ExperimentCell* c = t.cell(w.id, v, 32);
      if (c == nullptr || !c->ok()) continue;
      const SimtEstimate e = derive(t, *c).simt;
      std::string speedup = "-";
      if (base != nullptr && base->ok()) {
        const SimtEstimate b = derive(t, *base).simt;
        if (e.operations_per_second > 0 && b.operations_per_second > 0)
          speedup = fixed(e.operations_per_second / b.operations_per_second, 2);
      }
      std::fprintf(out, "%-34s %-15s %13.0f %-8s %14.4g %11s %9s\n", first ? w.label.c_str() : "", v.c_str(),
                   e.cycles_per_round, e.issue_bound ? "issue" : "latency", e.operations_per_second,
                   first_run(c)->input.payload_bytes > 0 ? fixed(e.bytes_per_second / 1e6, 1).c_str() : "-",
                   speedup.c_str());
      first = false;
    }
  }
  const auto [fast, slow] = table3_cells(t);
  if (fast != nullptr) {
    std::fprintf(out,
                 "\nTable 3 analogue: AES-256 CTR encryption on N native cores over %u software-table cores, same "
                 "clock (paper: at 192 MHz)\n",
                 s.cores);
    std::fprintf(out, "%5s %8s %8s\n", "cores", "ours", "paper");
    const SimtEstimate f = derive(t, *fast).simt, w = derive(t, *slow).simt;
    for (unsigned n = 1; n <= s.cores; ++n) {
      const auto p = paper_table3(paper, s, n);
      std::fprintf(out, "%5u %8.2f %8s\n", n, simt_core_speedup(s, n, f, w), p ? fixed(*p, 2).c_str() : "-");
    }
  }
}

void text(std::FILE* out, const ExperimentResult& t) {
  const Json p = paper(t.experiment);
  std::fprintf(out,
               "Seed 000 on cryptaccel's RISC-V simulator: Adams et al., \"Cryptography Acceleration in a RISC-V "
               "GPGPU\"\n");
  std::fprintf(out, "kernels: %s -O2 (%s); cycle model: %s\n", t.compiler.empty() ? "clang" : t.compiler.c_str(),
               t.manifest_path.c_str(), cycle_model_text(t).c_str());
  std::fprintf(out, "%zu runs in %.1f s; every output %s\n\n", t.cells.size(), t.seconds,
               t.settings.spike.empty() ? "checked against the ref engine"
                                        : "checked against the ref engine, and output and region instret against Spike");
  print_table1(out, t, p);
  print_speedups(out, t, p);
  print_simt(out, t, p);
  if (!t.ok()) {
    std::fprintf(out, "\n%zu check(s) FAILED (see stderr)\n", t.problems.size());
  }
}

Json paper_json(const Json& paper) {
  Json out = paper;
  const Json& ops = paper.at("configuration").at("operations");
  for (Json& r : out.at("table1")) {
    const unsigned n = r.at("workload") == "sha256" ? ops.at("sha256").get<unsigned>() : ops.at("aes").get<unsigned>();
    r["instructions_per_operation"] = r.at("kinstructions").get<double>() * 1000 / n;
  }
  return out;
}

Json json(const ExperimentResult& t, const Json& environment) {
  const Json p = paper(t.experiment);
  Json rows = Json::array();
  for (const ExperimentCell& c : t.cells) {
    const ExperimentRow& w = t.rows[c.row];
    const Json x = row_extra(w);
    const Derived d = derive(t, c);
    Json j = {{"workload_id", w.id}, {"label", w.label}, {"figure", x.value("figure", "")}, {"baseline_variant", w.baseline}};
    if (const KernelRun* run = first_run(&c)) j.update(run_object(*run));
    j["speedup_cycles"] = d.speedup_cycles ? Json(*d.speedup_cycles) : Json(nullptr);
    j["speedup_instructions"] = d.speedup_instructions ? Json(*d.speedup_instructions) : Json(nullptr);
    const auto ps = paper_speedup(p, w, c.variant);
    j["paper_speedup_cycles"] = ps ? Json(*ps) : Json(nullptr);
    const auto po = paper_per_operation(p, w, c.variant);
    j["paper_instructions_per_operation"] = po ? Json(*po) : Json(nullptr);
    j["simt"] = {{"cycles_per_round", d.simt.cycles_per_round},
                 {"issue_bound", d.simt.issue_bound},
                 {"operations_per_second", d.simt.operations_per_second},
                 {"bytes_per_second", d.simt.bytes_per_second}};
    rows.push_back(std::move(j));
  }
  const SimtConfig& s = t.settings.simt;
  Json table3 = Json::array();
  const auto [fast, slow] = table3_cells(t);
  if (fast != nullptr) {
    const SimtEstimate f = derive(t, *fast).simt, w = derive(t, *slow).simt;
    for (unsigned n = 1; n <= s.cores; ++n) {
      Json row = {{"cores", n}, {"speedup", simt_core_speedup(s, n, f, w)}};
      const auto pt = paper_table3(p, s, n);
      row["paper_at_192_mhz"] = pt ? Json(*pt) : Json(nullptr);
      table3.push_back(std::move(row));
    }
  }
  Json doc = report_head(t, environment);
  doc.update(Json{{"cycle_model", cycle_model_json(t.default_model)},
                  {"cycle_model_default", default_model_untouched(t)},
                  {"spike", t.settings.spike.empty()
                                ? Json(nullptr)
                                : Json("every run also on Spike: output and region instret compared")},
                  {"seed", t.settings.seed},
                  {"simt_config",
                   {{"cores", s.cores},
                    {"warps", s.warps},
                    {"threads", s.threads},
                    {"clock_mhz", s.clock_mhz},
                    {"model", simt_model_text()}}},
                  {"seconds", t.seconds},
                  {"rows", rows},
                  {"table3", table3},
                  {"paper", paper_json(p)},
                  {"ok", t.ok()},
                  {"problems", t.problems}});
  return doc;
}

std::string cell_name(const ExperimentResult& t, const ExperimentCell& c) {
  const ExperimentRow& w = t.rows[c.row];
  return w.kernel + " " + c.variant + " rv" + std::to_string(c.xlen) + " (" + w.label + ")";
}

void check(const Experiment& e) {
  const Json p = paper(e);
  p.at("configuration").at("cores").get<unsigned>();
  p.at("configuration").at("operations").at("sha256").get<unsigned>();
  p.at("configuration").at("operations").at("aes").get<unsigned>();
  for (const Json& r : p.at("table1")) {
    r.at("workload").get<std::string>();
    r.at("configuration").get<std::string>();
    r.at("kinstructions").get<double>();
    r.at("kcycles").get<double>();
  }
  for (const Json& r : p.at("table3")) r.at("at_192_mhz").get<double>();
  for (const ExperimentRow& row : e.rows) {
    const Json x = row_extra(row);
    if (x.contains("paper_configurations")) x.at("paper_operations").get<unsigned>();
    if (x.contains("table3")) {
      x["table3"].at("fast").get<std::string>();
      x["table3"].at("slow").get<std::string>();
      x["table3"].at("xlen").get<unsigned>();
    }
  }
}

}  // namespace

const Layout kLayoutSeed000 = {"seed000", check, cell_name, text, json};

}  // namespace cryptaccel::rvlab
