// Cracking: hashcat's rule language (the word-mangling functions of its rule-based attack) for a documented
// subset: every mangling function except the memory ones (M X 4 6) and the reject rules (< > ! / ( ) = % Q).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::crack {

/// Longest candidate a rule may produce, as hashcat's CPU rule engine (RP_PASSWORD_SIZE): a function whose result
/// would reach this length leaves the word unchanged, and a longer word is not mangled at all.
inline constexpr std::size_t kRuleMaxLength = 256;

/// One function of a rule with its (already decoded) arguments.
struct RuleOp {
  char code = ':';      ///< the function letter, as in the rule text
  std::uint8_t a = 0;   ///< first argument: a position/count (0-35) or a character
  std::uint8_t b = 0;   ///< second argument, where the function has one
};

/// A parsed rule: its functions in order, applied left to right.
struct Rule {
  std::vector<RuleOp> ops;
  std::string text;  ///< as written (for messages)
};

/// Parses one rule line. Spaces between functions are ignored, as hashcat does. Throws std::invalid_argument with a
/// one-line reason ("unsupported rule function 'M' at column 3", "rule function 'T' needs a position ...").
Rule parse_rule(std::string_view text);

/// Applies `rule` to `word`; returns the candidate, or nothing when the word is too long to be mangled
/// (kRuleMaxLength). Case functions act on ASCII letters only, as hashcat's.
std::optional<std::string> apply_rule(const Rule& rule, std::string_view word);

/// Told about a rule line that load_rule_file skips: its 1-based line number, its text and why.
using SkippedRule = std::function<void(std::size_t line, const std::string& rule, const std::string& reason)>;

/// Reads a rule file: one rule per line; blank lines and lines starting with '#' are skipped; "\r\n" is accepted.
/// A malformed or unsupported rule is skipped and reported to `skipped`, as hashcat skips it ("Skipping invalid or
/// unsupported rule"; hashcat's memory and reject functions M X 4 6 < > ! / ( ) = % Q are among those, which hashcat
/// itself cannot convert for its devices and skips). Throws std::runtime_error "FILE: reason" when the file cannot
/// be read or holds no usable rule.
std::vector<Rule> load_rule_file(const std::string& path, const SkippedRule& skipped);

/// Stacks rule lists as hashcat stacks repeated -r: every combination of one rule from each list, applied in the
/// order of the lists, the first list varying fastest (-r A -r B gives A0+B0, A1+B0, ..., A0+B1, ...). One list is
/// returned as it is. Throws std::runtime_error when the product exceeds `max_rules`.
std::vector<Rule> stack_rules(const std::vector<std::vector<Rule>>& lists, std::size_t max_rules = std::size_t{1} << 22);

}  // namespace cryptaccel::crack
