// The speed harness: labels, rates and OpenSSL ratios of result rows, shared by the table and the JSON.
#include "report_rows.hpp"

#include "cryptaccel/bench/workload.hpp"

namespace cryptaccel::bench {

std::string row_label_impl(const RowResult& row) {
  if (row.impl == "auto" && !row.impl_used.empty() && row.impl_used != row.impl) return "auto:" + row.impl_used;
  return row.impl;
}

const RowResult* openssl_row(const std::vector<RowResult>& rows, const RowResult& row) {
  if (row.impl == kOpenSsl) return nullptr;
  for (const RowResult& r : rows) {
    if (r.impl == kOpenSsl && r.algo == row.algo && r.batch == row.batch && r.operation == row.operation &&
        r.error.empty())
      return &r;
  }
  return nullptr;
}

std::optional<double> ratio(const RowResult& row, const RowResult* base, std::size_t i) {
  if (base == nullptr || i >= base->cells.size()) return std::nullopt;
  const CellResult& a = row.cells[i];
  const CellResult& b = base->cells[i];
  if (!a.measured || !b.measured) return std::nullopt;
  const double denominator = bytes_per_second(*base, b);
  if (denominator <= 0) return std::nullopt;
  return bytes_per_second(row, a) / denominator;
}

std::string row_label(const RowResult& row) {
  std::string label = row.algo + " [" + row_label_impl(row) + "]";
  if (row.batch != 0) label += " x" + std::to_string(row.batch);
  return label;
}

double bytes_per_second(const RowResult& row, const CellResult& cell) {
  return messages_per_second(row, cell) * static_cast<double>(cell.bytes);
}

double messages_per_second(const RowResult& row, const CellResult& cell) {
  if (!cell.measured || cell.measured->seconds <= 0) return 0;
  return static_cast<double>(cell.measured->runs) * static_cast<double>(row.messages()) / cell.measured->seconds;
}

}  // namespace cryptaccel::bench
