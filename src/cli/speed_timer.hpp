// `cryptaccel speed`: how cells are timed.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "speed_workload.hpp"

namespace cryptaccel::cli::speed {

/// The outcome of timing a cell.
struct Measurement {
  std::uint64_t runs = 0;  ///< timed Cell::run() calls (the warm-up call not included)
  double seconds = 0;      ///< steady_clock time they took
};

/// Times the cells of one size side by side (the engines and OpenSSL): after one warm-up call each, they take turns
/// in slices of about a tenth of `budget_seconds` until each has had its budget (each at least one call), so that a
/// slow phase of the machine (another process, a frequency change) falls on all of them alike and their ratios hold.
/// Within a slice the clock is read after chunks of calls sized to about 1% of the budget, so that reading it costs
/// nothing measurable even for 16-byte messages. A cell that throws is dropped: its message goes to `errors[i]`
/// (resized to cells.size(); empty for the others) and its measurement is left empty.
std::vector<Measurement> time_cells(std::span<Cell* const> cells, double budget_seconds,
                                    std::vector<std::string>& errors);

}  // namespace cryptaccel::cli::speed
