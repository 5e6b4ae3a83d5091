// Copying a file's extended attributes onto the file that replaces it (AtomicOutput's temporary file): user.*,
// security.* and trusted.* attributes, and the POSIX ACLs, which Linux keeps as the attribute
// system.posix_acl_access. Linux only; elsewhere nothing is copied.
#pragma once
#include <cstddef>
#include <string>

namespace cryptaccel {

/// What copy_xattrs did.
struct XattrCopyResult {
  /// errno when the access ACL (system.posix_acl_access) could not be copied, or when the attributes could not even
  /// be listed (there might be an ACL); 0 otherwise. A file that loses its ACL can be readable by more people than
  /// before (the group bits of its mode are the ACL's mask), so a caller must not ignore this one.
  int acl_error = 0;
  std::size_t copied = 0;   ///< attributes copied
  std::size_t skipped = 0;  ///< other attributes that could not be read or set (best effort: not an error)
};

/// The name of the attribute that holds a file's access ACL on Linux.
inline constexpr const char* kAccessAclXattr = "system.posix_acl_access";

/// Copies every extended attribute of the file at `from` (symlinks followed) onto the open file `to_fd`. A file system
/// without extended attributes has none to copy (no error).
XattrCopyResult copy_xattrs(const std::string& from, int to_fd);

}  // namespace cryptaccel
