#include "cryptaccel/file.hpp"

#include <unistd.h>

#include <cerrno>

namespace cryptaccel {

int write_all(int fd, bytes_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace cryptaccel
