// Cracking: small file helpers shared by the hash-file, wordlist, rule and potfile readers.
#pragma once
#include <string>

namespace cryptaccel::crack {

/// Throws std::runtime_error "PATH: reason" (strerror, or "Is a directory") unless `path` can be opened for reading
/// and is not a directory.
void require_readable_file(const std::string& path);

/// Creates `dir` and its missing parents with mode 0700. Throws std::runtime_error "DIR: reason" on failure.
void make_directories(const std::string& dir);

}  // namespace cryptaccel::crack
