// Whole-file reading, the one place the library and the tool read a small file (a key, a program, a preset) at once
// (large inputs stream instead: cryptaccel/stream.hpp), and writing a buffer to a file descriptor. Output files that
// appear all or nothing: cryptaccel/atomic_output.hpp.
#pragma once
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// The whole contents of `path`, or of stdin for "-". Throws std::runtime_error with one line: "cannot open 'PATH':
/// REASON" or "cannot read 'PATH': REASON" (REASON: strerror, or "Is a directory"; stdin is named "stdin").
bytes read_whole_file(const std::string& path);

/// Writes all of `data` to the file descriptor `fd`, retrying short and interrupted writes; returns 0 or an errno
/// value (the one place the library, the tool and Python write a buffer to a descriptor).
int write_all(int fd, bytes_view data);

}  // namespace cryptaccel
