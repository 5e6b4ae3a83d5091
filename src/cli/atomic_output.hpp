// All-or-nothing output: a file appears (or is replaced) only once its whole content is written.
#pragma once
#include <cstdint>
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {

/// Destination of a command's output: stdout, or a file that is written to a temporary file in the same directory and
/// renamed over the destination only when complete. On failure nothing new is left behind and an existing destination
/// is untouched. Errors are std::runtime_error with a one-line message naming the destination.
class AtomicOutput {
 public:
  /// Prepares output to `path` ("" or "-": stdout). Checks early that the destination can be created (its directory
  /// exists and is writable, it is not a directory), so that a doomed command fails before doing its work.
  explicit AtomicOutput(std::string path);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  /// Removes an unpublished temporary file (a stream that was begun and never finished).
  ~AtomicOutput();

  /// Writes all of `data` and publishes it (file: temp file, fsync, rename; stdout: write and flush). Call once.
  void commit(bytes_view data);

  /// The same in pieces, for output that does not fit in memory: begin(), write() any number of times, finish().
  /// Until finish() a file destination is untouched (the pieces go to the temporary file); stdout gets each piece
  /// as it comes. If finish() is never reached (an error, an exception), the destructor removes the temporary file.
  void begin();
  void write(bytes_view data);
  void finish();

 private:
  std::string path_;           // empty for stdout; else the final destination (symlinks resolved)
  std::string display_path_;   // as the user wrote it, for messages
  bool direct_ = false;        // existing non-regular file (device, FIFO): written in place, never renamed over
  unsigned new_mode_ = 0666;   // permissions of the published file
  int fd_ = -1;                // between begin() and finish(): the temporary file, or the direct destination
  std::string temp_;           // the temporary file's name while it exists
  std::uint64_t written_ = 0;         // bytes written to the temporary file so far
  std::uint64_t writeback_from_ = 0;  // first byte whose writeback has not been started

  void start_writeback(std::size_t just_written);
};

}  // namespace cryptaccel::cli
