// hashcat's rule functions (the subset: cryptaccel/crack/rules.hpp). The semantics, including what happens at the edges
// (a position past the end, a result that would reach kRuleMaxLength: the function does nothing), follow hashcat's
// documentation and were checked against `hashcat --stdout -r` (tests/python/test_cli_crack.py).
#include "cryptaccel/crack/rules.hpp"

#include "crack/file_checks.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace cryptaccel::crack {
namespace {

/// How a function's arguments are written after its letter.
enum class Args { none, pos, pos_pos, pos_char, chr, chr_chr };

/// The argument shape of a supported function, or nothing for letters outside the subset.
std::optional<Args> args_of(char code) {
  switch (code) {
    case ':': case 'l': case 'u': case 'c': case 'C': case 't': case 'r': case 'd': case 'f':
    case '{': case '}': case '[': case ']': case 'q': case 'E': case 'k': case 'K':
      return Args::none;
    case 'T': case 'p': case 'D': case '\'': case 'z': case 'Z': case 'L': case 'R': case '+': case '-':
    case '.': case ',': case 'y': case 'Y':
      return Args::pos;
    case 'x': case 'O': case '*':
      return Args::pos_pos;
    case 'i': case 'o': case '3':
      return Args::pos_char;
    case '$': case '^': case '@': case 'e':
      return Args::chr;
    case 's':
      return Args::chr_chr;
    default:
      return std::nullopt;
  }
}

/// hashcat's positions: 0-9 then A-Z for 10-35.
int position_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return -1;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
char to_lower(char c) { return is_upper(c) ? static_cast<char>(c + 32) : c; }
char to_upper(char c) { return is_lower(c) ? static_cast<char>(c - 32) : c; }
char toggle(char c) { return is_lower(c) ? to_upper(c) : is_upper(c) ? to_lower(c) : c; }

void lower_all(std::string& w) { for (char& c : w) c = to_lower(c); }
void upper_all(std::string& w) { for (char& c : w) c = to_upper(c); }

/// Title case around separator `sep`: everything lower, then the first character and each one that follows a `sep`
/// of the lowered word upper (so with sep 's', "password" becomes "PasSWord", as in hashcat).
void title(std::string& w, char sep) {
  lower_all(w);
  if (w.empty()) return;
  const std::string lowered = w;
  w[0] = to_upper(w[0]);
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (lowered[i] == sep) w[i + 1] = to_upper(w[i + 1]);
}

/// Applies one function in place (the word is at most kRuleMaxLength bytes before and after).
void apply_op(const RuleOp& op, std::string& w) {
  constexpr std::size_t kMax = kRuleMaxLength;
  const std::size_t n = w.size();
  const std::size_t a = op.a;
  const std::size_t b = op.b;
  switch (op.code) {
    case ':': break;
    case 'l': lower_all(w); break;
    case 'u': upper_all(w); break;
    case 'c': lower_all(w); if (n) w[0] = to_upper(w[0]); break;
    case 'C': upper_all(w); if (n) w[0] = to_lower(w[0]); break;
    case 't': for (char& c : w) c = toggle(c); break;
    case 'T': if (a < n) w[a] = toggle(w[a]); break;
    case 'r': std::reverse(w.begin(), w.end()); break;
    case 'd': if (2 * n < kMax) w += std::string(w); break;
    case 'p':
      if (n + n * a < kMax) {
        const std::string once = w;
        for (std::size_t i = 0; i < a; ++i) w += once;
      }
      break;
    case 'f': if (2 * n < kMax) w += std::string(w.rbegin(), w.rend()); break;
    case '{': if (n) std::rotate(w.begin(), w.begin() + 1, w.end()); break;
    case '}': if (n) std::rotate(w.rbegin(), w.rbegin() + 1, w.rend()); break;
    case '$': if (n + 1 < kMax) w.push_back(static_cast<char>(a)); break;
    case '^': if (n + 1 < kMax) w.insert(w.begin(), static_cast<char>(a)); break;
    case '[': if (n) w.erase(0, 1); break;
    case ']': if (n) w.pop_back(); break;
    case 'D': if (a < n) w.erase(a, 1); break;
    case 'x': if (a < n && a + b <= n) w = w.substr(a, b); break;
    case 'O': if (a < n && a + b <= n) w.erase(a, b); break;
    case 'i': if (a <= n && n + 1 < kMax) w.insert(w.begin() + static_cast<std::ptrdiff_t>(a), static_cast<char>(b)); break;
    case 'o': if (a < n) w[a] = static_cast<char>(b); break;
    case '\'': if (a < n) w.resize(a); break;
    case 's': std::replace(w.begin(), w.end(), static_cast<char>(a), static_cast<char>(b)); break;
    case '@': std::erase(w, static_cast<char>(a)); break;
    case 'z': if (n && n + a < kMax) w.insert(0, a, w.front()); break;
    case 'Z': if (n && n + a < kMax) w.append(a, w.back()); break;
    case 'q':
      if (2 * n < kMax) {
        std::string out;
        out.reserve(2 * n);
        for (char c : w) { out += c; out += c; }
        w = std::move(out);
      }
      break;
    // hashcat leaves a word of the full kRuleMaxLength alone here (E, e and 3 only).
    case 'E': if (n < kMax) title(w, ' '); break;
    case 'e': if (n < kMax) title(w, static_cast<char>(a)); break;
    case '3': {
      if (n >= kMax) break;
      // Toggles the character after the (N+1)-th occurrence of X (N counts from 0).
      std::size_t seen = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] != static_cast<char>(b)) continue;
        if (seen++ == a) {
          if (i + 1 < n) w[i + 1] = toggle(w[i + 1]);
          break;
        }
      }
      break;
    }
    case 'k': if (n >= 2) std::swap(w[0], w[1]); break;
    case 'K': if (n >= 2) std::swap(w[n - 2], w[n - 1]); break;
    case '*': if (a < n && b < n) std::swap(w[a], w[b]); break;
    case 'L': if (a < n) w[a] = static_cast<char>(static_cast<std::uint8_t>(w[a]) << 1); break;
    case 'R': if (a < n) w[a] = static_cast<char>(static_cast<std::uint8_t>(w[a]) >> 1); break;
    case '+': if (a < n) w[a] = static_cast<char>(static_cast<std::uint8_t>(w[a]) + 1); break;
    case '-': if (a < n) w[a] = static_cast<char>(static_cast<std::uint8_t>(w[a]) - 1); break;
    case '.': if (a + 1 < n) w[a] = w[a + 1]; break;
    case ',': if (a > 0 && a < n) w[a] = w[a - 1]; break;
    case 'y': if (a <= n && n + a < kMax) w.insert(0, w.substr(0, a)); break;
    case 'Y': if (a <= n && n + a < kMax) w.append(w.substr(n - a)); break;
    default: break;  // parse_rule admits nothing else
  }
}

std::string describe(char c) {
  if (c >= 0x21 && c <= 0x7e) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

}  // namespace

Rule parse_rule(std::string_view text) {
  Rule rule;
  rule.text = std::string(text);
  std::size_t i = 0;
  const auto column = [&](std::size_t at) { return " at column " + std::to_string(at + 1); };
  while (i < text.size()) {
    const char code = text[i];
    if (code == ' ') {  // hashcat ignores spaces between functions
      ++i;
      continue;
    }
    const auto args = args_of(code);
    if (!args) throw std::invalid_argument("unsupported rule function " + describe(code) + column(i));
    const std::size_t start = i++;
    RuleOp op;
    op.code = code;
    const auto need = [&](const char* what) -> char {
      if (i >= text.size())
        throw std::invalid_argument("rule function " + describe(code) + column(start) + " needs " + what);
      return text[i++];
    };
    const auto position = [&]() -> std::uint8_t {
      const char c = need("a position (0-9, A-Z)");
      const int v = position_value(c);
      if (v < 0)
        throw std::invalid_argument("rule function " + describe(code) + column(start) + ": " + describe(c) +
                                    " is not a position (0-9, A-Z)");
      return static_cast<std::uint8_t>(v);
    };
    const auto character = [&]() { return static_cast<std::uint8_t>(need("a character")); };
    switch (*args) {
      case Args::none: break;
      case Args::pos: op.a = position(); break;
      case Args::pos_pos: op.a = position(); op.b = position(); break;
      case Args::pos_char: op.a = position(); op.b = character(); break;
      case Args::chr: op.a = character(); break;
      case Args::chr_chr: op.a = character(); op.b = character(); break;
    }
    rule.ops.push_back(op);
  }
  if (rule.ops.empty()) throw std::invalid_argument("empty rule");
  return rule;
}

std::optional<std::string> apply_rule(const Rule& rule, std::string_view word) {
  if (word.size() > kRuleMaxLength) return std::nullopt;
  std::string w(word);
  for (const RuleOp& op : rule.ops) apply_op(op, w);
  return w;
}

std::vector<Rule> load_rule_file(const std::string& path, const SkippedRule& skipped) {
  require_readable_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": " + std::strerror(errno));
  std::vector<Rule> rules;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    try {
      rules.push_back(parse_rule(line));
    } catch (const std::invalid_argument& e) {
      if (skipped) skipped(number, line, e.what());
    }
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  if (rules.empty()) throw std::runtime_error(path + ": no usable rules in the file");
  return rules;
}

std::vector<Rule> stack_rules(const std::vector<std::vector<Rule>>& lists, std::size_t max_rules) {
  if (lists.size() == 1) return lists.front();
  std::size_t total = 1;
  for (const std::vector<Rule>& list : lists) {
    if (list.empty()) return {};
    if (total > max_rules / list.size())
      throw std::runtime_error("the stacked rule files make more than " + std::to_string(max_rules) + " rules");
    total *= list.size();
  }
  std::vector<Rule> out;
  out.reserve(total);
  for (std::size_t k = 0; k < total; ++k) {
    Rule combined;
    std::size_t rest = k;
    for (const std::vector<Rule>& list : lists) {  // the first list varies fastest
      const Rule& part = list[rest % list.size()];
      rest /= list.size();
      combined.ops.insert(combined.ops.end(), part.ops.begin(), part.ops.end());
      combined.text += (combined.text.empty() ? "" : " ") + part.text;
    }
    out.push_back(std::move(combined));
  }
  return out;
}

}  // namespace cryptaccel::crack
