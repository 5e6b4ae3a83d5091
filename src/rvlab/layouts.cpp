#include "layouts.hpp"

#include <cstdio>

namespace cryptaccel::rvlab {
namespace {

const Layout* const kLayouts[] = {&kLayoutGeneric, &kLayoutSeed000, &kLayoutSeed001, &kLayoutSeed004};

}  // namespace

const Layout* find_layout(const std::string& name) {
  for (const Layout* l : kLayouts)
    if (name == l->name) return l;
  return nullptr;
}

std::string layout_names() {
  std::string out;
  for (const Layout* l : kLayouts) out += (out.empty() ? "" : ", ") + std::string(l->name);
  return out;
}

void check_layout_data(const Experiment& e) {
  try {
    find_layout(e.layout)->check(e);
  } catch (const Json::exception& x) {  // a key of the wrong type
    throw LayoutDataError(std::string("layout ") + e.layout + ": " + x.what());
  }
}

Json row_extra(const ExperimentRow& row) { return row.extra_json.empty() ? Json::object() : Json::parse(row.extra_json); }

Json paper(const Experiment& e) { return e.paper_json.empty() ? Json::object() : Json::parse(e.paper_json); }

bool default_model_untouched(const ExperimentResult& r) { return r.settings.cycle_model_file.empty(); }

Json report_head(const ExperimentResult& t, const Json& environment) {
  Json doc = {{"table", t.experiment.name}, {"title", t.experiment.title}};
  doc.update(environment);
  doc.update(Json{{"manifest", t.manifest_path}, {"kernel_compiler", t.compiler}});
  return doc;
}

const KernelRun* first_run(const ExperimentCell* c) {
  return c != nullptr && !c->runs.empty() && c->runs.front() ? &*c->runs.front() : nullptr;
}

std::string fixed(const std::optional<double>& v, int decimals) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
  return buf;
}

void write_report_text(std::FILE* out, const ExperimentResult& r) { find_layout(r.experiment.layout)->text(out, r); }

std::string report_json(const ExperimentResult& r, const std::string& environment) {
  const Json env = environment.empty() ? Json::object() : Json::parse(environment);
  return find_layout(r.experiment.layout)->json(r, env).dump(2) + "\n";
}

}  // namespace cryptaccel::rvlab
