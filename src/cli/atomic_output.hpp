// All-or-nothing output: a file appears (or is replaced) only once its whole content is written.
#pragma once
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

  /// Writes all of `data` and publishes it (file: temp file, fsync, rename; stdout: write and flush). Call once.
  void commit(bytes_view data);

 private:
  void commit_to_stdout(bytes_view data);
  void commit_direct(bytes_view data);
  void commit_by_rename(bytes_view data);

  std::string path_;           // empty for stdout; else the final destination (symlinks resolved)
  std::string display_path_;   // as the user wrote it, for messages
  bool direct_ = false;        // existing non-regular file (device, FIFO): written in place, never renamed over
  unsigned new_mode_ = 0666;   // permissions of the published file
};

}  // namespace cryptaccel::cli
