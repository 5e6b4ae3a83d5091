// `cryptaccel hash --check`: parsing one line of a checksum file, as coreutils 9.1's sha256sum does.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cryptaccel::cli::hash {

/// What a checksum line must look like for the chosen algorithm.
struct CheckFormat {
  std::string tag;              ///< the BSD-style tag: "SHA256", "SHA3-256" (hash_info().display_name)
  std::size_t hex_digits = 0;   ///< digest length in hex digits; 0: any even number >= 2 (SHAKE without --length)
};

/// A properly formatted line.
struct CheckLine {
  std::string digest_hex;  ///< as written (either case)
  std::string file_name;   ///< unescaped
};

/// Parses lines in either format sha256sum accepts: "HEX  NAME" / "HEX *NAME" (GNU), "TAG (NAME) = HEX" (BSD,
/// --tag; "TAG(NAME)= HEX" too) and "HEX NAME" (reversed BSD, one space); a leading '\' marks an escaped name. As in
/// coreutils, once a line has been read as GNU or reversed BSD, lines of the other of those two formats are refused
/// for the rest of the run (to keep names with a leading space or '*' unambiguous).
class CheckLineParser {
 public:
  explicit CheckLineParser(CheckFormat format) : format_(std::move(format)) {}

  /// `line` without its line end (trailing "\n" and then one "\r" removed), not empty and not a '#' comment.
  /// nullopt when it is improperly formatted.
  std::optional<CheckLine> parse(std::string_view line);

 private:
  std::optional<CheckLine> parse_bsd(std::string_view rest, bool escaped) const;
  bool valid_digits(std::string_view digits) const;

  CheckFormat format_;
  int bsd_reversed_ = -1;  ///< -1: not known yet; 0: GNU format seen; 1: reversed BSD format seen
};

}  // namespace cryptaccel::cli::hash
