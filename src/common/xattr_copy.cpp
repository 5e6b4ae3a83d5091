#include "common/xattr_copy.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#if defined(__linux__)
#include <sys/xattr.h>
#endif

namespace cryptaccel {

#if defined(__linux__)
namespace {

/// Calls `get(buffer, size)` (listxattr or getxattr) with a buffer that grows until the answer fits; the bytes, or
/// errno (a value that changes between the size query and the read is retried).
template <class Get>
int read_growing(std::vector<char>& out, const Get& get) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const ssize_t need = get(nullptr, 0);
    if (need < 0) return errno;
    out.resize(static_cast<std::size_t>(need));
    const ssize_t got = get(out.data(), out.size());
    if (got >= 0) {
      out.resize(static_cast<std::size_t>(got));
      return 0;
    }
    if (errno != ERANGE) return errno;
  }
  return ERANGE;
}

bool no_xattr_support(int err) { return err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS; }

}  // namespace

XattrCopyResult copy_xattrs(const std::string& from, int to_fd) {
  XattrCopyResult result;
  std::vector<char> names;
  if (const int err = read_growing(names, [&](char* buf, std::size_t size) {
        return ::listxattr(from.c_str(), buf, size);
      });
      err != 0) {
    if (!no_xattr_support(err)) result.acl_error = err;
    return result;
  }
  std::vector<char> value;
  for (std::size_t at = 0; at < names.size();) {
    const char* name = names.data() + at;
    at += std::strlen(name) + 1;
    const bool acl = std::strcmp(name, kAccessAclXattr) == 0;
    int err = read_growing(value, [&](char* buf, std::size_t size) { return ::getxattr(from.c_str(), name, buf, size); });
    if (err == ENODATA) continue;  // removed meanwhile
    if (err == 0 && ::fsetxattr(to_fd, name, value.data(), value.size(), 0) != 0) err = errno;
    if (err == 0) {
      ++result.copied;
    } else if (acl) {
      result.acl_error = err;
    } else {
      ++result.skipped;  // e.g. security.selinux without the right to relabel, user.* on a file we cannot read
    }
  }
  return result;
}

#else

XattrCopyResult copy_xattrs(const std::string&, int) { return {}; }

#endif

}  // namespace cryptaccel
