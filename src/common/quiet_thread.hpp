// Helper threads that leave asynchronous signals to the caller's thread.
#pragma once
#include <functional>
#include <thread>

namespace cryptaccel {

/// Starts `fn` on a thread that blocks asynchronous signals (SIGINT, SIGTERM, ...), so that they reach the caller's
/// thread (which reads the input and checks for a stop request); threads it starts inherit the mask. Signals raised
/// by the thread's own actions (SIGPIPE, SIGXFSZ, faults) stay unblocked so that they act as they would on the
/// caller's thread.
std::thread start_thread_without_signals(std::function<void()> fn);

}  // namespace cryptaccel
