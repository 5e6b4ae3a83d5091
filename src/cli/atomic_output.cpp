#include "atomic_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace cryptaccel::cli {
namespace {

std::runtime_error os_error(const std::string& what, const std::string& path, int err) {
  return std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

/// Writes all of `data` to `fd`, retrying short writes; returns 0 or an errno value.
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

unsigned current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

}  // namespace

AtomicOutput::AtomicOutput(std::string path) : display_path_(path) {
  if (path.empty() || path == "-") return;

  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw os_error("cannot create", display_path_, EISDIR);
    if (!S_ISREG(st.st_mode)) {
      direct_ = true;  // renaming over /dev/null or a FIFO would replace it, not write to it
      path_ = std::move(path);
      return;
    }
    new_mode_ = st.st_mode & 07777;
    struct stat lst {};
    // Write through a symlink to its target, as a plain open() would, instead of replacing the link.
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) path = std::filesystem::canonical(path).string();
  } else {
    new_mode_ = 0666 & ~current_umask();
  }

  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const std::string dir_str = dir.empty() ? std::string(".") : dir.string();
  if (::access(dir_str.c_str(), W_OK | X_OK) != 0) throw os_error("cannot create", display_path_, errno);
  path_ = std::move(path);
}

void AtomicOutput::commit(bytes_view data) {
  if (path_.empty()) {
    commit_to_stdout(data);
  } else if (direct_) {
    commit_direct(data);
  } else {
    commit_by_rename(data);
  }
}

void AtomicOutput::commit_to_stdout(bytes_view data) {
  if ((!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size()) || std::fflush(stdout) != 0) {
    throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
  }
}

void AtomicOutput::commit_direct(bytes_view data) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw os_error("cannot open", display_path_, errno);
  const int err = write_all(fd, data);
  const int close_err = ::close(fd) == 0 ? 0 : errno;
  if (err != 0 || close_err != 0) throw os_error("cannot write", display_path_, err != 0 ? err : close_err);
}

void AtomicOutput::commit_by_rename(bytes_view data) {
  const std::filesystem::path dest(path_);
  const std::filesystem::path dir = dest.parent_path();
  std::string temp = (dir.empty() ? std::string() : dir.string() + "/") + "." + dest.filename().string() + ".tmp-XXXXXX";

  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) throw os_error("cannot create", display_path_, errno);

  int err = write_all(fd, data);
  if (err == 0 && ::fchmod(fd, static_cast<mode_t>(new_mode_)) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL) err = errno;  // EINVAL: the file system cannot sync; fine
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(temp.c_str(), path_.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    throw os_error("cannot write", display_path_, err);
  }
}

}  // namespace cryptaccel::cli
