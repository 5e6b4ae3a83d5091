// Cracking: the wordlist, streamed (any size) one line at a time. Lines end in "\n" or "\r\n"; an empty
// line is a candidate (the empty password), as in hashcat; a last line without a newline counts.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::crack {

/// Reads a wordlist in large blocks and hands out its lines.
class WordlistReader {
 public:
  /// Opens `path` ("" or "-": stdin). Throws std::runtime_error "PATH: reason" when it cannot be read (missing,
  /// directory, ...).
  explicit WordlistReader(const std::string& path);
  WordlistReader(const WordlistReader&) = delete;
  WordlistReader& operator=(const WordlistReader&) = delete;
  ~WordlistReader();

  /// The next line without its line end, valid until the next call; false at the end of the file.
  /// Throws std::runtime_error on a read error.
  bool next(std::string_view& word);

 private:
  bool refill();

  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  ///< first unread byte in buffer_
  std::size_t end_ = 0;    ///< one past the last valid byte
  bool eof_ = false;
};

/// Whether `path` names stdin ("" or "-").
bool is_stdin_wordlist(const std::string& path);

/// Number of lines `WordlistReader` would hand out for `path` (one fast pass); nothing for stdin, which cannot be
/// read twice. Throws as WordlistReader.
std::optional<std::uint64_t> count_wordlist_lines(const std::string& path);

}  // namespace cryptaccel::crack
