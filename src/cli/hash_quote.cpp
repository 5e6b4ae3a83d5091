// `cryptaccel hash`: coreutils-compatible quoting and escaping of file names. quote_name() follows gnulib's
// quotearg_buffer_restyled() for shell_escape_quoting_style with ':' in quote_these_too (what coreutils' quotef()
// uses), reduced to the cases a NUL-free file name can reach.
#include "hash_quote.hpp"

#include <cctype>
#include <cstdlib>
#include <cwchar>
#include <cwctype>

namespace cryptaccel::cli::hash {
namespace {

/// Printable characters that never need quoting (':' would not either, but quotef quotes it).
bool is_safe_ascii(unsigned char c) {
  return std::isalnum(c) || c == '%' || c == '+' || c == ',' || c == '-' || c == '.' || c == '/' || c == ']' ||
         c == '_' || c == '@';
}

/// Shell specials that make the name need quotes wherever they appear.
bool is_shell_special(unsigned char c) {
  switch (c) {
    case ' ': case '!': case '"': case '$': case '&': case '(': case ')': case '*': case ';': case '<':
    case '=': case '>': case '[': case '^': case '`': case '|': case '\'': case '?': case '\\': case ':':
      return true;
    default:
      return false;
  }
}

/// The letter of a C escape for `c` ('n' for newline), or 0.
char c_escape_letter(unsigned char c) {
  switch (c) {
    case '\a': return 'a';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\v': return 'v';
    default: return 0;
  }
}

/// One non-ASCII (or non-printable) character at `pos`: how many bytes it spans and whether it is printable. Invalid
/// bytes are one unprintable byte each; an incomplete sequence at the end spans the rest of the name, unprintable.
struct Char {
  std::size_t bytes;
  bool printable;
};

Char classify(std::string_view s, std::size_t pos) {
  const auto c = static_cast<unsigned char>(s[pos]);
  if (MB_CUR_MAX == 1) return {1, std::isprint(c) != 0};
  std::mbstate_t state{};
  wchar_t w = 0;
  const std::size_t n = std::mbrtowc(&w, s.data() + pos, s.size() - pos, &state);
  if (n == static_cast<std::size_t>(-1) || n == 0) return {1, false};
  if (n == static_cast<std::size_t>(-2)) return {s.size() - pos, false};
  return {n, std::iswprint(static_cast<wint_t>(w)) != 0};
}

/// Whether the name can be shown as it is.
bool shows_bare(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '{' || c == '}') {
      if (s.size() == 1) return false;
    } else if (c == '#' || c == '~') {
      if (i == 0) return false;
    } else if (is_shell_special(c) || c_escape_letter(c) != 0) {
      return false;
    } else if (!is_safe_ascii(c)) {
      const Char ch = classify(s, i);
      if (!ch.printable) return false;
      i += ch.bytes;
      continue;
    }
    ++i;
  }
  return true;
}

/// Whether the character stays acceptable inside plain double quotes (gnulib's "c_and_shell_quote_compat").
bool double_quote_compatible(std::string_view s, std::size_t i, unsigned char c) {
  if (c == ' ' || c == '\'' || c == ':' || is_safe_ascii(c)) return true;
  if (c == '#' || c == '~') return i == 0;
  if (c == '{' || c == '}') return s.size() == 1;
  return false;
}

}  // namespace

std::string quote_name(std::string_view s) {
  if (shows_bare(s)) return std::string(s);

  std::string out = "'";
  bool in_dollar = false;  // inside a $'...' segment
  bool apostrophe = false;
  bool all_compatible = true;
  const auto escape = [&] {
    if (!in_dollar) out += "'$'";
    in_dollar = true;
    out += '\\';
  };
  const auto plain = [&] {
    if (in_dollar) out += "''";
    in_dollar = false;
  };
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (const char letter = c_escape_letter(c)) {
      escape();
      out += letter;
      all_compatible = false;
      ++i;
    } else if (c == '\'') {
      apostrophe = true;
      out += "'\\''";
      in_dollar = false;
      ++i;
    } else if (c < 0x80 && (is_safe_ascii(c) || is_shell_special(c) || c == '#' || c == '~' || c == '{' ||
                            c == '}')) {
      plain();
      out += static_cast<char>(c);
      if (!double_quote_compatible(s, i, c)) all_compatible = false;
      ++i;
    } else {
      const Char ch = classify(s, i);
      if (ch.printable) {
        plain();
        out.append(s.substr(i, ch.bytes));
      } else {
        for (std::size_t k = 0; k < ch.bytes; ++k) {
          const auto b = static_cast<unsigned char>(s[i + k]);
          escape();
          out += static_cast<char>('0' + (b >> 6));
          out += static_cast<char>('0' + ((b >> 3) & 7));
          out += static_cast<char>('0' + (b & 7));
        }
        all_compatible = false;
      }
      i += ch.bytes;
    }
  }
  if (apostrophe && all_compatible) {
    std::string quoted(1, '"');
    quoted.append(s);
    quoted += '"';
    return quoted;
  }
  out += '\'';
  return out;
}

bool name_needs_escape(std::string_view name) { return name.find_first_of("\\\n\r") != std::string_view::npos; }

bool check_name_needs_escape(std::string_view name) { return name.find('\n') != std::string_view::npos; }

std::string escape_name(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 8);
  for (const char c : name) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default: out += c; break;
    }
  }
  return out;
}

std::optional<std::string> unescape_name(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') return std::nullopt;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    switch (text[i]) {
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case '\\': out += '\\'; break;
      default: return std::nullopt;
    }
  }
  return out;
}

}  // namespace cryptaccel::cli::hash
