// Where output waits until it may be released: a GCM decryption to stdout is unverified until its tag checks at the
// end of the stream, so it is written here first and copied to stdout only after the check (to a file, AtomicOutput's
// temporary file does the same job). An unnamed temporary file in $TMPDIR (default /tmp): O_TMPFILE, or a named one
// unlinked at once; it disappears with the process however the process ends. Memory stays bounded whatever the size.
// The unverified plaintext does reach that file system (as it would reach the destination's with -out).
#pragma once
#include <functional>
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

class SpoolFile {
 public:
  /// Creates the file; std::runtime_error (one line, naming the directory) when it cannot.
  SpoolFile();
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  /// Appends `data`; std::runtime_error on a write error (a full $TMPDIR).
  void write(bytes_view data);
  /// Hands everything written, in order, to `sink` in pieces of at most 1 MiB.
  void copy_to(const std::function<void(bytes_view)>& sink);

 private:
  int fd_ = -1;
  std::string dir_;  // for messages
};

}  // namespace cryptaccel
