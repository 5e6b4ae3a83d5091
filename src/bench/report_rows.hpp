// The speed harness, inside: what the table and the JSON both need to know about rows (report_rows.cpp).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/bench/report.hpp"

namespace cryptaccel::bench {

/// "ref", "openssl", "auto:ref" (auto, and what it resolved to).
std::string row_label_impl(const RowResult& row);

/// The OpenSSL row that `row` is compared with (same algorithm, batch and operation, no error), or null.
const RowResult* openssl_row(const std::vector<RowResult>& rows, const RowResult& row);

/// engine / OpenSSL for cell i, when both were timed.
std::optional<double> ratio(const RowResult& row, const RowResult* base, std::size_t i);

}  // namespace cryptaccel::bench
