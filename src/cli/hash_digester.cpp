// `cryptaccel hash`: reading files and hashing them in batches (small files) or streaming (large ones).
#include "hash_digester.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace cryptaccel::cli::hash {
namespace {

/// Reads until `want` bytes or end of file; returns the count, or -1 with errno set.
ssize_t read_up_to(int fd, std::uint8_t* out, std::size_t want) {
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::read(fd, out + got, want - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

/// Closes a file descriptor on scope exit (standard input is left open).
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd > STDERR_FILENO) ::close(fd);
  }
};

}  // namespace

void check_engine(HashAlgorithm algorithm, const std::string& engine) {
  const Hasher streaming(algorithm, engine);  // throws EngineUnavailable
  BatchOptions options;
  options.engine = engine;
  hash_batch(algorithm, std::span<HashJob>{}, options);  // throws EngineUnavailable
}

Digester::Digester(HashAlgorithm algorithm, std::string engine, DigesterLimits limits)
    : algorithm_(algorithm), engine_(std::move(engine)), limits_(limits) {
  limits_.small_file = std::max<std::size_t>(limits_.small_file, 1);
  limits_.chunk = std::clamp<std::size_t>(limits_.chunk, 1, limits_.small_file);
  limits_.batch_jobs = std::max<std::size_t>(limits_.batch_jobs, 1);
}

void Digester::submit(const std::string& path, std::size_t out_len, bool skip_missing, Done done) {
  Entry entry;
  entry.done = std::move(done);
  read_file(path, out_len, skip_missing, entry);
  if (entry.waiting) {
    if (!held_.empty() && (held_bytes_ + small_size_ > limits_.batch_bytes || held_.size() >= limits_.batch_jobs)) {
      flush();
    }
    entry.input = held_.size();
    held_.emplace_back(scratch_.begin(), scratch_.begin() + static_cast<std::ptrdiff_t>(small_size_));
    held_bytes_ += small_size_;
  }
  queue_.push_back(std::move(entry));
  deliver_ready();
}

void Digester::submit_note(Note note) {
  Entry entry;
  entry.note = std::move(note);
  queue_.push_back(std::move(entry));
  deliver_ready();
}

void Digester::read_file(const std::string& path, std::size_t out_len, bool skip_missing, Entry& entry) {
  DigestOutcome& outcome = entry.outcome;
  const bool is_stdin = path == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (skip_missing && errno == ENOENT) {
      outcome.missing = true;
    } else {
      outcome.error = errno;
    }
    return;
  }
  const FdCloser closer{is_stdin ? -1 : fd};
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);

  // The first small_file bytes decide: a file that ends before them is held for a batch.
  scratch_.resize(limits_.small_file);
  const ssize_t first = read_up_to(fd, scratch_.data(), scratch_.size());
  if (first < 0) {
    outcome.error = errno;
    return;
  }
  outcome.digest.assign(out_len, 0);
  if (static_cast<std::size_t>(first) < limits_.small_file) {
    small_size_ = static_cast<std::size_t>(first);
    entry.waiting = true;
    return;
  }

  Hasher hasher(algorithm_, engine_);
  hasher.update(scratch_);
  for (;;) {
    const ssize_t n = read_up_to(fd, scratch_.data(), limits_.chunk);
    if (n < 0) {
      outcome.error = errno;
      outcome.digest.clear();
      return;
    }
    if (n == 0) break;
    hasher.update(bytes_view(scratch_).first(static_cast<std::size_t>(n)));
  }
  hasher.digest_into(outcome.digest);
  outcome.ok = true;
}

void Digester::flush() {
  if (!held_.empty()) {
    std::vector<HashJob> jobs;
    std::vector<Entry*> owners;
    jobs.reserve(held_.size());
    owners.reserve(held_.size());
    for (Entry& entry : queue_) {
      if (!entry.waiting) continue;
      jobs.push_back(HashJob{held_[entry.input], entry.outcome.digest});
      owners.push_back(&entry);
    }
    BatchOptions options;
    options.engine = engine_;
    hash_batch(algorithm_, jobs, options);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      Entry& entry = *owners[i];
      entry.waiting = false;
      if (jobs[i].status == JobStatus::ok) {
        entry.outcome.ok = true;
      } else {
        entry.outcome.digest.clear();
        entry.outcome.message = jobs[i].error.empty() ? std::string("the engine did not hash it") : jobs[i].error;
      }
    }
    held_.clear();
    held_bytes_ = 0;
  }
  deliver_ready();
}

void Digester::deliver_ready() {
  while (!queue_.empty() && !queue_.front().waiting) {
    Entry entry = std::move(queue_.front());
    queue_.pop_front();
    if (entry.note) {
      entry.note();
    } else {
      entry.done(entry.outcome);
    }
  }
}

}  // namespace cryptaccel::cli::hash
