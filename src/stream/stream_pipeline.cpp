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
#include <sys/mman.h>
#include <unistd.h>
#include <pthread.h>

#include <algorithm>
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
#include "cryptaccel/error.hpp"
#include "cryptaccel/stream.hpp"

namespace cryptaccel {
namespace {

using State = CipherStream::State;

/// Starts `fn` on a thread that blocks asynchronous signals (SIGINT, SIGTERM, ...), so that they reach the caller's
/// thread, which reads; threads it starts inherit the mask. Signals raised by the thread's own actions (SIGPIPE,
/// SIGXFSZ, faults) stay unblocked so that they act as they would on the caller's thread.
std::thread start_thread_without_signals(std::function<void()> fn) {
  sigset_t blocked, old;
  sigfillset(&blocked);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS, SIGPIPE, SIGXFSZ}) sigdelset(&blocked, sig);
  pthread_sigmask(SIG_BLOCK, &blocked, &old);
  struct RestoreMask {
    sigset_t& mask;
    ~RestoreMask() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } restore{old};
  return std::thread(std::move(fn));
}

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
  }

  /// Reads every batch with `read` into a free buffer.
  void read_loop(const StreamReader& read) {
    for (;;) {
      const std::optional<std::size_t> index = pop(Queue::free);
      if (!index) return;
      Slot& slot = *slots_[*index];
      slot.src = nullptr;
      slot.length = read(mutable_bytes(slot.buffer.data.data() + State::kMaxCarry, state_.batch));
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
      populate(slot.src, slot.length);
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
    const std::uint8_t* src = nullptr;  // the batch's input in memory, or nullptr: read into the batch area
    std::size_t begin = 0;              // the output: buffer[begin, begin + length)
    std::size_t length = 0;             // bytes of input, then bytes of output
    bool last = false;                  // the end of the input
    explicit Slot(std::size_t size) : buffer(size) {}
  };

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
      const std::size_t total = carried + slot.length;
      if (slot.last) {
        slot.length = state_.crypt_last(in, out, total);
        push(Queue::processed, *index);
        return;
      }
      const std::size_t keep = state_.held_back(), granule = state_.granule();
      const std::size_t n = total > keep ? (total - keep) / granule * granule : 0;
      slot.length = state_.crypt(in, out, n);
      carried = total - n;
      if (!slot.src) std::memcpy(carry, in + n, carried);
      push(Queue::processed, *index);
      processed_ += n;
      if (progress_) progress_(processed_);
    }
  }

  void write_loop() {
    for (;;) {
      const std::optional<std::size_t> index = pop(Queue::processed);
      if (!index) return;
      Slot& slot = *slots_[*index];
      if (slot.length) write_(bytes_view(slot.buffer.data.data() + slot.begin, slot.length));
      if (slot.last) return;
      push(Queue::free, *index);
    }
  }

  State& state_;
  const StreamSink& write_;
  const CipherStream::StreamProgress progress_;   // in-memory input: called after each batch with the bytes done
  std::uint64_t processed_ = 0;                   // input bytes processed so far
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> queues_[3];
  std::exception_ptr error_;
};

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
