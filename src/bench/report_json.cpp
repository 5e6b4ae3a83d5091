// The speed harness: the report as a JSON document (schema "cryptaccel-speed/1").
#include <optional>

#include "cryptaccel/bench/machine.hpp"
#include "cryptaccel/bench/report.hpp"
#include "cryptaccel/bench/workload.hpp"
#include "machine_json.hpp"
#include "report_rows.hpp"

namespace cryptaccel::bench {
namespace {

Json number_or_null(std::optional<double> v) { return v ? Json(*v) : Json(nullptr); }

}  // namespace

std::string report_json(const SpeedSettings& settings, const std::vector<RowResult>& rows) {
  Json doc;
  doc["schema"] = "cryptaccel-speed/1";
  doc["timestamp"] = utc_timestamp();
  doc["machine"] = machine_info();
  doc["build"] = build_info();
  doc["settings"] = {
      {"algorithms", settings.algorithms},
      {"engines", settings.engines},
      {"bytes", settings.sizes},
      {"seconds", settings.seconds},
      {"threads", settings.threads},
      {"batch", settings.batch == 0 ? Json(nullptr) : Json(settings.batch)},
      {"vs", settings.vs_openssl ? Json("openssl") : Json(nullptr)},
  };

  Json results = Json::array();
  Json errors = Json::array();
  for (const RowResult& row : rows) {
    const Json batch = row.batch == 0 ? Json(nullptr) : Json(row.batch);
    if (!row.error.empty()) {
      errors.push_back({{"algo", row.algo}, {"engine", row.impl}, {"batch", batch}, {"error", row.error}});
      if (!row.operation.empty()) errors.back()["operation"] = row.operation;
      continue;
    }
    const RowResult* base = settings.vs_openssl ? openssl_row(rows, row) : nullptr;
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const CellResult& cell = row.cells[i];
      Json r = {
          {"algo", row.algo}, {"engine", row.impl},  {"engine_used", row.impl_used},
          {"batch", batch},   {"bytes", cell.bytes},
      };
      if (!row.operation.empty()) r["operation"] = row.operation;
      const bool timed = cell.measured.has_value();
      r["runs"] = timed ? Json(cell.measured->runs) : Json(nullptr);
      r["seconds"] = timed ? Json(cell.measured->seconds) : Json(nullptr);
      r["bytes_per_second"] = timed ? Json(bytes_per_second(row, cell)) : Json(nullptr);
      r["messages_per_second"] = timed ? Json(messages_per_second(row, cell)) : Json(nullptr);
      if (settings.vs_openssl && row.impl != kOpenSsl) r["vs_openssl"] = number_or_null(ratio(row, base, i));
      if (!timed) r["note"] = cell.note;
      results.push_back(std::move(r));
    }
  }
  doc["results"] = std::move(results);
  doc["errors"] = std::move(errors);
  return doc.dump(2) + "\n";
}

}  // namespace cryptaccel::bench
