// Writing to a file descriptor, for the CLI's outputs (atomic_output.cpp, spool_file.cpp).
#pragma once
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {

/// Writes all of `data` to `fd`, retrying short and interrupted writes; returns 0 or an errno value.
int write_all(int fd, bytes_view data);

}  // namespace cryptaccel::cli
