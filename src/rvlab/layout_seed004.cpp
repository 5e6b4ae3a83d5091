// Layout "seed004" (rv/experiments/seed004.json): Tables II and III (custom Keccak vector instructions) beside ours,
// the ablations and the published reference designs. Every row runs twice (the whole permutation and its last
// rounds): one pass gives cycles/byte (pass cycles / state bytes) and bits/cycle (states * 1600 / pass cycles), the
// difference of the two runs cycles/round. Row keys it reads: "group", "elen", "lmul", "paper_id" (a paper row),
// "replaced" and "full_id" (ablations). Paper keys: "rows" (id, table, implementation, sn, cycles_per_round,
// cycles_per_byte, bits_per_cycle, slices, bits_per_cycle_slice, note).
#include <cstdio>
#include <optional>
#include <string>

#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace rv = cryptaccel::rv;

/// Bytes of one Keccak-f[1600] state.
constexpr unsigned kStateBytes = 200;

constexpr const char* kModelNote =
    "scalar rows (reference, hybrid) run with the default cycle model (an in-order single-issue core; no vector "
    "unit); the vector rows (rvv, xkeccak*) with the seed004 preset: seed 004's SIMD processor, one vector "
    "instruction at a time (vector-blocking 1), a whole register per beat (vector-lanes 0), so each vector "
    "instruction costs 1 + ceil(VL/EleNum) cycles (vpi 2 + ...), Table I's latencies; --cycle-model applies to both";

/// A row with its cell and the figures derived from its two runs.
struct Derived {
  const ExperimentRow* row = nullptr;
  const ExperimentCell* cell = nullptr;
  Json extra;
  unsigned sn = 1;
  std::optional<double> cycles_per_round, instructions_per_round, cycles_per_byte, bits_per_cycle, ratio_to_full;
  std::optional<double> pass_cycles;

  bool ok() const { return cell != nullptr && cell->ok(); }
  std::string status() const { return cell != nullptr ? cell->status : "missing"; }
};

Derived derive_one(const ExperimentResult& t, std::size_t index) {
  Derived d;
  d.row = &t.rows[index];
  d.extra = row_extra(*d.row);
  d.sn = static_cast<unsigned>(t.requests[index].front().states.value_or(1));
  for (const ExperimentCell& c : t.cells)
    if (c.row == index) d.cell = &c;
  if (!d.ok() || d.cell->runs.size() < 2) return d;
  const rv::Counts& a = d.cell->runs[0]->result.region;
  const rv::Counts& b = d.cell->runs[1]->result.region;
  const double rounds = static_cast<double>(t.requests[index][0].rounds.value_or(24)) -
                        static_cast<double>(t.requests[index][1].rounds.value_or(24));
  d.cycles_per_round = (static_cast<double>(a.cycles) - static_cast<double>(b.cycles)) / rounds;
  d.instructions_per_round = (static_cast<double>(a.instret) - static_cast<double>(b.instret)) / rounds;
  d.cycles_per_byte = static_cast<double>(a.cycles) / kStateBytes;
  d.bits_per_cycle = a.cycles != 0 ? d.sn * 1600.0 / static_cast<double>(a.cycles) : 0.0;
  d.pass_cycles = static_cast<double>(a.cycles);
  return d;
}

std::vector<Derived> derive(const ExperimentResult& t) {
  std::vector<Derived> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) out.push_back(derive_one(t, i));
  for (Derived& d : out) {
    const std::string full_id = d.extra.value("full_id", "");
    if (full_id.empty() || !d.cycles_per_round) continue;
    for (const Derived& f : out) {
      if (f.row->id == full_id && f.cycles_per_round && *f.cycles_per_round > 0) {
        d.ratio_to_full = *d.cycles_per_round / *f.cycles_per_round;
      }
    }
  }
  return out;
}

/// A published figure: null is "-".
std::optional<double> figure(const Json& p, const char* key) {
  return p.at(key).is_null() ? std::nullopt : std::optional<double>(p.at(key).get<double>());
}

std::string paper_figure(const Json& p, const char* key, int decimals) { return fixed(figure(p, key), decimals); }

/// What a row shows instead of numbers when it has none.
std::string numbers_or_status(const Derived& d, const std::optional<double>& v, int decimals) {
  const std::string s = d.status();
  if (s == "ok") return fixed(v, decimals);
  return s == "missing" ? "missing" : s == "not run" ? "not run" : "FAILED";
}

Json paper_row(const Json& paper, const std::string& id) {
  if (id.empty()) return nullptr;
  for (const Json& r : paper.at("rows"))
    if (r.at("id") == id) return r;
  return nullptr;
}

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

unsigned xlen_of(const Derived& d) { return d.cell != nullptr ? d.cell->xlen : 0; }

void print_main(std::FILE* out, const std::vector<Derived>& rows, const Json& paper) {
  std::fprintf(out, "%-40s %4s %5s %2s %-7s %9s %8s %9s %8s %10s | %7s %8s %10s %7s\n", "configuration", "XLEN",
               "VLEN", "SN", "model", "instr/rnd", "cyc/rnd", "cyc/pass", "cyc/byte", "bits/cycle", "cyc/rnd",
               "cyc/byte", "bits/cycle", "slices");
  for (const Derived& r : rows) {
    if (r.extra.contains("replaced")) continue;
    const Json p = paper_row(paper, r.extra.value("paper_id", ""));
    const bool has = !p.is_null();
    const std::string& variant = r.row->variants.front();
    const std::string label = r.row->label + " (" + variant + ")";
    std::fprintf(out, "%-40s %4s %5s %2u %-7s %9s %8s %9s %8s %10s | %7s %8s %10s %7s\n", label.c_str(),
                 xlen_of(r) ? std::to_string(xlen_of(r)).c_str() : "-",
                 r.row->vlen ? std::to_string(r.row->vlen).c_str() : "-", r.sn,
                 r.row->timing.empty() ? "default" : r.row->timing.c_str(),
                 numbers_or_status(r, r.instructions_per_round, 1).c_str(),
                 numbers_or_status(r, r.cycles_per_round, 1).c_str(), fixed(r.pass_cycles, 0).c_str(),
                 fixed(r.cycles_per_byte, 2).c_str(), fixed(r.bits_per_cycle, 4).c_str(),
                 has ? paper_figure(p, "cycles_per_round", 0).c_str() : "",
                 has ? paper_figure(p, "cycles_per_byte", 1).c_str() : "",
                 has ? paper_figure(p, "bits_per_cycle", 4).c_str() : "",
                 has ? paper_figure(p, "slices", 0).c_str() : "");
  }
}

void print_ablations(std::FILE* out, const std::vector<Derived>& rows) {
  std::fprintf(out,
               "\nWhat each custom instruction buys: xkeccak64-lmul8 (VLEN 320/960/1920) with one replaced by standard "
               "RVV/Zvkb code, seed004 timing; cyc/rnd and its ratio to the full custom kernel's\n");
  std::fprintf(out, "%-28s %-40s %9s %8s %8s %8s %8s %8s %8s\n", "variant", "replaced", "instr/rnd", "SN 1", "x full",
               "SN 3", "x full", "SN 6", "x full");
  std::string shown;
  for (const Derived& r : rows) {
    if (!r.extra.contains("replaced")) continue;
    const std::string group = r.extra.value("group", "");
    if (group == shown) continue;
    shown = group;
    std::string cells;
    for (const Derived& s : rows) {
      if (s.extra.value("group", "") != group) continue;
      char buf[64];
      std::snprintf(buf, sizeof buf, " %8s %8s", numbers_or_status(s, s.cycles_per_round, 1).c_str(),
                    s.ratio_to_full ? (fixed(s.ratio_to_full, 2) + "x").c_str() : "-");
      cells += buf;
    }
    std::fprintf(out, "%-28s %-40s %9s%s\n", r.row->variants.front().c_str(),
                 r.extra.at("replaced").get<std::string>().c_str(),
                 numbers_or_status(r, r.instructions_per_round, 1).c_str(), cells.c_str());
  }
}

void print_references(std::FILE* out, const Json& paper) {
  std::fprintf(out, "\nPublished reference designs (Tables II and III, as published; not run here)\n");
  std::fprintf(out, "%-26s %5s %7s %8s %11s %7s %13s\n", "implementation", "table", "cyc/rnd", "cyc/byte",
               "bits/cycle", "slices", "bits/(cyc*sl)");
  for (const Json& p : paper.at("rows")) {
    if (!p.at("sn").is_null() && p.at("id") != "vector-ext-15") continue;
    const auto tput_figure = figure(p, "bits_per_cycle_slice");
    char tput[32];
    std::snprintf(tput, sizeof tput, "%.3g", tput_figure.value_or(0));
    std::fprintf(out, "%-26s %5s %7s %8s %11s %7s %13s\n", p.at("implementation").get<std::string>().c_str(),
                 p.at("table").get<std::string>().c_str(), paper_figure(p, "cycles_per_round", 1).c_str(),
                 paper_figure(p, "cycles_per_byte", 1).c_str(), paper_figure(p, "bits_per_cycle", 5).c_str(),
                 paper_figure(p, "slices", 0).c_str(), tput_figure ? tput : "-");
  }
  for (const Json& p : paper.at("rows")) {
    if (!p.contains("note")) continue;
    std::fprintf(out, "  %s: %s\n", p.at("implementation").get<std::string>().c_str(),
                 p.at("note").get<std::string>().c_str());
  }
}

/// The preset of the vector rows (the first preset any row names), or nullptr.
const TimingPreset* vector_preset(const ExperimentResult& t) { return t.presets.empty() ? nullptr : &t.presets.front(); }

void text(std::FILE* out, const ExperimentResult& t) {
  const Json paper = rvlab::paper(t.experiment);
  const std::vector<Derived> rows = derive(t);
  const TimingPreset* preset = vector_preset(t);
  const std::string& overrides = t.settings.cycle_model_file;
  std::fprintf(out,
               "Seed 004 (custom Keccak vector instructions, DATE 2023) on cryptaccel's RISC-V simulator: "
               "Keccak-f[1600] on SN states\n"
               "one pass = load, 24 rounds, store of SN states (the measured region); cyc/byte = cyc/pass / 200, "
               "bits/cycle = SN * 1600 / cyc/pass,\ncyc/rnd and instr/rnd = (count(24 rounds) - count(last 12 rounds, "
               "Keccak-p)) / 12\n");
  std::fprintf(out, "timing: scalar rows the default model, vector rows the seed004 preset (%s)%s\n\n",
               preset != nullptr ? preset->path.c_str() : "", overrides.empty() ? "" : (", both with " + overrides).c_str());
  std::fprintf(out, "%-40s %-52s | %s\n", "", "ours", "paper");
  print_main(out, rows, paper);
  print_ablations(out, rows);
  print_references(out, paper);
  std::size_t runs = 0;
  for (const ExperimentCell& c : t.cells)
    for (const auto& r : c.runs) runs += r ? 1 : 0;
  std::fprintf(out, "\n%zu runs in %.2f s%s%s\n", runs, t.seconds,
               t.settings.spike.empty() ? "" : " (rows without custom instructions also on Spike)",
               t.ok() ? ", all outputs equal to the ref engine's" : "; PROBLEMS below");
}

Json json(const ExperimentResult& t, const Json& environment) {
  const Json paper = rvlab::paper(t.experiment);
  const std::vector<Derived> derived = derive(t);
  Json rows = Json::array();
  for (std::size_t i = 0; i < derived.size(); ++i) {
    const Derived& r = derived[i];
    const ExperimentRow& c = *r.row;
    Json runs = Json::object();
    if (r.cell != nullptr) {
      for (std::size_t k = 0; k < r.cell->runs.size(); ++k)
        if (r.cell->runs[k]) runs[c.runs[k].name] = run_object(*r.cell->runs[k]);
    }
    const unsigned lmul = r.extra.value("lmul", 0u);
    Json j = {{"id", c.id},
              {"group", r.extra.value("group", "")},
              {"label", c.label},
              {"kernel", c.kernel},
              {"variant", c.variants.front()},
              {"xlen", xlen_of(r) ? Json(xlen_of(r)) : Json(nullptr)},
              {"vlen", c.vlen ? Json(c.vlen) : Json(nullptr)},
              {"sn", r.sn},
              {"elen", r.extra.value("elen", 64u)},
              {"lmul", lmul ? Json(lmul) : Json(nullptr)},
              {"cycle_model", c.timing.empty() ? "default" : c.timing},
              {"status", r.status()},
              {"runs", runs}};
    j["pass_cycles"] = optional_json(r.pass_cycles);
    j["pass_instret"] = r.ok() ? Json(r.cell->runs[0]->result.region.instret) : Json(nullptr);
    j["cycles_per_round"] = optional_json(r.cycles_per_round);
    j["instructions_per_round"] = optional_json(r.instructions_per_round);
    j["cycles_per_byte"] = optional_json(r.cycles_per_byte);
    j["bits_per_cycle"] = optional_json(r.bits_per_cycle);
    const double full_rounds = static_cast<double>(t.requests[i][0].rounds.value_or(24));
    j["outside_rounds_cycles"] =
        r.pass_cycles && r.cycles_per_round ? Json(*r.pass_cycles - full_rounds * *r.cycles_per_round) : Json(nullptr);
    const std::string paper_id = r.extra.value("paper_id", "");
    const Json p = paper_row(paper, paper_id);
    if (!p.is_null()) {
      j["paper_id"] = paper_id;
      Json vs = Json::object();
      const std::pair<const char*, std::optional<double>> pairs[] = {{"cycles_per_round", r.cycles_per_round},
                                                                     {"cycles_per_byte", r.cycles_per_byte},
                                                                     {"bits_per_cycle", r.bits_per_cycle}};
      for (const auto& [key, ours] : pairs) {
        const auto theirs = figure(p, key);
        vs[key] = ours && theirs && *theirs > 0 ? Json(*ours / *theirs) : Json(nullptr);
      }
      j["vs_paper"] = vs;
    } else {
      j["paper_id"] = nullptr;
    }
    if (r.extra.contains("replaced")) {
      j["replaced"] = r.extra.at("replaced");
      j["full_id"] = r.extra.value("full_id", "");
      j["ratio_to_full"] = optional_json(r.ratio_to_full);
    }
    j["ok"] = r.ok();
    j["problems"] = r.cell != nullptr ? r.cell->problems : std::vector<std::string>{};
    rows.push_back(std::move(j));
  }
  const TimingPreset* preset = vector_preset(t);
  const std::string& overrides = t.settings.cycle_model_file;
  Json model = {{"note", kModelNote},
                {"scalar_rows", cycle_model_json(t.default_model)},
                {"vector_rows", preset != nullptr && preset->model ? cycle_model_json(*preset->model) : Json(nullptr)},
                {"preset", preset != nullptr ? preset->path : ""},
                {"preset_keys", preset != nullptr && !preset->json.empty() ? Json::parse(preset->json) : Json(nullptr)},
                {"overrides", overrides.empty() ? Json(nullptr) : Json(overrides)}};
  Json rounds = Json::array();
  if (!t.requests.empty())
    for (const WorkloadRequest& r : t.requests.front()) rounds.push_back(r.rounds.value_or(24));
  Json doc = report_head(t, environment);
  doc.update(Json{{"kernel", t.rows.empty() ? std::string() : t.rows.front().kernel},
                  {"rounds", rounds},
                  {"state_bytes", kStateBytes},
                  {"cycle_model", model},
                  {"spike", t.settings.spike.empty() ? Json(nullptr)
                                                     : Json("rows without custom instructions also on Spike: output "
                                                            "and region instret compared")},
                  {"seed", t.settings.seed},
                  {"seconds", t.seconds},
                  {"rows", rows},
                  {"paper", paper},
                  {"ok", t.ok()},
                  {"problems", t.problems}});
  return doc;
}

std::string cell_name(const ExperimentResult& t, const ExperimentCell& c) {
  const ExperimentRow& row = t.rows[c.row];
  return row.id + " (" + c.variant + (c.xlen ? " rv" + std::to_string(c.xlen) : "") +
         (row.vlen ? ", VLEN " + std::to_string(row.vlen) : "") + ")";
}

void check(const Experiment& e) {
  const Json figures = paper(e);  // named: a range-for over a member of a temporary would dangle
  for (const Json& r : figures.at("rows")) {
    r.at("id").get<std::string>();
    r.at("table").get<std::string>();
    r.at("implementation").get<std::string>();
    r.at("sn");
    for (const char* key : {"cycles_per_round", "cycles_per_byte", "bits_per_cycle", "slices", "bits_per_cycle_slice"})
      if (!r.at(key).is_null()) r.at(key).get<double>();
  }
  for (const ExperimentRow& row : e.rows) {
    if (row.variants.size() != 1 || !row.first_xlen) {
      throw LayoutDataError("row \"" + row.id + "\": the seed004 layout takes one variant and \"xlen_choice\": \"first\"");
    }
    if (row.runs.size() != 2) throw LayoutDataError("row \"" + row.id + "\": the seed004 layout takes two runs");
  }
}

}  // namespace

const Layout kLayoutSeed004 = {"seed004", check, cell_name, text, json};

}  // namespace cryptaccel::rvlab
