// `cryptaccel speed`: how one cell is timed.
#pragma once
#include <cstdint>

#include "speed_workload.hpp"

namespace cryptaccel::cli::speed {

/// The outcome of timing a cell.
struct Measurement {
  std::uint64_t runs = 0;  ///< timed Cell::run() calls (the warm-up call not included)
  double seconds = 0;      ///< steady_clock time they took
};

/// Calls cell.run() once to warm up, then repeatedly until `budget_seconds` of steady_clock time are spent (at least
/// once). The clock is read after chunks of calls sized to about 1% of the budget, so that reading it costs nothing
/// measurable even for 16-byte messages; the overshoot is at most one chunk. Exceptions from the cell propagate.
Measurement time_cell(Cell& cell, double budget_seconds);

}  // namespace cryptaccel::cli::speed
