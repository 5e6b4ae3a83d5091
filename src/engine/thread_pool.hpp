// Host threads for engines that run on CPU cores: one process-wide pool, started on first use.
#pragma once
#include <cstddef>
#include <functional>

namespace cryptaccel::engine {

/// Logical CPUs of this machine (at least 1).
std::size_t hardware_threads();

/// Calls `fn(i)` for every i in [0, n) on up to `threads` host threads (0: all cores), the calling thread included,
/// and returns when every call has returned. Each thread starts on a contiguous share of the items (the caller's is
/// the first) and then takes over what the others have not started, so uneven items balance. The first
/// exception thrown by `fn` is rethrown here after the other calls have finished. Safe to nest.
void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn);

}  // namespace cryptaccel::engine
