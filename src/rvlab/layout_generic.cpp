// Layout "generic": any experiment without a layout of its own. One line per cell and run — instructions and
// modelled cycles of the measured region, and the paper's figures for the row when the row gives them ("paper":
// {"instret": N, "cycles": N} or per variant {"<variant>": {"instret": N, "cycles": N}}) — and the same as JSON.
#include <cstdio>
#include <string>

#include "layouts.hpp"

namespace cryptaccel::rvlab {
namespace {

/// The row's paper figures for `variant` ({"instret", "cycles"}), or null.
Json paper_figures(const ExperimentRow& row, const std::string& variant) {
  const Json x = row_extra(row);
  if (!x.contains("paper")) return nullptr;
  const Json& p = x.at("paper");
  if (p.contains(variant)) return p.at(variant);
  return p.contains("instret") || p.contains("cycles") ? p : Json(nullptr);
}

std::string figure(const Json& p, const char* key) {
  if (p.is_null() || !p.contains(key)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", p.at(key).get<double>());
  return buf;
}

void text(std::FILE* out, const ExperimentResult& t) {
  std::fprintf(out, "%s\n", t.experiment.title.c_str());
  std::fprintf(out, "kernels: %s (%s)\n\n", t.compiler.empty() ? "clang" : t.compiler.c_str(), t.manifest_path.c_str());
  std::fprintf(out, "%-30s %-16s %4s %5s %-8s %-8s %12s %12s | %12s %12s\n", "row", "variant", "XLEN", "VLEN", "run",
               "status", "instret", "cycles", "paper instr", "paper cyc");
  std::size_t runs = 0;
  for (const ExperimentCell& c : t.cells) {
    const ExperimentRow& row = t.rows[c.row];
    const Json p = paper_figures(row, c.variant);
    for (std::size_t i = 0; i < row.runs.size(); ++i) {
      const KernelRun* r = i < c.runs.size() && c.runs[i] ? &*c.runs[i] : nullptr;
      runs += r != nullptr ? 1 : 0;
      const bool counted = r != nullptr && r->ok();
      std::fprintf(out, "%-30s %-16s %4s %5s %-8s %-8s %12s %12s | %12s %12s\n", row.label.c_str(), c.variant.c_str(),
                   c.xlen ? std::to_string(c.xlen).c_str() : "-", r && r->vlen ? std::to_string(r->vlen).c_str() : "-",
                   row.runs[i].name.empty() ? "-" : row.runs[i].name.c_str(), c.status.c_str(),
                   counted ? std::to_string(r->result.region.instret).c_str() : "-",
                   counted ? std::to_string(r->result.region.cycles).c_str() : "-", figure(p, "instret").c_str(),
                   figure(p, "cycles").c_str());
    }
  }
  std::fprintf(out, "\n%zu runs in %.2f s%s\n", runs, t.seconds,
               t.ok() ? ", all outputs equal to the ref engine's" : "; PROBLEMS below");
}

Json json(const ExperimentResult& t, const Json& environment) {
  Json cells = Json::array();
  for (const ExperimentCell& c : t.cells) {
    const ExperimentRow& row = t.rows[c.row];
    Json runs = Json::object();
    for (std::size_t i = 0; i < c.runs.size(); ++i)
      if (c.runs[i]) runs[row.runs[i].name.empty() ? "run" : row.runs[i].name] = run_object(*c.runs[i]);
    cells.push_back({{"id", row.id},
                     {"label", row.label},
                     {"kernel", row.kernel},
                     {"variant", c.variant},
                     {"xlen", c.xlen ? Json(c.xlen) : Json(nullptr)},
                     {"status", c.status},
                     {"runs", runs},
                     {"paper", paper_figures(row, c.variant)},
                     {"ok", c.ok()},
                     {"problems", c.problems}});
  }
  Json doc = report_head(t, environment);
  doc.update(Json{{"cycle_model", cycle_model_json(t.default_model)},
                  {"cycle_model_default", default_model_untouched(t)},
                  {"seed", t.settings.seed},
                  {"seconds", t.seconds},
                  {"rows", cells},
                  {"paper", paper(t.experiment)},
                  {"ok", t.ok()},
                  {"problems", t.problems}});
  return doc;
}

std::string cell_name(const ExperimentResult& t, const ExperimentCell& c) {
  return t.rows[c.row].id + " " + c.variant + (c.xlen ? " rv" + std::to_string(c.xlen) : "");
}

void check(const Experiment& e) {
  for (const ExperimentRow& row : e.rows) {
    const Json x = row_extra(row);
    if (x.contains("paper") && !x.at("paper").is_object()) {
      throw LayoutDataError("row \"" + row.id + "\": \"paper\" must be an object");
    }
  }
}

}  // namespace

const Layout kLayoutGeneric = {"generic", check, cell_name, text, json};

}  // namespace cryptaccel::rvlab
