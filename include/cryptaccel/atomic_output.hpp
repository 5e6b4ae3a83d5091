// All-or-nothing output: a file appears (or is replaced) only once its whole content is written. The CLI writes every
// output file through it.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

class SpoolFile;

/// A failed system call on an output file: the one-line message AtomicOutput's errors carry, and its errno.
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::string& message, int error_code) : std::runtime_error(message), error_code_(error_code) {}
  int error_code() const { return error_code_; }

 private:
  int error_code_;
};

/// Destination of a command's output: stdout, or a file. A file is written to a temporary file in its directory and
/// renamed over the destination only when complete; an existing file's mode, owner, group and extended attributes
/// (ACLs included) are given to the new one first. A symbolic link is written through (a dangling one: its target is
/// created). Hard links to a replaced file are broken: the other names keep the old content. When the file cannot
/// be replaced keeping all that (its directory is not writable, or its owner or group cannot be given to a new file:
/// not root) but it is writable, the output goes to an unnamed file in $TMPDIR (SpoolFile) and is copied over the
/// destination in place at finish(): still nothing until everything succeeded, but not crash-atomic (a crash during
/// that copy leaves it half-written). An existing device or FIFO is written in place. On failure nothing new is left
/// behind and an existing destination is untouched. Errors are std::runtime_error with a one-line message naming the
/// file that failed (the destination, its temporary file, or $TMPDIR): OutputError, with the errno, for a failed
/// system call. The CLI and Python's encrypt_file/decrypt_file write every output file through it.
class AtomicOutput {
 public:
  /// Prepares output to `path` ("" or "-": stdout). Checks early that the destination can be written (its directory
  /// exists and is writable, or the existing file is; it is not a directory), so that a doomed command fails before
  /// doing its work.
  /// `mode_mask` limits the published file's permissions (0600 for a secret key: never readable by others, even for
  /// a moment).
  explicit AtomicOutput(std::string path, unsigned mode_mask = 07777);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  /// Removes an unpublished temporary file (a stream that was begun and never finished).
  ~AtomicOutput();

  /// Writes all of `data` and publishes it (file: temp file, fsync, rename; stdout: write and flush). Call once.
  void commit(bytes_view data);

  /// The same in pieces, for output that does not fit in memory: begin(), write() any number of times, finish().
  /// Until finish() a file destination is untouched (the pieces go to the temporary file); stdout gets each piece
  /// as it comes. If finish() is never reached (an error, an exception), the destructor removes the temporary file.
  /// write() may run on another thread than begin() and finish() (one call at a time).
  void begin();
  void write(bytes_view data);
  void finish();

 private:
  enum class Kind {
    standard_output,  // "" or "-"
    direct,           // an existing device or FIFO: written in place, never renamed over
    replace,          // a temporary file in the same directory, renamed over the destination
    in_place,         // a spool file in $TMPDIR, copied over the existing destination at finish()
  };
  Kind kind_ = Kind::standard_output;
  std::string path_;           // the file written: the destination with symlinks followed
  std::string display_path_;   // as the user wrote it
  unsigned new_mode_ = 0666;   // permissions of the published file
  bool existing_ = false;      // a regular file is there: its owner, group and attributes are kept
  unsigned uid_ = 0, gid_ = 0; // that file's owner and group
  int fd_ = -1;                // between begin() and finish(): the temporary file, or the destination itself
  std::string temp_;           // the temporary file's name while it exists
  std::unique_ptr<SpoolFile> spool_;  // in_place: the output until finish()
  std::uint64_t written_ = 0;         // bytes written so far
  std::uint64_t writeback_from_ = 0;  // first byte whose writeback has not been started

  bool begin_replace();
  void begin_in_place();
  void finish_replace();
  void finish_in_place();
  void discard_temp();
  OutputError temp_error(const std::string& what, int err) const;
  void start_writeback(std::size_t just_written);
};

}  // namespace cryptaccel
