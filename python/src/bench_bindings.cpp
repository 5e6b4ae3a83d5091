// Speed-harness bindings. A speed run checks and times for seconds to minutes, all with the GIL released; the report
// comes back as the JSON text `cryptaccel speed --json` writes (bench.py parses it) and the table it prints.
#include "bench_bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "cryptaccel/bench.hpp"

namespace nb = nanobind;
namespace bench = cryptaccel::bench;

namespace pyca {
namespace {

/// One speed run: (json_text, table_text, errors), errors being "LABEL: ERROR" per failed implementation.
nb::tuple speed(std::vector<std::string> algorithms, std::vector<std::string> engines, std::vector<std::string> sizes,
                double seconds, std::string threads, std::string batch, std::string vs) {
  bench::SpeedRequest request;
  request.algorithms = std::move(algorithms);
  request.engines = std::move(engines);
  request.sizes = std::move(sizes);
  request.seconds = seconds;
  request.threads = std::move(threads);
  request.batch = std::move(batch);
  request.vs = std::move(vs);
  std::string json, text;
  std::vector<std::string> errors;
  {
    nb::gil_scoped_release released;
    const bench::SpeedPlan plan = bench::plan_speed(request);
    bench::SpeedRun run = bench::run_speed(plan);
    json = bench::report_json(plan.settings, run.rows);
    text = bench::report_text(plan.settings, run.rows);
    errors = std::move(run.errors);
  }
  return nb::make_tuple(json, text, errors);
}

/// [(family, [workload names])], in the order of bench::workload_families().
nb::list families() {
  nb::list out;
  for (const bench::WorkloadFamily& family : bench::workload_families())
    out.append(nb::make_tuple(std::string(family.name), family.names()));
  return out;
}

}  // namespace

void register_bench_bindings(nb::module_& m) {
  m.def("_bench_speed", &speed, nb::arg("algorithms"), nb::arg("engines"), nb::arg("sizes"), nb::arg("seconds"),
        nb::arg("threads"), nb::arg("batch"), nb::arg("vs"),
        "_bench_speed(algorithms, engines, sizes, seconds, threads, batch, vs) -> (json_text, table_text, errors)");
  m.def("_bench_families", &families, "_bench_families() -> list[tuple[str, list[str]]]");
}

}  // namespace pyca
