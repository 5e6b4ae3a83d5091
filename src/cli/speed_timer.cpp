// `cryptaccel speed`: the timing loop.
#include "speed_timer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace cryptaccel::cli::speed {

Measurement time_cell(Cell& cell, double budget_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };

  cell.run();  // warm-up: first-touch page faults, lazy initialisation, caches

  const double chunk_target = budget_seconds / 100;
  std::uint64_t runs = 0;
  std::uint64_t chunk = 1;
  const Clock::time_point start = Clock::now();
  Clock::time_point now = start;
  for (;;) {
    const Clock::time_point chunk_start = now;
    for (std::uint64_t i = 0; i < chunk; ++i) cell.run();
    runs += chunk;
    now = Clock::now();
    const double elapsed = seconds_since(start, now);
    if (elapsed >= budget_seconds) break;
    // Next chunk: about chunk_target long, never past the end of the budget, at most twice the last one.
    const double per_run = std::max(seconds_since(chunk_start, now) / static_cast<double>(chunk), 1e-9);
    const double want = std::min(chunk_target, budget_seconds - elapsed) / per_run;
    chunk = static_cast<std::uint64_t>(std::clamp(std::floor(want), 1.0, 2.0 * static_cast<double>(chunk)));
  }
  return {runs, seconds_since(start, now)};
}

}  // namespace cryptaccel::cli::speed
