// Wordlist streaming of the cracking library (see include/cryptaccel/crack/wordlist.hpp).
#include "cryptaccel/crack/wordlist.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "crack/file_checks.hpp"

namespace cryptaccel::crack {
namespace {
constexpr std::size_t kBlock = std::size_t{1} << 20;
}

bool is_stdin_wordlist(const std::string& path) { return path.empty() || path == "-"; }

WordlistReader::WordlistReader(const std::string& path)
    : path_(is_stdin_wordlist(path) ? "stdin" : path), buffer_(kBlock) {
  if (is_stdin_wordlist(path)) {
    file_ = stdin;
    return;
  }
  require_readable_file(path);
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) throw std::runtime_error(path + ": " + std::strerror(errno));
}

WordlistReader::~WordlistReader() {
  if (file_ != nullptr && file_ != stdin) std::fclose(file_);
}

bool WordlistReader::refill() {
  if (eof_) return false;
  // Keep the unfinished line at the front; grow when a single line fills the whole buffer.
  const std::size_t pending = end_ - begin_;
  if (begin_ > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, pending);
  begin_ = 0;
  end_ = pending;
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  const std::size_t n = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  if (n == 0) {
    if (std::ferror(file_)) throw std::runtime_error(path_ + ": read error: " + std::strerror(errno));
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

bool WordlistReader::next(std::string_view& word) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl != nullptr) {
      std::size_t len = static_cast<const char*>(nl) - start;
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      word = std::string_view(start, len);
      return true;
    }
    if (!refill()) {
      if (begin_ == end_) return false;
      // The last line has no newline.
      const char* last = buffer_.data() + begin_;
      std::size_t len = end_ - begin_;
      begin_ = end_;
      if (len > 0 && last[len - 1] == '\r') --len;
      word = std::string_view(last, len);
      return true;
    }
  }
}

std::optional<std::uint64_t> count_wordlist_lines(const std::string& path) {
  if (is_stdin_wordlist(path)) return std::nullopt;
  require_readable_file(path);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error(path + ": " + std::strerror(errno));
  std::vector<char> buffer(kBlock);
  std::uint64_t lines = 0;
  char last = '\n';
  for (;;) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n == 0) break;
    const char* p = buffer.data();
    const char* end = p + n;
    while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) != nullptr) {
      ++lines;
      ++p;
    }
    last = buffer[n - 1];
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw std::runtime_error(path + ": read error");
  return lines + (last != '\n' ? 1 : 0);
}

}  // namespace cryptaccel::crack
