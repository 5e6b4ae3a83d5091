// Reading a command's input in pieces (files, pipes, stdin), and SIGINT/SIGTERM as a request to stop: the commands
// that stream (enc/dec) check it between pieces and fail with one line, so that their AtomicOutput removes its
// temporary file and nothing half-written is left.
#pragma once
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {

/// Where a streaming command reads from: a file or stdin (StreamInput), or a decoding layer over one (Base64Source).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Fills `buffer` as far as the input goes; returns the bytes read (fewer only at the end of the input).
  virtual std::size_t read(mutable_bytes buffer) = 0;
};

/// The rest of `input`, whole, in memory.
bytes read_rest(ByteSource& input);

/// An input opened for reading: a file, or stdin for "" and "-". Errors are std::runtime_error, one line.
class StreamInput : public ByteSource {
 public:
  explicit StreamInput(const std::string& path);
  ~StreamInput();
  StreamInput(const StreamInput&) = delete;
  StreamInput& operator=(const StreamInput&) = delete;

  /// Fills `buffer` as far as the input goes; returns the bytes read (fewer only at the end of the input). Throws
  /// when a stop was requested (StopOnSignal) or on a read error.
  std::size_t read(mutable_bytes buffer) override;
  /// The open descriptor (0 for stdin).
  int fd() const { return fd_; }
  /// The input as messages name it: 'path' (quoted) or stdin.
  const std::string& name() const { return name_; }

 private:
  int fd_ = 0;
  bool owned_ = false;
  std::string name_;  // for messages: 'path' or stdin
};

/// While alive, SIGINT and SIGTERM set a flag instead of killing the process (the previous handlers come back when it
/// ends; a second signal kills as usual), and SIGXFSZ is ignored (a write past `ulimit -f` fails with EFBIG).
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  /// Throws std::runtime_error("interrupted by SIGINT/SIGTERM") when a signal came.
  static void throw_if_requested();
};

}  // namespace cryptaccel::cli
