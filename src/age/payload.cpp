// The payload's chunks: chunk i (from 0) is sealed with ChaCha20-Poly1305 under the payload key with the nonce
// i as an 11-byte big-endian counter followed by a flag byte, 1 for the last chunk and 0 for the others. Only the last
// chunk may be shorter than 64 KiB, and it may be empty only when it is the only one (an empty file). A batch reads
// as many chunks as it holds; the last full chunk of a batch is carried over until the input shows whether more
// follows, since only then is it known whether it is the last.
#include "age/payload.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "common/quiet_thread.hpp"

#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel::age {
namespace {

constexpr std::size_t kTag = 16;
constexpr std::size_t kSealedChunk = kChunkBytes + kTag;

std::size_t chunks_per_batch(const EngineOptions& run) {
  if (run.chunks_per_batch) return std::max<std::size_t>(run.chunks_per_batch, 2);
  const std::size_t threads = run.threads ? run.threads : std::max(1u, std::thread::hardware_concurrency());
  // 1 MiB a thread per batch, at most 16 MiB: with the two output buffers under 50 MiB on any machine, whatever the
  // size of the file.
  return std::clamp<std::size_t>(16 * threads, 16, 256);
}

/// The 12-byte nonce of chunk `index`.
std::array<std::uint8_t, 12> chunk_nonce(std::uint64_t index, bool last) {
  std::array<std::uint8_t, 12> n{};
  for (int i = 0; i < 8; ++i) n[10 - i] = static_cast<std::uint8_t>(index >> (8 * i));  // bytes 0..2 stay zero
  n[11] = last ? 1 : 0;
  return n;
}

/// Writes one buffer at a time on a thread of its own, so that a batch's output reaches the sink (a file: page-cache
/// copies and allocation in the kernel) while the next batch is read and sealed. The sink is called in order, from
/// one thread at a time.
class BackgroundWriter {
 public:
  explicit BackgroundWriter(const StreamSink& write)
      : write_(write), thread_(start_thread_without_signals([this] { loop(); })) {}
  ~BackgroundWriter() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  /// Waits until the previous buffer is written (rethrowing what its write threw), then starts writing `data`, which
  /// must stay valid until the next submit() or wait().
  void submit(bytes_view data) {
    wait();
    std::lock_guard lock(mutex_);
    pending_ = data;
    busy_ = true;
    wake_.notify_all();
  }
  /// Waits until nothing is being written; rethrows the write's exception.
  void wait() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return !busy_; });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return busy_ || stop_; });
      if (!busy_) return;
      const bytes_view data = pending_;
      lock.unlock();
      std::exception_ptr error;
      try {
        write_(data);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      busy_ = false;
      wake_.notify_all();
    }
  }

  const StreamSink& write_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bytes_view pending_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

/// Runs `jobs` on the engine the options name; ChaCha20-Poly1305 with 16-byte tags.
void run_chunks(std::span<CipherJob> jobs, Direction dir, const EngineOptions& run) {
  static const CipherSpec spec = CipherSpec::parse("chacha20-poly1305");
  BatchOptions options;
  options.engine = run.engine;
  options.threads = run.threads;
  run_batch(spec, dir, jobs, options);
}

}  // namespace

void seal_payload(const std::array<std::uint8_t, 32>& key, const StreamReader& in, const StreamSink& write,
                  const EngineOptions& run) {
  const std::size_t batch = chunks_per_batch(run);
  bytes plain(batch * kChunkBytes), outputs[2] = {bytes(batch * kSealedChunk), bytes(batch * kSealedChunk)};
  std::vector<std::array<std::uint8_t, 12>> nonces(batch);
  std::vector<CipherJob> jobs;
  std::uint64_t index = 0;
  std::size_t carried = 0;  // bytes at the start of `plain` from the previous batch (its last full chunk)
  BackgroundWriter writer(write);
  struct WipeOnExit {  // the plaintext, on every way out
    bytes& plain;
    ~WipeOnExit() { secure_wipe(plain.data(), plain.size()); }
  } wipe{plain};
  for (int turn = 0;; turn ^= 1) {
    bytes& sealed = outputs[turn];  // the other one may still be being written
    const std::size_t n = carried + in(mutable_bytes(plain).subspan(carried));
    const bool end = n < plain.size();
    // Without the end in sight, the batch's last chunk waits for the next batch.
    const std::size_t count = end ? std::max<std::size_t>(1, (n + kChunkBytes - 1) / kChunkBytes) : batch - 1;
    jobs.clear();
    std::size_t out_len = 0;
    for (std::size_t c = 0; c < count; ++c) {
      const std::size_t len = std::min(kChunkBytes, n - c * kChunkBytes);
      nonces[c] = chunk_nonce(index + c, end && c + 1 == count);
      CipherJob job;
      job.key = key;
      job.iv = nonces[c];
      job.in = bytes_view(plain.data() + c * kChunkBytes, len);
      job.out = mutable_bytes(sealed.data() + out_len, len);
      job.tag = mutable_bytes(sealed.data() + out_len + len, kTag);
      jobs.push_back(job);
      out_len += len + kTag;
    }
    run_chunks(jobs, Direction::encrypt, run);
    for (const CipherJob& job : jobs)
      if (job.status != JobStatus::ok) throw Error("age: sealing a chunk failed: " + job.error);
    writer.submit(bytes_view(sealed.data(), out_len));
    index += count;
    if (end) break;
    std::memmove(plain.data(), plain.data() + count * kChunkBytes, kChunkBytes);
    carried = kChunkBytes;
  }
  writer.wait();
}

void open_payload(const std::array<std::uint8_t, 32>& key, AgeInput& in, const StreamSink& write,
                  const EngineOptions& run) {
  const std::size_t batch = chunks_per_batch(run);
  bytes sealed(batch * kSealedChunk), outputs[2] = {bytes(batch * kChunkBytes), bytes(batch * kChunkBytes)};
  std::vector<std::array<std::uint8_t, 12>> nonces(batch);
  std::vector<std::array<std::uint8_t, kTag>> tags(batch);
  std::vector<CipherJob> jobs;
  std::uint64_t index = 0;
  std::size_t carried = 0;
  BackgroundWriter writer(write);
  struct WipeOnExit {  // plaintext, on every way out (after the write in flight, if any, is done with it)
    BackgroundWriter& writer;
    bytes* buffers;
    ~WipeOnExit() {
      try {
        writer.wait();
      } catch (...) {  // already reported, or the reason we are leaving
      }
      for (int i = 0; i < 2; ++i) secure_wipe(buffers[i].data(), buffers[i].size());
    }
  } wipe{writer, outputs};
  int turn = 0;
  const auto where = [](std::uint64_t chunk) {
    return "chunk " + std::to_string(chunk) + " (plaintext bytes from " + std::to_string(chunk * kChunkBytes) + ")";
  };
  for (;; turn ^= 1) {
    bytes& plain = outputs[turn];  // the other one may still be being written
    const std::size_t n = carried + in.read(mutable_bytes(sealed).subspan(carried));
    const bool end = n < sealed.size();
    if (end && n == 0 && index == 0) throw OpenFailed(Failure::payload, "age: the file has a header but no payload");
    std::size_t count = end ? (n + kSealedChunk - 1) / kSealedChunk : batch - 1;
    // A malformed end of the file (a final piece shorter than a tag, or an empty last chunk after others) is
    // reported after the chunks before it are opened and released, as age releases them one by one.
    std::string defect;
    bool final_in_batch = end;
    if (end) {
      const std::size_t last = n - (count ? count - 1 : 0) * kSealedChunk;
      if (count == 0 || last < kTag) {
        defect = "age: the payload is truncated inside " + where(index + (count ? count - 1 : 0));
      } else if (last == kTag && index + count > 1) {
        defect = "age: the last chunk is empty, which only an empty file may have (" + where(index + count - 1) +
                 "): the file was modified";
      }
      if (!defect.empty()) {
        count = count ? count - 1 : 0;
        final_in_batch = false;
      }
    }
    jobs.clear();
    std::size_t out_len = 0;
    for (std::size_t c = 0; c < count; ++c) {
      const std::size_t len = std::min(kSealedChunk, n - c * kSealedChunk) - kTag;
      nonces[c] = chunk_nonce(index + c, final_in_batch && c + 1 == count);
      const std::uint8_t* chunk = sealed.data() + c * kSealedChunk;
      std::memcpy(tags[c].data(), chunk + len, kTag);
      CipherJob job;
      job.key = key;
      job.iv = nonces[c];
      job.in = bytes_view(chunk, len);
      job.out = mutable_bytes(plain.data() + c * kChunkBytes, len);
      job.tag = tags[c];
      jobs.push_back(job);
      out_len += len;
    }
    if (!jobs.empty()) run_chunks(jobs, Direction::decrypt, run);
    for (std::size_t c = 0; c < count; ++c) {
      if (jobs[c].status == JobStatus::ok) continue;
      // As age reads: a whole chunk that does not open with the flag its position gives is tried with the other
      // one. Opened as the final chunk with data after it, or as a middle chunk with nothing after it, it is
      // released and the file refused (trailing data, or no final chunk): age releases the same bytes.
      const bool positional_last = final_in_batch && c + 1 == count;
      const bool whole = jobs[c].in.size() == kChunkBytes;
      bool opened_flipped = false;
      if (whole) {
        nonces[c] = chunk_nonce(index + c, !positional_last);
        jobs[c].iv = nonces[c];
        run_chunks(std::span<CipherJob>(&jobs[c], 1), Direction::decrypt, run);
        opened_flipped = jobs[c].status == JobStatus::ok;
      }
      writer.submit(bytes_view(plain.data(), (c + opened_flipped) * kChunkBytes));  // what verified
      writer.wait();
      if (opened_flipped && positional_last)
        throw OpenFailed(Failure::payload, "age: the payload ends without a final chunk after " + where(index + c) +
                                               ": the file was truncated");
      if (opened_flipped)
        throw OpenFailed(Failure::payload, "age: data follows the final chunk, " + where(index + c) +
                                               ": the file was extended");
      throw OpenFailed(Failure::payload, "age: " + where(index + c) + " failed to authenticate: the file was modified" +
                                             (positional_last ? ", truncated or extended" : " or its chunks reordered"));
    }
    if (!defect.empty()) {
      writer.submit(bytes_view(plain.data(), out_len));
      writer.wait();
      throw OpenFailed(Failure::payload, defect);
    }
    writer.submit(bytes_view(plain.data(), out_len));
    index += count;
    if (end) break;
    std::memmove(sealed.data(), sealed.data() + count * kSealedChunk, kSealedChunk);
    carried = kSealedChunk;
  }
  writer.wait();
}

}  // namespace cryptaccel::age
