// Fuzzes hashcat-rule parsing and application: the input's first line is a rule, the rest a word. A parsed rule
// applied to any word must give a candidate no longer than kRuleMaxLength (or nothing, for a word that is too long).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "cryptaccel/crack/rules.hpp"

namespace crack = cryptaccel::crack;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = text.find('\n');
  const std::string_view rule_text = text.substr(0, nl);
  const std::string_view word = nl == std::string_view::npos ? std::string_view("Password1") : text.substr(nl + 1);
  crack::Rule rule;
  try {
    rule = crack::parse_rule(rule_text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  for (const std::string_view w : {word, std::string_view(""), std::string_view("p@ssw0rd")}) {
    const auto candidate = crack::apply_rule(rule, w);
    if (candidate && candidate->size() > crack::kRuleMaxLength) std::abort();
    if (!candidate && w.size() <= crack::kRuleMaxLength) std::abort();
  }
  return 0;
}
