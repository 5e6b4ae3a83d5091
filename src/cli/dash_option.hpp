// openssl-style command lines (`enc`, `pkeyutl`): one option word split into its name and an inline value, and the
// value an option takes. CLI11 cannot parse single-dash long options (-aes-128-cbc, -inkey), hence this.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::cli {

/// One option word: `-name`, `--name`, `-name=value` or `--name=value` (OpenSSL 3.0's parser takes an inline value
/// after one dash too: `openssl enc -K=HEX`).
struct DashOption {
  std::string_view name;                    ///< without the dashes and the inline value; views the argument
  std::optional<std::string> inline_value;  ///< the part after the first '=' of `-name=value` or `--name=value`
  std::string_view dashes;                  ///< "-" or "--", as written (for messages)
};

/// Splits `arg`; throws InvalidArgument ("unexpected argument ...") when it is not an option.
DashOption split_dash_option(const std::string& arg);

/// The value of option `arg` (split as `option`): its inline value, or else the next argument (advancing `i`) when
/// `takes_value`; empty for a flag. Throws InvalidArgument when a value is missing or a flag was given one.
std::string dash_option_value(const std::vector<std::string>& args, std::size_t& i, const std::string& arg,
                              const DashOption& option, bool takes_value);

}  // namespace cryptaccel::cli
