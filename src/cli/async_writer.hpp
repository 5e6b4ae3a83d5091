// A writer thread between a streaming command and its output, so that writing one batch overlaps computing the next.
// Pieces are copied into a bounded queue (at most `max_pending` bytes waiting); a write error is rethrown to the
// producer at its next write() or at finish(). Queued copies are wiped after writing (they may be plaintext).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {

class AsyncWriter {
 public:
  AsyncWriter(std::function<void(bytes_view)> write, std::size_t max_pending);
  ~AsyncWriter();  // stops the thread (dropping what is queued) if finish() was not reached
  AsyncWriter(const AsyncWriter&) = delete;
  AsyncWriter& operator=(const AsyncWriter&) = delete;

  /// Queues a copy of `data`; waits while more than max_pending bytes are queued.
  void write(bytes_view data);
  /// Waits until everything queued is written; rethrows a write error.
  void finish();

 private:
  void run();
  void rethrow_if_failed();

  std::function<void(bytes_view)> write_;
  std::size_t max_pending_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<bytes> queue_;
  std::size_t pending_ = 0;
  bool stop_ = false, busy_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace cryptaccel::cli
