#include "async_writer.hpp"

namespace cryptaccel::cli {

AsyncWriter::AsyncWriter(std::function<void(bytes_view)> write, std::size_t max_pending)
    : write_(std::move(write)), max_pending_(max_pending), thread_([this] { run(); }) {}

AsyncWriter::~AsyncWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
  for (bytes& b : queue_) secure_wipe(b.data(), b.size());
}

void AsyncWriter::rethrow_if_failed() {
  if (error_) std::rethrow_exception(error_);
}

void AsyncWriter::write(bytes_view data) {
  if (data.empty()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return error_ || pending_ <= max_pending_; });
  rethrow_if_failed();
  queue_.emplace_back(data.begin(), data.end());
  pending_ += data.size();
  changed_.notify_all();
}

void AsyncWriter::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return error_ || (queue_.empty() && !busy_); });
  rethrow_if_failed();
}

void AsyncWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_ || error_) return;
    bytes piece = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      write_(piece);
    } catch (...) {
      failed = std::current_exception();
    }
    secure_wipe(piece.data(), piece.size());
    lock.lock();
    busy_ = false;
    pending_ -= piece.size();
    if (failed) error_ = failed;
    changed_.notify_all();
    if (error_) return;
  }
}

}  // namespace cryptaccel::cli
