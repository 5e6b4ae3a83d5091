#include "cryptaccel/spool_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cryptaccel/file.hpp"

namespace cryptaccel {
namespace {

std::string temp_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

}  // namespace

SpoolFile::SpoolFile() : dir_(temp_dir()) {
#ifdef O_TMPFILE
  fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
  if (fd_ < 0) {  // a file system without O_TMPFILE: a named file, unlinked at once
    std::string name = dir_ + "/cryptaccel-spool-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  if (fd_ < 0)
    throw std::runtime_error("cannot create a temporary file in '" + dir_ + "' (TMPDIR): " + std::strerror(errno));
}

SpoolFile::~SpoolFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpoolFile::write(bytes_view data) {
  if (const int err = write_all(fd_, data); err != 0)
    throw std::runtime_error("cannot write a temporary file in '" + dir_ + "' (TMPDIR): " + std::strerror(err));
}

void SpoolFile::copy_to(const std::function<void(bytes_view)>& sink) {
  std::vector<std::uint8_t> buffer(std::size_t{1} << 20);
  for (off_t offset = 0;;) {
    const ssize_t n = ::pread(fd_, buffer.data(), buffer.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw std::runtime_error("cannot read a temporary file in '" + dir_ + "' (TMPDIR): " + std::strerror(errno));
    if (n == 0) break;
    sink(bytes_view(buffer.data(), static_cast<std::size_t>(n)));
    offset += n;
  }
  secure_wipe(buffer.data(), buffer.size());
}

}  // namespace cryptaccel
