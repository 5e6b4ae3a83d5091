// CipherStream::pipe (include/cryptaccel/stream.hpp): a stream run from its input to a writer on three threads over
// a pool of batch buffers, so that reading batch i + 1, processing batch i and writing batch i - 1 overlap and no
// input byte is copied in memory. Each buffer is laid out as
//   [ lead: kMaxCarry bytes | batch | growth: kGrowth bytes ]
// From a reader, the batch is read into the buffer and processed in place; from input in memory (a mapped file),
// the batch stays where it is and is processed into the buffer (the lead and batch areas). A batch in the middle of
// the stream is processed up to the last granule() boundary that leaves held_back() bytes (a GCM tag, XTS's last two
// blocks, a padded decryption's last block): those few bytes go with the next batch (copied into the lead of its
// buffer in front of its data; in memory they already are in front of it). The last batch ends the stream:
// crypt_last() adds or checks the padding or the tag, with the growth area for what it adds.
// With CRYPTACCEL_STREAM_STATS set, a finished pipe prints to stderr how long each stage was busy (reading or
// populating the input, processing, releasing processed pages of a mapped file, writing): the busiest stage is the
// one that bounds the stream.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "stream/cipher_stream_state.hpp"
#include "stream/mapped_file.hpp"
#include "common/quiet_thread.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/stream.hpp"

namespace cryptaccel {
namespace {

using State = CipherStream::State;

/// Busy time of each pipeline stage (CRYPTACCEL_STREAM_STATS).
class StageClock {
 public:
  enum Stage { read, populate, crypt, release, write, count };
  /// Runs fn() and adds its duration to `stage`.
  template <class F>
  auto timed(Stage stage, F&& fn) {
    const auto start = std::chrono::steady_clock::now();
    struct Add {
      std::atomic<std::int64_t>& to;
      std::chrono::steady_clock::time_point start;
      ~Add() { to += (std::chrono::steady_clock::now() - start).count(); }
    } add{ns_[stage], start};
    return fn();
  }
  /// Prints the busy times, when CRYPTACCEL_STREAM_STATS is set.
  void report(std::uint64_t bytes, std::size_t batches) const {
    if (!std::getenv("CRYPTACCEL_STREAM_STATS")) return;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - born_).count();
    auto ms = [&](Stage s) { return std::chrono::duration<double, std::milli>(std::chrono::nanoseconds(ns_[s].load())).count(); };
    std::fprintf(stderr,
                 "stream stats: %llu bytes in %zu batches, %.1f ms: busy read %.1f, populate %.1f, crypt %.1f, "
                 "release %.1f, write %.1f ms\n",
                 static_cast<unsigned long long>(bytes), batches, wall * 1e3, ms(read), ms(populate), ms(crypt),
                 ms(release), ms(write));
  }

 private:
  std::atomic<std::int64_t> ns_[count] = {};
  const std::chrono::steady_clock::time_point born_ = std::chrono::steady_clock::now();
};

class Pipeline {
 public:
  Pipeline(State& state, const StreamSink& write, const CipherStream::StreamProgress& progress = {})
      : state_(state), write_(write), progress_(progress) {
    for (std::size_t i = 0; i < state.pipeline_buffers; ++i)
      slots_.push_back(std::make_unique<Slot>(State::kMaxCarry + state.batch + State::kGrowth));
  }

  /// Runs `read_loop` (hands every batch to the processor) on the calling thread and the rest on two helper threads
  /// until the input ends or something fails; rethrows the first failure.
  void run(const std::function<void()>& read_loop) {
    for (std::size_t i = 0; i < slots_.size(); ++i) push(Queue::free, i);
    std::thread processor, writer;
    try {
      processor = start_thread_without_signals([this] { guarded([this] { process_loop(); }); });
      writer = start_thread_without_signals([this] { guarded([this] { write_loop(); }); });
      read_loop();
    } catch (...) {
      fail(std::current_exception());
    }
    if (processor.joinable()) processor.join();
    if (writer.joinable()) writer.join();
    if (error_) std::rethrow_exception(error_);
    clock_.report(state_.bytes_in, batches_);
  }

  /// Reads every batch with `read` into a free buffer.
  void read_loop(const StreamReader& read) {
    for (;;) {
      const std::optional<std::size_t> index = pop(Queue::free);
      if (!index) return;
      Slot& slot = *slots_[*index];
      slot.src = nullptr;
      slot.length = clock_.timed(StageClock::read, [&] {
        return read(mutable_bytes(slot.buffer.data.data() + State::kMaxCarry, state_.batch));
      });
      slot.last = slot.length < state_.batch;
      state_.bytes_in += slot.length;
      push(Queue::read, *index);
      if (slot.last) return;
    }
  }

  /// Hands out `input` a batch at a time, each batch's pages populated first (a mapped file's page faults taken
  /// here, beside the processing, rather than in the engine's threads); `check` after each.
  void read_loop(bytes_view input, const CipherStream::StreamCheck& check) {
    for (std::size_t offset = 0;;) {
      const std::optional<std::size_t> index = pop(Queue::free);
      if (!index) return;
      Slot& slot = *slots_[*index];
      slot.src = input.data() + offset;
      slot.length = std::min(state_.batch, input.size() - offset);
      clock_.timed(StageClock::populate, [&] { populate_in_parallel(slot.src, slot.length); });
      offset += slot.length;
      slot.last = offset == input.size();
      state_.bytes_in += slot.length;
      push(Queue::read, *index);
      if (slot.last) return;
      if (check) check(offset);
    }
  }

 private:
  struct Slot {
    SecretBuffer buffer;                // lead | batch | growth (see the file comment)
    std::unique_ptr<engine::HostBufferPin> pin;  // the engine's hold on `buffer` (released before it)
    std::size_t uses = 0;               // batches processed in this buffer
    const std::uint8_t* src = nullptr;  // the batch's input in memory, or nullptr: read into the batch area
    std::size_t begin = 0;              // the output: buffer[begin, begin + length)
    std::size_t length = 0;             // bytes of input, then bytes of output
    bool last = false;                  // the end of the input
    explicit Slot(std::size_t size) : buffer(size) {}
  };

  /// populate() over [p, p + n) in up to kPopulateThreads pieces at once (one per four cores): page-table work of
  /// one thread runs at 10-30 GB/s, under what many cores process.
  void populate_in_parallel(const std::uint8_t* p, std::size_t n) {
    const std::size_t pieces = std::min<std::size_t>(
        {kPopulateThreads, std::max<std::size_t>(1, state_.threads / 4), std::max<std::size_t>(1, n >> 24)});
    if (pieces <= 1) return populate(p, n);
    const std::size_t piece = (n + pieces - 1) / pieces;
    std::vector<std::thread> helpers;
    for (std::size_t k = 1; k < pieces; ++k) {
      const std::size_t b = std::min(n, k * piece);
      helpers.push_back(start_thread_without_signals([=] { populate(p + b, std::min(n, b + piece) - b); }));
    }
    populate(p, std::min(n, piece));
    for (std::thread& t : helpers) t.join();
  }
  static constexpr std::size_t kPopulateThreads = 4;

  /// Asks the kernel to map the pages of [p, p + n) now (MADV_POPULATE_READ, Linux 5.14); a hint: where it is not
  /// supported, or the file behind the pages shrank, the processing's own page faults do the work (or fail).
  static void populate(const std::uint8_t* p, std::size_t n) {
#ifndef MADV_POPULATE_READ
    constexpr int MADV_POPULATE_READ = 22;
#endif
    static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    if (n == 0) return;
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
    const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(p) + n;
    madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_READ);
  }
  /// Slots waiting to be read into, processed, and written.
  enum class Queue { free, read, processed };

  void push(Queue q, std::size_t slot) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queues_[static_cast<int>(q)].push_back(slot);
    }
    changed_.notify_all();
  }

  /// The next slot in `q`; nothing once the pipeline failed.
  std::optional<std::size_t> pop(Queue q) {
    std::deque<std::size_t>& queue = queues_[static_cast<int>(q)];
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return error_ || !queue.empty(); });
    if (error_) return std::nullopt;
    const std::size_t slot = queue.front();
    queue.pop_front();
    return slot;
  }

  /// Records the first failure and wakes every thread, which then stops.
  void fail(std::exception_ptr e) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::move(e);
    }
    changed_.notify_all();
  }

  void guarded(const std::function<void()>& body) {
    try {
      body();
    } catch (...) {
      fail(std::current_exception());
    }
  }

  void process_loop() {
    std::uint8_t carry[State::kMaxCarry];  // input held back from the previous batch
    std::size_t carried = 0;
    struct WipeCarry {
      std::uint8_t* bytes;
      ~WipeCarry() { secure_wipe(bytes, State::kMaxCarry); }
    } wipe{carry};
    for (;;) {
      const std::optional<std::size_t> index = pop(Queue::read);
      if (!index) return;
      Slot& slot = *slots_[*index];
      // In memory the bytes carried over are right in front of the batch; a read batch gets a copy of them.
      const std::uint8_t* in;
      std::uint8_t* out;
      if (slot.src) {
        in = slot.src - carried;
        out = slot.buffer.data.data();
      } else {
        in = out = slot.buffer.data.data() + State::kMaxCarry - carried;
        std::memcpy(out, carry, carried);
      }
      slot.begin = static_cast<std::size_t>(out - slot.buffer.data.data());
      // A buffer in use for the second time belongs to a stream of several batches: worth the engine's pinning
      // (a GPU page-locks it, a one-time cost of a few milliseconds, so that its copies skip staging).
      if (++slot.uses == 2 && state_.batch_engine)
        slot.pin = state_.batch_engine->pin_host_buffer(slot.buffer.data.data(), slot.buffer.data.size());
      const std::size_t total = carried + slot.length;
      if (slot.last) {
        slot.length = clock_.timed(StageClock::crypt, [&] { return state_.crypt_last(in, out, total); });
        ++batches_;
        push(Queue::processed, *index);
        return;
      }
      const std::size_t keep = state_.held_back(), granule = state_.granule();
      const std::size_t n = total > keep ? (total - keep) / granule * granule : 0;
      slot.length = clock_.timed(StageClock::crypt, [&] { return state_.crypt(in, out, n); });
      ++batches_;
      carried = total - n;
      if (!slot.src) std::memcpy(carry, in + n, carried);
      push(Queue::processed, *index);
      processed_ += n;
      // Releasing here, between batches, measured faster on 2 cores than on the reader thread (there it interrupts
      // the engine's threads with TLB shoot-downs mid-batch): AES-128-CTR 1 GiB 0.14 s vs 0.16 s, GCM 0.16 vs 0.19.
      if (progress_) clock_.timed(StageClock::release, [&] { progress_(processed_); });
    }
  }

  void write_loop() {
    for (;;) {
      const std::optional<std::size_t> index = pop(Queue::processed);
      if (!index) return;
      Slot& slot = *slots_[*index];
      if (slot.length)
        clock_.timed(StageClock::write, [&] { write_(bytes_view(slot.buffer.data.data() + slot.begin, slot.length)); });
      if (slot.last) return;
      push(Queue::free, *index);
    }
  }

  StageClock clock_;
  std::size_t batches_ = 0;  // processed (processing thread only)
  State& state_;
  const StreamSink& write_;
  const CipherStream::StreamProgress progress_;   // in-memory input: called after each batch with the bytes done
  std::uint64_t processed_ = 0;                   // input bytes processed so far (processing thread)
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> queues_[3];
  std::exception_ptr error_;
};

/// Fills `buffer` from `fd` at file offset `offset` in up to `pieces` pread()s at once (the calling thread reads the
/// first piece, helper threads the others: one thread copies out of the page cache at 5-10 GB/s). Returns the bytes
/// read, fewer than buffer.size() only at the end of the file. `on_interrupt` runs on the calling thread when its read
/// is interrupted by a signal (it may throw). Throws std::system_error("cannot read NAME") on a read error, and Error
/// when the file's end moved during the call (a piece came back short with bytes after it).
std::size_t pread_in_parallel(int fd, std::uint64_t offset, mutable_bytes buffer, std::size_t pieces,
                              const std::string& name, const std::function<void()>& on_interrupt) {
  pieces = std::max<std::size_t>(1, std::min(pieces, buffer.size() >> 16));  // pieces of at least 64 KiB
  const std::size_t piece = (buffer.size() + pieces - 1) / pieces;
  std::vector<std::size_t> got(pieces, 0);
  std::vector<int> error(pieces, 0);
  auto read_piece = [&](std::size_t k, bool caller) {
    const std::size_t b = std::min(buffer.size(), k * piece), len = std::min(buffer.size(), b + piece) - b;
    while (got[k] < len) {
      const ssize_t n = ::pread(fd, buffer.data() + b + got[k], len - got[k], static_cast<off_t>(offset + b + got[k]));
      if (n == 0) return;
      if (n > 0) {
        got[k] += static_cast<std::size_t>(n);
      } else if (errno != EINTR) {
        error[k] = errno;
        return;
      } else if (caller && on_interrupt) {
        on_interrupt();
      }
    }
  };
  {
    std::vector<std::thread> helpers;
    struct Join {  // also when the caller's piece throws (on_interrupt)
      std::vector<std::thread>& threads;
      ~Join() {
        for (std::thread& t : threads) t.join();
      }
    } join{helpers};
    for (std::size_t k = 1; k < pieces; ++k)
      helpers.push_back(start_thread_without_signals([&read_piece, k] { read_piece(k, false); }));
    read_piece(0, true);
  }
  for (int e : error)
    if (e) throw std::system_error(e, std::generic_category(), "cannot read " + name);
  std::size_t total = 0;
  for (std::size_t k = 0; k < pieces; ++k) {
    if (total < std::min(buffer.size(), k * piece) && got[k])  // bytes after a short piece
      throw Error("cannot read " + name + ": the file changed while it was being read");
    total += got[k];
  }
  return total;
}

/// The stream a pipe() may run: one that has taken no input and is not finished.
CipherStream::State& fresh(CipherStream::State& s) {
  if (s.finished) throw InvalidArgument("stream already finished");
  if (s.bytes_in != 0) throw InvalidArgument("pipe() takes a stream that has had no input yet");
  return s;
}

}  // namespace

void CipherStream::pipe(const StreamReader& read, const StreamSink& write) {
  State& s = fresh(*state_);
  s.finished = true;
  Pipeline pipeline(s, write);
  pipeline.run([&] { pipeline.read_loop(read); });
}

void CipherStream::pipe(bytes_view input, const StreamSink& write, const StreamProgress& progress) {
  State& s = fresh(*state_);
  s.finished = true;
  Pipeline pipeline(s, write, progress);
  pipeline.run([&] { pipeline.read_loop(input, {}); });
}

void CipherStream::pipe_fd(int fd, std::string_view name, const StreamSink& write, const StreamCheck& check) {
  State& s = fresh(*state_);
  // A regular file for an engine off the host threads (a GPU): read into the batch buffers, which the engine pins,
  // so that each batch goes to the device and back by DMA with no host copy (the mapped path below would need one,
  // from the mapping into the engine's staging memory). Several reads at once keep up with the device.
  using FileInput = StreamOptions::FileInput;
  const bool read_regular = s.file_input == FileInput::read ||
                            (s.file_input == FileInput::automatic && s.batch_engine &&
                             !s.batch_engine->runs_on_host_threads());
  struct stat st {};
  const off_t start = lseek(fd, 0, SEEK_CUR);
  if (read_regular && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && start >= 0 && st.st_size >= start) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const std::string file(name);
    const std::size_t pieces = std::min<std::size_t>(4, std::max<std::size_t>(1, s.threads / 4));
    std::uint64_t taken = 0;
    pipe(
        [&](mutable_bytes buffer) {
          const std::size_t got = pread_in_parallel(fd, static_cast<std::uint64_t>(start) + taken, buffer, pieces,
                                                    file, [&] { if (check) check(taken); });
          taken += got;
          if (check) check(taken);
          return got;
        },
        write);
    lseek(fd, start + static_cast<off_t>(taken), SEEK_SET);
    if (static_cast<std::uint64_t>(start) + taken < size)
      throw Error("cannot read " + file + ": the file shrank while it was being read");
    return;
  }
  if (const std::unique_ptr<MappedFile> mapped = MappedFile::try_map(fd, s.chunk)) {
    s.finished = true;
    Pipeline pipeline(s, write, [&](std::uint64_t processed) { mapped->release_before(processed); });
    pipeline.run([&] { pipeline.read_loop(mapped->data(), check); });
    if (mapped->shrunk())
      throw Error("cannot read " + std::string(name) + ": the file shrank while it was being read");
    return;
  }
  std::uint64_t taken = 0;
  pipe(
      [&](mutable_bytes buffer) {
        std::size_t got = 0;
        while (got < buffer.size()) {
          const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
          if (n == 0) break;
          if (n > 0) {
            got += static_cast<std::size_t>(n);
          } else if (errno == EINTR) {
            if (check) check(taken + got);
          } else {
            throw std::system_error(errno, std::generic_category(), "cannot read " + std::string(name));
          }
        }
        taken += got;
        if (check) check(taken);
        return got;
      },
      write);
}

}  // namespace cryptaccel
