// The speed harness: the side-by-side timing loop, and the wall-clock helpers of the GPU benchmarks.
#include "cryptaccel/bench/timer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <new>

namespace cryptaccel::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

/// Slices per cell: enough turns that a disturbance of a few tens of milliseconds is shared, few enough that each
/// slice is long against the cache and branch-predictor state a switch of cells costs.
constexpr int kSlices = 10;

/// One cell's timing state across its slices.
struct Turns {
  Cell* cell = nullptr;
  Measurement total;
  std::uint64_t chunk = 1;  ///< calls between clock reads, adapted to about 1% of the budget
  bool dropped = false;

  /// Runs the cell for about `slice` seconds (at least one chunk), never more than `left` in all.
  void run_slice(double slice, double left, double chunk_target) {
    const Clock::time_point start = Clock::now();
    Clock::time_point now = start;
    for (;;) {
      const Clock::time_point chunk_start = now;
      for (std::uint64_t i = 0; i < chunk; ++i) cell->run();
      total.runs += chunk;
      now = Clock::now();
      const double elapsed = seconds_between(start, now);
      if (elapsed >= std::min(slice, left)) break;
      // Next chunk: about chunk_target long, never past the end of the slice, at most twice the last one.
      const double per_run = std::max(seconds_between(chunk_start, now) / static_cast<double>(chunk), 1e-9);
      const double want = std::min(chunk_target, std::min(slice, left) - elapsed) / per_run;
      chunk = static_cast<std::uint64_t>(std::clamp(std::floor(want), 1.0, 2.0 * static_cast<double>(chunk)));
    }
    total.seconds += seconds_between(start, now);
  }
};

}  // namespace

std::vector<Measurement> time_cells(std::span<Cell* const> cells, double budget_seconds,
                                    std::vector<std::string>& errors) {
  errors.assign(cells.size(), {});
  std::vector<Turns> turns(cells.size());
  const auto drop = [&](std::size_t i, const std::exception& e) {
    turns[i].dropped = true;
    turns[i].total = {};
    errors[i] = dynamic_cast<const std::bad_alloc*>(&e) != nullptr ? std::string("out of memory") : e.what();
  };
  for (std::size_t i = 0; i < cells.size(); ++i) {
    turns[i].cell = cells[i];
    try {
      cells[i]->run();  // warm-up: first-touch page faults, lazy initialisation, caches
    } catch (const std::exception& e) {
      drop(i, e);
    }
  }
  const double slice = budget_seconds / kSlices, chunk_target = budget_seconds / 100;
  for (bool more = true; more;) {
    more = false;
    for (std::size_t i = 0; i < turns.size(); ++i) {
      Turns& t = turns[i];
      const double left = budget_seconds - t.total.seconds;
      if (t.dropped || (left <= 0 && t.total.runs > 0)) continue;
      try {
        t.run_slice(slice, left, chunk_target);
      } catch (const std::exception& e) {
        drop(i, e);
        continue;
      }
      more = more || t.total.seconds < budget_seconds;
    }
  }
  std::vector<Measurement> out;
  for (const Turns& t : turns) out.push_back(t.total);
  return out;
}

double seconds_of(const std::function<void()>& fn) {
  const Clock::time_point start = Clock::now();
  fn();
  return seconds_between(start, Clock::now());
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

double best_of(int reps, const std::function<void()>& fn) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) best = std::min(best, seconds_of(fn));
  return best;
}

}  // namespace cryptaccel::bench
