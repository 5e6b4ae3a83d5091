// Layout "seed001" (rv/experiments/seed001.json): the reference and zvk variants (and the scalar native one where it
// exists) with their speed-ups beside the paper's table. Paper keys: "rows" (id, operation, reference_cycles,
// reference_instret, zvk_cycles, zvk_instret), matched to our rows by id.
#include <cstdio>
#include <string>

#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace rv = cryptaccel::rv;

/// The variants of the table, in column order.
constexpr const char* kVariants[] = {"reference", "zvk", "native"};

double ratio(std::uint64_t a, std::uint64_t b) { return b != 0 ? static_cast<double>(a) / static_cast<double>(b) : 0; }

/// "12 345" style grouping for the printed table.
std::string grouped(double v) {
  if (v < 0) return "-";
  std::string digits = std::to_string(static_cast<unsigned long long>(v + 0.5));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return out;
}

/// The paper's row with our id, or null.
Json paper_row(const Json& paper, const std::string& id) {
  for (const Json& r : paper.at("rows"))
    if (r.at("id") == id) return r;
  return nullptr;
}

/// The VLEN the vector cells ran at (the last one's).
unsigned vlen_of(const ExperimentResult& t) {
  unsigned vlen = 0;
  for (const ExperimentCell& c : t.cells)
    if (const KernelRun* r = first_run(&c); r != nullptr && r->vlen != 0) vlen = r->vlen;
  return vlen;
}

void text(std::FILE* out, const ExperimentResult& t) {
  const Json paper = rvlab::paper(t.experiment);
  std::fprintf(out,
               "Seed 001 (Marian: Zvk on CVA6 + Ara2) on cryptaccel's RISC-V simulator: RV64, VLEN %u, "
               "measured-region counts\n",
               vlen_of(t));
  std::fprintf(out, "%-28s %10s %10s %8s %8s %7s %7s %9s | %10s %10s %8s %8s %7s %7s\n", "", "reference", "", "zvk", "",
               "speed-", "up", "native", "paper ref", "", "zvk", "", "speed-", "up");
  std::fprintf(out, "%-28s %10s %10s %8s %8s %7s %7s %9s | %10s %10s %8s %8s %7s %7s\n", "operation", "cycles",
               "instret", "cycles", "instret", "cycles", "instr", "instret", "cycles", "instret", "cycles", "instret",
               "cycles", "instr");
  for (const ExperimentRow& row : t.rows) {
    auto counts = [&](const char* variant, bool cycles) -> double {
      const KernelRun* r = first_run(t.cell(row.id, variant));
      if (r == nullptr || !r->result.exited() || r->result.exit_code != 0) return -1;
      return static_cast<double>(cycles ? r->result.region.cycles : r->result.region.instret);
    };
    const double rc = counts("reference", true), ri = counts("reference", false), zc = counts("zvk", true),
                 zi = counts("zvk", false);
    const Json p = paper_row(paper, row.id);
    auto fig = [&](const char* key) { return p.at(key).get<double>(); };
    auto speed = [](double a, double b) { return a > 0 && b > 0 ? a / b : 0.0; };
    const bool has = !p.is_null();
    std::fprintf(out, "%-28s %10s %10s %8s %8s %6.1fx %6.1fx %9s | %10s %10s %8s %8s %6.1fx %6.1fx\n", row.label.c_str(),
                 grouped(rc).c_str(), grouped(ri).c_str(), grouped(zc).c_str(), grouped(zi).c_str(), speed(rc, zc),
                 speed(ri, zi), grouped(counts("native", false)).c_str(),
                 has ? grouped(fig("reference_cycles")).c_str() : "-",
                 has ? grouped(fig("reference_instret")).c_str() : "-", has ? grouped(fig("zvk_cycles")).c_str() : "-",
                 has ? grouped(fig("zvk_instret")).c_str() : "-",
                 has ? speed(fig("reference_cycles"), fig("zvk_cycles")) : 0.0,
                 has ? speed(fig("reference_instret"), fig("zvk_instret")) : 0.0);
  }
  std::fprintf(out, "zvk instret vs the paper's:");
  for (const ExperimentRow& row : t.rows) {
    const ExperimentCell* zvk = t.cell(row.id, "zvk");
    const Json p = paper_row(paper, row.id);
    if (zvk == nullptr || p.is_null() || !zvk->ok()) continue;
    std::fprintf(out, " %s %+.0f%%", row.id.c_str(),
                 100.0 * (static_cast<double>(first_run(zvk)->result.region.instret) / p.at("zvk_instret").get<double>() -
                          1.0));
  }
  std::fprintf(out, "\n");
  if (!t.settings.spike.empty()) {
    std::fprintf(out, "Spike (--vs spike): region instret of every run compared;");
    for (const ExperimentCell& c : t.cells) {
      const KernelRun* r = first_run(&c);
      if (r != nullptr && r->spike && r->spike->instret) {
        std::fprintf(out, " %s/%s %llu", t.rows[c.row].id.c_str(), c.variant.c_str(),
                     static_cast<unsigned long long>(*r->spike->instret));
      }
    }
    std::fprintf(out, "\n");
  }
  std::size_t runs = 0;
  for (const ExperimentCell& c : t.cells) runs += first_run(&c) != nullptr ? 1 : 0;
  std::fprintf(out, "%zu runs in %.2f s%s\n", runs, t.seconds,
               t.ok() ? ", all outputs equal to the ref engine's" : "; PROBLEMS below");
}

Json paper_json(const Json& paper) {
  Json out = paper;
  for (Json& r : out.at("rows")) {
    r["speedup_cycles"] = r.at("reference_cycles").get<double>() / r.at("zvk_cycles").get<double>();
    r["speedup_instret"] = r.at("reference_instret").get<double>() / r.at("zvk_instret").get<double>();
  }
  return out;
}

Json json(const ExperimentResult& t, const Json& environment) {
  const Json paper = rvlab::paper(t.experiment);
  Json rows = Json::array();
  for (const ExperimentRow& row : t.rows) {
    Json runs = Json::object();
    for (const char* variant : kVariants) {
      if (const KernelRun* r = first_run(t.cell(row.id, variant))) runs[variant] = run_object(*r);
    }
    Json j = {{"id", row.id}, {"label", row.label}, {"kernel", row.kernel}, {"runs", runs}};
    const ExperimentCell* ref = t.cell(row.id, "reference");
    const ExperimentCell* zvk = t.cell(row.id, "zvk");
    if (ref != nullptr && zvk != nullptr && ref->ok() && zvk->ok()) {
      const rv::Counts& a = first_run(ref)->result.region;
      const rv::Counts& b = first_run(zvk)->result.region;
      j["speedup_cycles"] = ratio(a.cycles, b.cycles);
      j["speedup_instret"] = ratio(a.instret, b.instret);
    } else {
      j["speedup_cycles"] = nullptr;
      j["speedup_instret"] = nullptr;
    }
    const Json p = paper_row(paper, row.id);
    if (!p.is_null()) {
      const double rc = p.at("reference_cycles").get<double>(), ri = p.at("reference_instret").get<double>();
      const double zc = p.at("zvk_cycles").get<double>(), zi = p.at("zvk_instret").get<double>();
      j["paper"] = {{"operation", p.at("operation")},
                    {"reference_cycles", rc},
                    {"reference_instret", ri},
                    {"zvk_cycles", zc},
                    {"zvk_instret", zi},
                    {"speedup_cycles", rc / zc},
                    {"speedup_instret", ri / zi}};
      j["zvk_instret_vs_paper"] =
          zvk != nullptr && zvk->ok() ? Json(static_cast<double>(first_run(zvk)->result.region.instret) / zi)
                                      : Json(nullptr);
    }
    rows.push_back(std::move(j));
  }
  Json doc = report_head(t, environment);
  doc.update(Json{{"xlen", 64},
                  {"vlen", vlen_of(t)},
                  {"cycle_model", cycle_model_json(t.default_model)},
                  {"cycle_model_default", default_model_untouched(t)},
                  {"spike", t.settings.spike.empty() ? Json(nullptr)
                                                     : Json("every run also on Spike (--isa with _zvl<VLEN>b): output "
                                                            "and region instret compared")},
                  {"seed", t.settings.seed},
                  {"seconds", t.seconds},
                  {"rows", rows},
                  {"paper", paper_json(paper)},
                  {"ok", t.ok()},
                  {"problems", t.problems}});
  return doc;
}

std::string cell_name(const ExperimentResult& t, const ExperimentCell& c) {
  const ExperimentRow& row = t.rows[c.row];
  return row.kernel + " " + c.variant + " rv" + std::to_string(c.xlen) + " (" + row.label + ")";
}

void check(const Experiment& e) {
  const Json figures = paper(e);  // named: a range-for over a member of a temporary would dangle
  for (const Json& r : figures.at("rows")) {
    r.at("id").get<std::string>();
    r.at("operation").get<std::string>();
    for (const char* key : {"reference_cycles", "reference_instret", "zvk_cycles", "zvk_instret"}) r.at(key).get<double>();
  }
}

}  // namespace

const Layout kLayoutSeed001 = {"seed001", check, cell_name, text, json};

}  // namespace cryptaccel::rvlab
