// `cryptaccel hash --check`: checksum line parsing, following split_3() and bsd_split_3() of coreutils' digest.c
// (the same indices and the same corner cases, so that a line is accepted exactly when sha256sum accepts it).
#include "hash_check_line.hpp"

#include <algorithm>

#include "hash_quote.hpp"

namespace cryptaccel::cli::hash {
namespace {

bool is_white(char c) { return c == ' ' || c == '\t'; }

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/// s[i], or NUL past the end (the C code reads the terminating NUL).
char at(std::string_view s, std::size_t i) { return i < s.size() ? s[i] : '\0'; }

/// An unescaped name is used as a C string by coreutils: it ends at an embedded NUL.
std::string c_string(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

}  // namespace

bool CheckLineParser::valid_digits(std::string_view digits) const {
  if (format_.hex_digits != 0 ? digits.size() != format_.hex_digits : digits.size() < 2 || digits.size() % 2 != 0) {
    return false;
  }
  return std::all_of(digits.begin(), digits.end(), is_hex);
}

std::optional<CheckLine> CheckLineParser::parse_bsd(std::string_view s, bool escaped) const {
  if (s.empty()) return std::nullopt;
  std::size_t i = s.size() - 1;
  while (i != 0 && s[i] != ')') --i;
  if (s[i] != ')') return std::nullopt;

  CheckLine line;
  if (escaped) {
    auto name = unescape_name(s.substr(0, i));
    if (!name) return std::nullopt;
    line.file_name = std::move(*name);
  } else {
    line.file_name = c_string(s.substr(0, i));
  }
  ++i;
  while (is_white(at(s, i))) ++i;
  if (at(s, i) != '=') return std::nullopt;
  ++i;
  while (is_white(at(s, i))) ++i;
  line.digest_hex = std::string(s.substr(std::min(i, s.size())));
  if (!valid_digits(line.digest_hex)) return std::nullopt;
  return line;
}

std::optional<CheckLine> CheckLineParser::parse(std::string_view s) {
  std::size_t i = 0;
  while (is_white(at(s, i))) ++i;
  bool escaped = false;
  if (at(s, i) == '\\') {
    ++i;
    escaped = true;
  }

  // BSD style: "TAG (NAME) = HEX".
  if (s.substr(i).starts_with(format_.tag)) {
    i += format_.tag.size();
    if (at(s, i) == ' ') ++i;
    if (at(s, i) == '(') return parse_bsd(s.substr(i + 1), escaped);
    return std::nullopt;
  }

  // Too short to hold a digest, a blank and a one-character name (coreutils' off-by-one for a second '\' kept).
  const std::size_t min_length = format_.hex_digits != 0 ? format_.hex_digits + 2 : 3;
  if (s.size() - i < min_length + (at(s, i) == '\\' ? 1 : 0)) return std::nullopt;

  const std::size_t digest_start = i;
  while (at(s, i) != '\0' && !is_white(at(s, i))) ++i;
  if (i == s.size()) return std::nullopt;  // the digest must be followed by a blank
  CheckLine line;
  line.digest_hex = std::string(s.substr(digest_start, i - digest_start));
  ++i;
  if (!valid_digits(line.digest_hex)) return std::nullopt;

  if (s.size() - i == 1 || (at(s, i) != ' ' && at(s, i) != '*')) {
    // Reversed BSD format ("HEX NAME"), as `md5 -r` writes it.
    if (bsd_reversed_ == 0) return std::nullopt;
    bsd_reversed_ = 1;
  } else if (bsd_reversed_ != 1) {
    bsd_reversed_ = 0;
    ++i;  // the mode character: ' ' (text) or '*' (binary), the same on GNU systems
  }

  const std::string_view name = s.substr(i);
  if (escaped) {
    auto unescaped = unescape_name(name);
    if (!unescaped) return std::nullopt;
    line.file_name = std::move(*unescaped);
  } else {
    line.file_name = c_string(name);
  }
  return line;
}

}  // namespace cryptaccel::cli::hash
