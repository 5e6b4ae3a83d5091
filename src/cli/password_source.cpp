#include "password_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "cryptaccel/error.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cli {
namespace {

/// The first line of `fd` (up to '\r' or '\n'), a byte at a time; `what` names the source in messages.
std::string first_line_of_fd(int fd, const std::string& what) {
  std::string line;
  bool ended = false;
  for (char c;;) {
    const ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      secure_wipe(line.data(), line.size());
      throw std::runtime_error("cannot read the password from " + what + ": " + std::strerror(errno));
    }
    if (n == 0 || c == '\n') break;
    if (c == '\r') ended = true;  // the line ends here; the rest up to '\n' is read and dropped
    if (!ended) line += c;
  }
  return line;
}

}  // namespace

std::string read_password(const std::string& spec, std::string_view option) {
  const std::string opt(option);
  const std::string_view s = spec;
  if (s.substr(0, 5) == "pass:") return std::string(s.substr(5));
  if (s.substr(0, 4) == "env:") {
    const std::string var(s.substr(4));
    const char* value = std::getenv(var.c_str());
    if (value == nullptr) throw std::runtime_error(opt + " env:" + var + ": the variable is not set");
    return value;
  }
  if (s.substr(0, 5) == "file:") {
    const std::string path(s.substr(5));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    try {
      std::string line = first_line_of_fd(fd, "'" + path + "'");
      ::close(fd);
      return line;
    } catch (...) {
      ::close(fd);
      throw;
    }
  }
  if (s.substr(0, 3) == "fd:") {
    int fd = -1;
    const std::string_view num = s.substr(3);
    const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), fd);
    if (num.empty() || ec != std::errc() || end != num.data() + num.size() || fd < 0)
      throw InvalidArgument(opt + " fd:N needs a file descriptor number");
    return first_line_of_fd(fd, "fd " + std::to_string(fd));
  }
  if (s == "stdin") return first_line_of_fd(0, "stdin");
  throw InvalidArgument(opt + ": unknown form '" + spec + "' (pass:X, env:VAR, file:PATH, fd:N or stdin)");
}

}  // namespace cryptaccel::cli
