// Whole-file reading, the one place the library and the tool read a small file (a key, a program, a preset) at once.
// Large inputs stream instead (cryptaccel/stream.hpp).
#pragma once
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

/// The whole contents of `path`, or of stdin for "-". Throws std::runtime_error with one line: "cannot open 'PATH':
/// REASON" or "cannot read 'PATH': REASON" (REASON: strerror, or "Is a directory"; stdin is named "stdin").
bytes read_whole_file(const std::string& path);

}  // namespace cryptaccel
