// The speed harness (cryptaccel::bench): the results of a speed run and their two presentations, an `openssl
// speed`-like table and a JSON document (schema "cryptaccel-speed/1", docs/cli.md).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/bench/timer.hpp"

namespace cryptaccel::bench {

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

/// Bytes per second of a measured cell (0 when not measured).
double bytes_per_second(const RowResult& row, const CellResult& cell);

/// Messages (or operations) per second of a measured cell (0 when not measured).
double messages_per_second(const RowResult& row, const CellResult& cell);

/// The report as `cryptaccel speed` prints it on stdout: one header line (version, compiler, CPU, cores, threads,
/// seconds per cell; with --vs openssl a second one naming OpenSSL), then the tables: thousands of bytes per second
/// for single messages ("%.2fk", as `openssl speed`), with --batch messages per second, operation rows (RSA,
/// SHA-crypt) as seconds and operations per second, with --vs openssl ratio rows "ALGO [ENGINE/openssl]" (engine /
/// OpenSSL), and notes on the n/a cells.
std::string report_text(const SpeedSettings& settings, const std::vector<RowResult>& rows);

/// The whole report as JSON text (indented by 2, ending in a newline), as `cryptaccel speed --json` writes it:
/// schema, timestamp (now), machine, build, settings, one entry per cell, errors.
std::string report_json(const SpeedSettings& settings, const std::vector<RowResult>& rows);

}  // namespace cryptaccel::bench
