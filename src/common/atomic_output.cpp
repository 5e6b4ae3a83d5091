#include "cryptaccel/atomic_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cryptaccel/file.hpp"
#include "cryptaccel/spool_file.hpp"
#include "common/xattr_copy.hpp"

namespace cryptaccel {
namespace {

OutputError os_error(const std::string& what, const std::string& path, int err, const std::string& more = "") {
  return OutputError(what + " '" + path + "'" + more + ": " + std::strerror(err), err);
}

unsigned current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

/// Whether the kernel refuses to follow someone else's symbolic link in a sticky world-writable directory (the
/// sysctl fs.protected_symlinks; when it cannot be read, yes: the default of every distribution).
bool protected_symlinks() {
  std::FILE* f = std::fopen("/proc/sys/fs/protected_symlinks", "re");
  if (f == nullptr) return true;
  const int c = std::fgetc(f);
  std::fclose(f);
  return c != '0';
}

/// `path` with the symbolic links of its last component followed to the file they name, which need not exist: like
/// open(O_CREAT), writing through a dangling link creates its target. (Links in the directories are the kernel's.)
std::string follow_symlinks(const std::string& path) {
  std::filesystem::path p(path);
  for (int hops = 0;; ++hops) {
    struct stat lst {};
    if (::lstat(p.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return p.string();
    if (hops == 40) throw os_error("cannot create", path, ELOOP);
    // The kernel's fs.protected_symlinks, which a link resolved here would bypass: in a sticky world-writable
    // directory (/tmp) a link is followed only when it is ours or the directory owner's.
    struct stat dir {};
    const std::filesystem::path parent = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
    if (::stat(parent.c_str(), &dir) == 0 && (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH) &&
        lst.st_uid != ::geteuid() && lst.st_uid != dir.st_uid && protected_symlinks())
      throw os_error("cannot follow the symbolic link", p.string(), EACCES);
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::read_symlink(p, ec);
    if (ec) throw os_error("cannot read the symbolic link", p.string(), ec.value());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
}

/// Whether a new file in directory `dir` can be given `st`'s owner and group: as root (CAP_CHOWN; a root without it
/// finds out in begin(), which then falls back), or when the owner is us and the group one of ours or what a new
/// file gets anyway (a set-group-ID directory's). Only a guess, so that the choice between a replacement and an
/// in-place write (and a doomed one's error) comes before the work; begin() tries.
bool can_keep_owner(const struct stat& st, const std::string& dir) {
  if (::geteuid() == 0) return true;
  if (st.st_uid != ::geteuid()) return false;
  if (st.st_gid == ::getegid()) return true;
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) == 0 && (dst.st_mode & S_ISGID) && dst.st_gid == st.st_gid) return true;
  const int n = ::getgroups(0, nullptr);
  if (n <= 0) return false;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  const int got = ::getgroups(n, groups.data());
  for (int i = 0; i < got; ++i)
    if (groups[static_cast<std::size_t>(i)] == st.st_gid) return true;
  return false;
}

}  // namespace

AtomicOutput::AtomicOutput(std::string path, unsigned mode_mask) : display_path_(std::move(path)) {
  if (display_path_.empty() || display_path_ == "-") return;
  struct MaskMode {  // applied however the constructor returns
    unsigned& mode;
    unsigned mask;
    ~MaskMode() { mode &= mask; }
  } mask_mode{new_mode_, mode_mask};
  path_ = follow_symlinks(display_path_);
  const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  const std::string dir = parent.empty() ? std::string(".") : parent.string();

  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw os_error("cannot create", path_, EISDIR);
    if (!S_ISREG(st.st_mode)) {
      kind_ = Kind::direct;  // renaming over /dev/null or a FIFO would replace it, not write to it
      return;
    }
    existing_ = true;
    new_mode_ = st.st_mode & 07777;
    uid_ = st.st_uid;
    gid_ = st.st_gid;
  } else {
    new_mode_ = 0666 & ~current_umask();
  }

  const bool dir_writable = ::access(dir.c_str(), W_OK | X_OK) == 0;
  const int dir_error = errno;
  if (dir_writable && (!existing_ || can_keep_owner(st, dir))) {
    kind_ = Kind::replace;
    return;
  }
  if (!existing_) throw os_error("cannot create", path_, dir_error);
  // A file we may write but not replace as it is: in place, as `openssl enc` would (and where it would fail, so do we).
  if (::access(path_.c_str(), W_OK) != 0) throw os_error("cannot open", path_, errno, " for writing");
  kind_ = Kind::in_place;
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

OutputError AtomicOutput::temp_error(const std::string& what, int err) const {
  return os_error(what, temp_, err, " (the temporary file for '" + path_ + "')");
}

void AtomicOutput::discard_temp() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

void AtomicOutput::begin() {
  switch (kind_) {
    case Kind::standard_output:
      return;
    case Kind::direct:
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw os_error("cannot open", path_, errno, " for writing");
      return;
    case Kind::replace:
      if (begin_replace()) return;
      kind_ = Kind::in_place;
      begin_in_place();
      return;
    case Kind::in_place:
      begin_in_place();
      return;
  }
}

/// Creates the temporary file and gives it the existing file's owner, group and extended attributes (while it is
/// empty: a write would drop file capabilities, and a failure here can still choose the in-place write). False when
/// those cannot be kept but the destination is writable: the caller writes in place instead.
bool AtomicOutput::begin_replace() {
  const std::filesystem::path dest(path_);
  const std::filesystem::path dir = dest.parent_path();
  std::string temp = (dir.empty() ? std::string() : dir.string() + "/") + "." + dest.filename().string() + ".tmp-XXXXXX";
  fd_ = ::mkostemp(temp.data(), O_CLOEXEC);  // mode 0600 until finish()
  if (fd_ < 0) throw os_error("cannot create", temp, errno, " (a temporary file for '" + path_ + "')");
  temp_ = std::move(temp);
  if (!existing_) return true;

  int err = 0;
  const char* lost = "owner and group";
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    err = errno;
  } else if (st.st_uid != uid_ || st.st_gid != gid_) {
    // The uid or gid that already matches is left alone (-1): changing only the group needs no root.
    if (::fchown(fd_, st.st_uid == uid_ ? static_cast<uid_t>(-1) : uid_,
                 st.st_gid == gid_ ? static_cast<gid_t>(-1) : gid_) != 0)
      err = errno;
  }
  if (err == 0) {
    // After the chown, which clears some; the ACL's entries stay masked by the 0600 set next until finish()'s chmod
    // restores the mode, whose group bits are the ACL's mask.
    const XattrCopyResult copied = copy_xattrs(path_, fd_);
    err = copied.acl_error;
    lost = "access ACL";
    if (err == 0 && ::fchmod(fd_, 0600) != 0) err = errno;
  }
  if (err == 0) return true;

  discard_temp();
  if (::access(path_.c_str(), W_OK) != 0) {
    throw std::runtime_error("cannot replace '" + path_ + "' keeping its " + lost + " (" + std::strerror(err) +
                             "), and cannot write it in place: " + std::strerror(errno));
  }
  return false;
}

/// The in-place write's start: the destination is opened now (so that a file we cannot write fails before the
/// work), the output collected in $TMPDIR.
void AtomicOutput::begin_in_place() {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) throw os_error("cannot open", path_, errno, " for writing");
  spool_ = std::make_unique<SpoolFile>();
}

void AtomicOutput::write(bytes_view data) {
  switch (kind_) {
    case Kind::standard_output:
      if (!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size())
        throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
      return;
    case Kind::in_place:
      spool_->write(data);  // its errors name $TMPDIR
      written_ += data.size();
      return;
    case Kind::direct:
      if (const int err = write_all(fd_, data); err != 0) throw os_error("cannot write", path_, err);
      return;
    case Kind::replace:
      if (const int err = write_all(fd_, data); err != 0) throw temp_error("cannot write", err);
      start_writeback(data.size());
      return;
  }
}

void AtomicOutput::start_writeback(std::size_t just_written) {
  written_ += just_written;
#if defined(__linux__)
  // A temporary file is fsynced before the rename; starting its writeback every few MiB as it is written (without
  // waiting) lets the disk work while the next batch is computed, so that the final fsync waits only for the tail.
  constexpr std::uint64_t kWritebackStep = 8u << 20;
  if (written_ - writeback_from_ < kWritebackStep) return;
  ::sync_file_range(fd_, static_cast<off_t>(writeback_from_), static_cast<off_t>(written_ - writeback_from_),
                    SYNC_FILE_RANGE_WRITE);  // a hint: an error here shows again at the fsync
  writeback_from_ = written_;
#endif
}

void AtomicOutput::finish() {
  switch (kind_) {
    case Kind::standard_output:
      if (std::fflush(stdout) != 0)
        throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
      return;
    case Kind::direct: {
      const int rc = ::close(fd_);
      fd_ = -1;
      if (rc != 0) throw os_error("cannot write", path_, errno);
      return;
    }
    case Kind::replace:
      finish_replace();
      return;
    case Kind::in_place:
      finish_in_place();
      return;
  }
}

void AtomicOutput::finish_replace() {
  // The mode last: after the chown (which clears set-user-ID bits) and the ACL (whose mask it restores).
  if (::fchmod(fd_, static_cast<mode_t>(new_mode_)) != 0) throw temp_error("cannot set the mode of", errno);
  if (::fsync(fd_) != 0 && errno != EINVAL) throw temp_error("cannot write", errno);  // EINVAL: cannot sync; fine
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) throw temp_error("cannot write", errno);  // the destructor removes the temporary file
  if (::rename(temp_.c_str(), path_.c_str()) != 0) throw os_error("cannot rename", temp_, errno, " to '" + path_ + "'");
  temp_.clear();
}

void AtomicOutput::finish_in_place() {
  // Everything succeeded and waits in the spool. Where the file system can, the space is reserved first, so that a
  // full disk fails here, before the destination changes; then it is overwritten from the start and cut to length.
  // From here on a failure (or a crash) leaves it half-written: the price of a directory we cannot write.
#if defined(__linux__)
  if (written_ > 0 && ::fallocate(fd_, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(written_)) != 0 &&
      errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL)
    throw os_error("cannot write", path_, errno);
#endif
  spool_->copy_to([&](bytes_view piece) {
    if (const int err = write_all(fd_, piece); err != 0) throw os_error("cannot write", path_, err);
  });
  if (::ftruncate(fd_, static_cast<off_t>(written_)) != 0) throw os_error("cannot write", path_, errno);
  if (::fsync(fd_) != 0 && errno != EINVAL) throw os_error("cannot write", path_, errno);
  const int rc = ::close(fd_);
  fd_ = -1;
  spool_.reset();
  if (rc != 0) throw os_error("cannot write", path_, errno);
}

}  // namespace cryptaccel
