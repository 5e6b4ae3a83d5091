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

#include "fd_io.hpp"

namespace cryptaccel::cli {
namespace {

std::runtime_error os_error(const std::string& what, const std::string& path, int err) {
  return std::runtime_error(what + " '" + path + "': " + std::strerror(err));
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

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicOutput::commit(bytes_view data) {
  begin();
  write(data);
  finish();
}

void AtomicOutput::begin() {
  if (path_.empty()) return;
  if (direct_) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw os_error("cannot open", display_path_, errno);
    return;
  }
  const std::filesystem::path dest(path_);
  const std::filesystem::path dir = dest.parent_path();
  std::string temp = (dir.empty() ? std::string() : dir.string() + "/") + "." + dest.filename().string() + ".tmp-XXXXXX";
  fd_ = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd_ < 0) throw os_error("cannot create", display_path_, errno);
  temp_ = std::move(temp);
}

void AtomicOutput::write(bytes_view data) {
  if (path_.empty()) {
    if (!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size())
      throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
    return;
  }
  if (const int err = write_all(fd_, data); err != 0) throw os_error("cannot write", display_path_, err);
  start_writeback(data.size());
}

void AtomicOutput::start_writeback(std::size_t just_written) {
#if defined(__linux__)
  // A temporary file is fsynced before the rename; starting its writeback every few MiB as it is written (without
  // waiting) lets the disk work while the next batch is computed, so that the final fsync waits only for the tail.
  constexpr std::uint64_t kWritebackStep = 8u << 20;
  written_ += just_written;
  if (direct_ || written_ - writeback_from_ < kWritebackStep) return;
  ::sync_file_range(fd_, static_cast<off_t>(writeback_from_), static_cast<off_t>(written_ - writeback_from_),
                    SYNC_FILE_RANGE_WRITE);  // a hint: an error here shows again at the fsync
  writeback_from_ = written_;
#else
  (void)just_written;
#endif
}

void AtomicOutput::finish() {
  if (path_.empty()) {
    if (std::fflush(stdout) != 0) throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
    return;
  }
  int err = 0;
  if (!direct_) {
    if (::fchmod(fd_, static_cast<mode_t>(new_mode_)) != 0) err = errno;
    if (err == 0 && ::fsync(fd_) != 0 && errno != EINVAL) err = errno;  // EINVAL: the file system cannot sync; fine
  }
  if (::close(fd_) != 0 && err == 0) err = errno;
  fd_ = -1;
  if (err == 0 && !direct_ && ::rename(temp_.c_str(), path_.c_str()) != 0) err = errno;
  if (err != 0) throw os_error("cannot write", display_path_, err);  // the destructor removes the temporary file
  temp_.clear();
}

}  // namespace cryptaccel::cli
