// File helpers of the cracking library (see file_checks.hpp).
#include "crack/file_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cryptaccel::crack {

void require_readable_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": " + std::strerror(errno));
  struct stat st {};
  const bool is_dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(fd);
  if (is_dir) throw std::runtime_error(path + ": " + std::strerror(EISDIR));
}

void make_directories(const std::string& dir) {
  if (dir.empty()) return;
  for (std::size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/') continue;
    const std::string prefix = dir.substr(0, at);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      throw std::runtime_error(prefix + ": cannot create directory: " + std::strerror(errno));
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw std::runtime_error(dir + ": not a directory");
}

}  // namespace cryptaccel::crack
