// The speed harness (cryptaccel::bench): how things are timed. time_cells is the side-by-side timer of `cryptaccel
// speed` and cryptaccel.bench; seconds_of, median and best_of are the plain wall-clock helpers of the GPU benchmarks
// (bench/gpu/*_bench.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace cryptaccel::bench {

/// A prepared measurement: keys, inputs and outputs are allocated and filled once; each run() processes the same
/// messages again.
class Cell {
 public:
  virtual ~Cell() = default;
  /// Processes every message once. Throws std::runtime_error (one line) when the implementation reports a failure.
  virtual void run() = 0;
};

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

/// Wall-clock (steady_clock) seconds that one call of `fn` takes.
double seconds_of(const std::function<void()>& fn);

/// The median of `samples` (non-empty): after sorting, the element at index size / 2 (the upper one of the middle
/// two for an even count).
double median(std::vector<double> samples);

/// The fastest of `reps` calls of `fn`, in seconds (1e30 when `reps` is 0).
double best_of(int reps, const std::function<void()>& fn);

}  // namespace cryptaccel::bench
