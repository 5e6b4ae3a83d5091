// `cryptaccel hash`: file names as GNU coreutils 9.1 shows them, so that output and messages match sha256sum's.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace cryptaccel::cli::hash {

/// A file name in an error message, as coreutils' quotef() shows it (gnulib's shell-escape quoting style, with ':'
/// also quoted): unchanged when only "safe" characters appear (`dir`, `-`, `é` in a UTF-8 locale); otherwise
/// single-quoted ('my dir', 'a:b'), double-quoted when it holds an apostrophe and nothing else special ("it's"), and
/// control characters or invalid bytes as $'\n' or $'\377' segments ('x'$'\n''y'). Uses the LC_CTYPE locale of the
/// process (call setlocale(LC_CTYPE, "") first, as coreutils does) to tell printable multibyte characters.
std::string quote_name(std::string_view name);

/// Whether a checksum line for `name` needs coreutils' escaping when printing digests: a backslash, newline or
/// carriage return in the name. The line then starts with '\' and the name is written by escape_name().
bool name_needs_escape(std::string_view name);

/// Whether a result line of --check ("NAME: OK") needs escaping: coreutils 9.1 escapes those only for names with a
/// newline (a name with only '\' or '\r' is printed as it is).
bool check_name_needs_escape(std::string_view name);

/// The name with '\\' for each backslash, '\n' for each newline and '\r' for each carriage return.
std::string escape_name(std::string_view name);

/// The reverse of escape_name for a checksum line whose first character was '\': nullopt when the text is not a
/// valid escaped name (a backslash followed by anything but 'n', 'r' or '\', a trailing lone backslash, or a NUL).
std::optional<std::string> unescape_name(std::string_view text);

}  // namespace cryptaccel::cli::hash
