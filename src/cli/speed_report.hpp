// `cryptaccel speed`: the results, and their two presentations: an `openssl speed`-like table and a JSON document.
#pragma once
#include <cstddef>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "speed_machine.hpp"
#include "speed_timer.hpp"

namespace cryptaccel::cli::speed {

/// One (algorithm, implementation, message size) measurement.
struct CellResult {
  std::size_t bytes = 0;                ///< message size
  std::optional<Measurement> measured;  ///< nullopt: not timed (n/a, see note)
  std::string note;                     ///< why not timed
};

/// One algorithm on one implementation, all sizes: a row of the table.
struct RowResult {
  std::string algo;               ///< canonical workload name
  std::string impl;               ///< as asked for: an engine name, "auto", or "openssl"
  std::string impl_used;          ///< what ran: "auto" resolved; otherwise impl
  std::size_t batch = 0;          ///< 0: one message per call; else messages per run_batch call (--batch)
  std::string operation;          ///< Workload::operations() entry of an operation row (RSA "sign"); empty otherwise
  std::vector<CellResult> cells;  ///< one per size, in --bytes order
  std::string error;  ///< verification or run failure: the row is left out of the table, and the exit status is 1

  /// Messages per timed call.
  std::size_t messages() const { return batch == 0 ? 1 : batch; }
};

/// What was asked for, echoed in the JSON and the table header.
struct SpeedSettings {
  std::vector<std::string> algorithms;
  std::vector<std::string> engines;
  std::vector<std::size_t> sizes;
  double seconds = 1.0;
  std::size_t threads = 0;
  std::size_t batch = 0;  ///< 0: no --batch
  bool vs_openssl = false;
};

/// "aes-128-ctr [ref]", "aes-128-ctr [auto:ref]", "aes-128-ctr [openssl]"; batch rows end in " x<M>".
std::string row_label(const RowResult& row);

/// Bytes and messages per second of a measured cell.
double bytes_per_second(const RowResult& row, const CellResult& cell);
double messages_per_second(const RowResult& row, const CellResult& cell);

/// Writes the tables: thousands of bytes per second for single messages ("%.2fk", as `openssl speed`), then, with
/// --batch, messages per second; with --vs openssl, ratio rows "ALGO [ENGINE/openssl]" (engine / OpenSSL).
void print_tables(std::FILE* out, const SpeedSettings& settings, const std::vector<RowResult>& rows);

/// The whole report: timestamp, machine, build, settings, one entry per cell, errors.
Json report_json(const SpeedSettings& settings, const std::vector<RowResult>& rows);

}  // namespace cryptaccel::cli::speed
