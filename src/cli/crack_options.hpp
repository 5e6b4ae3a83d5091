// `cryptaccel crack`: command-line options.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cryptaccel/crack/targets.hpp"

namespace cryptaccel::cli::crack {

using namespace cryptaccel::crack;

/// Exit statuses, as hashcat's: 0 every hash cracked, 1 candidates exhausted, 2 aborted (SIGINT/SIGTERM), 255 error
/// (hashcat returns -1). --show/--left and --help return 0.
inline constexpr int kExitCracked = 0;
inline constexpr int kExitExhausted = 1;
inline constexpr int kExitAborted = 2;
inline constexpr int kExitError = 255;

/// Everything `cryptaccel crack` was asked to do.
/// One field of a find's output line (hashcat's --outfile-format numbers 1-6).
enum class OutfileField { hash = 1, plain, hex_plain, crack_pos, timestamp_absolute, timestamp_relative };

struct CrackOptions {
  std::string hash_file;
  std::string wordlist;                 ///< "" or "-": stdin (hashcat reads stdin when no wordlist is given)
  std::vector<std::string> rules_files; ///< --rules / -r, repeatable: stacked as hashcat stacks them
  std::optional<HashMode> mode;         ///< -m; nothing: detect from each line
  std::string engine = "auto";
  std::string potfile_path;             ///< --potfile-path (empty: the default path)
  bool potfile_disable = false;
  bool show = false;
  bool left = false;
  std::string outfile;                  ///< -o
  bool status = false;                  ///< --status
  std::optional<double> status_timer;   ///< --status-timer seconds
  bool status_json = false;
  std::size_t threads = 0;
  bool quiet = false;
  bool stdout_only = false;             ///< --stdout: print the candidates, crack nothing
  std::size_t batch = 0;                ///< --batch: fixed candidates per batch (0: adaptive)
  std::uint64_t skip = 0;               ///< -s: words of the wordlist to skip
  std::optional<std::uint64_t> limit;   ///< -l: words to try after them (nothing: to the end)
  /// --outfile-format: the fields of a find's line, joined with ':' (default hash:plain, hashcat's 1,2).
  std::vector<OutfileField> outfile_format{OutfileField::hash, OutfileField::plain};
  /// --ray: crack on a Ray cluster ("auto", "local" or an address) through the Python package's runner; empty: here.
  std::string ray;
  std::string session = "cryptaccel";   ///< --session: names the cluster run's restore file
  std::string restore_file_path;        ///< --restore-file-path (empty: from --session, beside the potfile)
  bool restore = false;                 ///< --restore: continue the session's cluster run
  double ray_unit_seconds = 5.0;        ///< --ray-unit-seconds: the time a work unit should take on its worker
  /// hashcat options accepted for command-line compatibility that change nothing here (-O, -w, --force,
  /// --username), named for the note that says so.
  std::vector<std::string> ignored;
};

/// Parses the arguments after "crack". Returns nothing after printing --help (exit 0) or a usage error
/// ("cryptaccel crack: ... (see --help)" on stderr); `exit_code` tells which.
std::optional<CrackOptions> parse_crack_options(const std::vector<std::string>& args, int& exit_code);

}  // namespace cryptaccel::cli::crack
