// The potfile of the cracking library (see include/cryptaccel/crack/potfile.hpp).
#include "cryptaccel/crack/potfile.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "crack/file_checks.hpp"
#include "cryptaccel/hex.hpp"

namespace cryptaccel::crack {
namespace {

/// A hex digit (either case): std::isxdigit is exactly these, in every locale.
bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

/// hashcat's "printable UTF-8": well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)
/// without C0 control bytes.
bool printable_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<std::uint8_t>(s[i]);
    if (c < 0x20) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t extra = 0;
    std::uint32_t cp = 0;
    std::uint32_t min = 0;
    if (c >= 0xc2 && c <= 0xdf) { extra = 1; cp = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { extra = 2; cp = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { extra = 3; cp = c & 0x07; min = 0x10000; }
    else return false;
    if (i + extra >= s.size()) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto d = static_cast<std::uint8_t>(s[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

bool is_hex_form(std::string_view s) {
  if (!s.starts_with("$HEX[") || !s.ends_with("]")) return false;
  const std::string_view hex = s.substr(5, s.size() - 6);
  if (hex.size() % 2 != 0) return false;
  return std::all_of(hex.begin(), hex.end(), is_hex_digit);
}

}  // namespace

bool plain_needs_hex(std::string_view plain) {
  if (!printable_utf8(plain)) return true;
  if (plain.find(':') != std::string_view::npos) return true;
  if (is_hex_form(plain)) return true;
  return !plain.empty() && (plain.front() == ' ' || plain.back() == ' ');
}

std::string encode_plain(std::string_view plain) {
  if (!plain_needs_hex(plain)) return std::string(plain);
  return "$HEX[" + to_hex(bytes_view(reinterpret_cast<const std::uint8_t*>(plain.data()), plain.size())) + "]";
}

std::string decode_plain(std::string_view field) {
  if (!is_hex_form(field)) return std::string(field);
  const bytes plain = from_hex(field.substr(5, field.size() - 6));
  return std::string(plain.begin(), plain.end());
}

std::string default_potfile_path() {
  std::string base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
    base = xdg;
  } else {
    std::string home;
    if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
      home = h;
    } else if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) {
      home = pw->pw_dir;
    } else {
      throw std::runtime_error("cannot find the home directory for the default potfile (set XDG_DATA_HOME or give --potfile-path)");
    }
    base = home + "/.local/share";
  }
  return base + "/cryptaccel/cryptaccel.potfile";
}

Potfile::Potfile(std::string path, const std::unordered_set<std::string>& wanted) : path_(std::move(path)) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return;
    throw std::runtime_error(path_ + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw std::runtime_error(path_ + ": " + std::strerror(EISDIR));
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no '\n' after it: an interrupted write
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string hash = line.substr(0, colon);
    if (!wanted.contains(hash)) continue;
    found_[std::move(hash)] = decode_plain(std::string_view(line).substr(colon + 1));
  }
  if (in.bad()) throw std::runtime_error(path_ + ": read error");
}

const std::string* Potfile::find(const std::string& hash) const {
  const auto it = found_.find(hash);
  return it == found_.end() ? nullptr : &it->second;
}

void Potfile::add(const std::string& hash, const std::string& plain) {
  if (const std::size_t slash = path_.rfind('/'); slash != std::string::npos && slash > 0)
    make_directories(path_.substr(0, slash));
  append_line_durably(path_, hash + ":" + encode_plain(plain));
  found_[hash] = plain;
}

void append_line_durably(const std::string& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error(path + ": " + std::strerror(errno));
  std::string record;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    char last = '\n';
    if (::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n') record += '\n';
  }
  record.append(line);
  record += '\n';
  std::size_t done = 0;
  while (done < record.size()) {
    const ssize_t n = ::write(fd, record.data() + done, record.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(path + ": write error: " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int err = errno;
    ::close(fd);
    throw std::runtime_error(path + ": fsync: " + std::strerror(err));
  }
  if (::close(fd) != 0) throw std::runtime_error(path + ": " + std::strerror(errno));
}

}  // namespace cryptaccel::crack
