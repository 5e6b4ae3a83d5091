#include "dash_option.hpp"

#include "cryptaccel/error.hpp"

namespace cryptaccel::cli {

DashOption split_dash_option(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') throw InvalidArgument("unexpected argument '" + arg + "'");
  const std::size_t dashes = arg[1] == '-' ? 2 : 1;
  DashOption option{std::string_view(arg).substr(dashes), std::nullopt, std::string_view(arg).substr(0, dashes)};
  if (const auto eq = option.name.find('='); eq != std::string_view::npos) {
    option.inline_value = std::string(option.name.substr(eq + 1));
    option.name = option.name.substr(0, eq);
  }
  return option;
}

std::string dash_option_value(const std::vector<std::string>& args, std::size_t& i, const std::string& arg,
                              const DashOption& option, bool takes_value) {
  if (!takes_value) {
    if (option.inline_value)
      throw InvalidArgument("option '" + std::string(option.dashes) + std::string(option.name) + "' takes no value");
    return {};
  }
  if (option.inline_value) return *option.inline_value;
  if (i + 1 < args.size()) return args[++i];
  throw InvalidArgument("option '" + arg + "' needs a value");
}

}  // namespace cryptaccel::cli
