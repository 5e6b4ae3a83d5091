// `cryptaccel hash`: digests of many files, small ones together in hash_batch calls, large ones streamed through a
// Hasher, with results delivered in the order the files were submitted.
#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "cryptaccel/hash.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli::hash {

/// What became of one file.
struct DigestOutcome {
  bool ok = false;       ///< `digest` holds the result
  bool missing = false;  ///< the file does not exist and the caller asked to skip missing files
  int error = 0;         ///< errno of the failed open or read (when neither ok nor missing, and non-zero)
  std::string message;   ///< otherwise, why the engine did not hash it
  bytes digest;
};

/// Where small files end and how much is held for one batch.
struct DigesterLimits {
  std::size_t small_file = std::size_t{1} << 20;    ///< shorter files are read whole and hashed in batches
  std::size_t batch_bytes = std::size_t{256} << 20; ///< input bytes held for one hash_batch call, at most
  std::size_t batch_jobs = std::size_t{1} << 16;    ///< files in one hash_batch call, at most
  std::size_t chunk = std::size_t{1} << 20;         ///< read size when streaming a large file (<= small_file)
};

/// Throws EngineUnavailable (one line) unless `engine` can hash `algorithm` both in batches and streaming.
void check_engine(HashAlgorithm algorithm, const std::string& engine);

/// Reads and hashes files. Each file is read as soon as it is submitted: a file that ends before `small_file` bytes
/// is kept in memory and hashed later together with others in one hash_batch call (when the held bytes or files reach
/// their limit, or at flush()); a longer one (or a pipe that goes on) is hashed there and then through a Hasher,
/// `chunk` bytes at a time. Callbacks run in submission order, each as soon as it and everything before it is done.
class Digester {
 public:
  using Done = std::function<void(const DigestOutcome&)>;
  using Note = std::function<void()>;

  Digester(HashAlgorithm algorithm, std::string engine, DigesterLimits limits = {});

  /// Hashes `path` ("-": standard input) to `out_len` bytes (the digest size; any length >= 1 for SHAKE).
  /// With `skip_missing`, a file that does not exist (ENOENT on open) gives outcome.missing instead of an error.
  void submit(const std::string& path, std::size_t out_len, bool skip_missing, Done done);
  /// Runs `note` in order with the callbacks of the files (for messages that must stay in sequence).
  void submit_note(Note note);
  /// Hashes whatever is held and runs every outstanding callback.
  void flush();

 private:
  struct Entry {
    Done done;
    Note note;
    DigestOutcome outcome;
    bool waiting = false;   ///< its input is held for the next batch
    std::size_t input = 0;  ///< index into held_ when waiting
  };

  void read_file(const std::string& path, std::size_t out_len, bool skip_missing, Entry& entry);
  void deliver_ready();

  HashAlgorithm algorithm_;
  std::string engine_;
  DigesterLimits limits_;
  bytes scratch_;              ///< the first `small_file` bytes of the file being read (reused)
  std::size_t small_size_ = 0; ///< bytes of scratch_ that hold the last small file read
  std::deque<Entry> queue_;    ///< submitted, callback not yet run
  std::vector<bytes> held_;    ///< inputs of the next batch
  std::size_t held_bytes_ = 0;
};

}  // namespace cryptaccel::cli::hash
