// `cryptaccel hash`: the command line, parsed as GNU getopt_long does for sha256sum (bundled short options, long
// option abbreviations, options after file names, `--`), with sha256sum's rules about which options go together.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/hash.hpp"

namespace cryptaccel::cli::hash {

/// The program name in messages.
inline constexpr const char* kProgram = "cryptaccel hash";

/// The largest --length (SHAKE output bytes): a checksum needs far less, and a line of 2 MiB of hex is already
/// unusual; longer outputs are for the library (Hasher::digest), which streams them.
inline constexpr std::size_t kMaxShakeLength = std::size_t{1} << 20;

struct HashOptions {
  HashAlgorithm algorithm = HashAlgorithm::sha256;
  bool algorithm_given = false;  ///< -a was given: --check then takes only that algorithm's lines (as sha256sum)
  std::optional<std::size_t> length;  ///< --length: SHAKE output bytes
  std::string engine = "auto";
  bool check = false;
  bool tag = false;
  bool binary = false;  ///< -b ('*' before the name); --tag also sets it, as in coreutils
  bool zero = false;
  bool quiet = false;
  bool status = false;
  bool warn = false;
  bool strict = false;
  bool ignore_missing = false;
  bool list = false;
  bool help = false;
  bool version = false;
  std::vector<std::string> files;  ///< operands; empty: standard input
};

/// Parses the arguments after `hash`. On a usage mistake prints coreutils-style lines to stderr
/// ("cryptaccel hash: MESSAGE" and "Try 'cryptaccel hash --help' for more information.") and returns nullopt.
std::optional<HashOptions> parse_hash_options(const std::vector<std::string>& args);

/// The --help text.
std::string hash_usage();

}  // namespace cryptaccel::cli::hash
