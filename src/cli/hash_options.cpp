// `cryptaccel hash`: option parsing with getopt_long (the parser coreutils uses), then sha256sum's consistency rules.
#include "hash_options.hpp"

#include <getopt.h>

#include <charconv>
#include <climits>
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "cryptaccel/error.hpp"

namespace cryptaccel::cli::hash {
namespace {

enum LongOnly : int {
  kIgnoreMissing = CHAR_MAX + 1,
  kStatus,
  kQuiet,
  kStrict,
  kTag,
  kLength,
  kEngine,
  kList,
  kHelp,
  kVersion,
};

const option kLongOptions[] = {
    {"algorithm", required_argument, nullptr, 'a'},
    {"binary", no_argument, nullptr, 'b'},
    {"check", no_argument, nullptr, 'c'},
    {"engine", required_argument, nullptr, kEngine},
    {"help", no_argument, nullptr, kHelp},
    {"ignore-missing", no_argument, nullptr, kIgnoreMissing},
    {"length", required_argument, nullptr, kLength},
    {"list", no_argument, nullptr, kList},
    {"quiet", no_argument, nullptr, kQuiet},
    {"status", no_argument, nullptr, kStatus},
    {"strict", no_argument, nullptr, kStrict},
    {"tag", no_argument, nullptr, kTag},
    {"text", no_argument, nullptr, 't'},
    {"version", no_argument, nullptr, kVersion},
    {"warn", no_argument, nullptr, 'w'},
    {"zero", no_argument, nullptr, 'z'},
    {nullptr, 0, nullptr, 0},
};

/// A usage mistake: the message (if any; getopt prints its own), then the hint. Returns nullopt for the caller.
std::optional<HashOptions> usage_error(const std::string& message = {}) {
  if (!message.empty()) std::fprintf(stderr, "%s: %s\n", kProgram, message.c_str());
  std::fprintf(stderr, "Try '%s --help' for more information.\n", kProgram);
  return std::nullopt;
}

std::optional<std::size_t> parse_length(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 || value > kMaxShakeLength)
    return std::nullopt;
  return value;
}

}  // namespace

std::string hash_usage() {
  // The algorithm names, wrapped to fit 80 columns under the option's description.
  std::string names = "                          ";
  std::size_t column = names.size();
  const std::vector<std::string> all = hash_names();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string item = all[i] + (i + 1 < all.size() ? "," : "");
    if (column + 1 + item.size() > 80) {
      names += "\n                          ";
      column = 26;
    } else if (column > 26) {
      names += ' ';
      ++column;
    }
    names += item;
    column += item.size();
  }
  return std::string("Usage: ") + kProgram +
         " [OPTION]... [FILE]...\n"
         "Print or check message digests like sha256sum (the same output, checksum formats and messages).\n"
         "With no FILE, or when FILE is -, read standard input.\n"
         "\n"
         "  -a, --algorithm=NAME  hash algorithm (default sha256):\n" +
         names +
         "\n"
         "                          (any case; '-', '_' and '/' ignored: sha3-256, SHA512/224, shake128)\n"
         "      --length=N        SHAKE output length in bytes, 1 to 1048576 (default 16 for shake128,\n"
         "                          32 for shake256); with --check, only lines of that length are\n"
         "                          accepted (without it, SHAKE lines of any length are checked)\n"
         "      --engine=NAME     auto (default), ref, cpu, cuda, ... (see `cryptaccel engines`)\n"
         "      --list            list the hash algorithms and their digest sizes, and exit\n"
         "  -b, --binary          read in binary mode ('*' before the name; the same on GNU systems)\n"
         "  -c, --check           read checksums from the FILEs and check them; without -a, BSD-style\n"
         "                          lines (\"TAG (FILE) = HEX\") use their tag's algorithm, as cksum -c\n"
         "      --tag             create a BSD-style checksum (\"SHA256 (FILE) = HEX\")\n"
         "  -t, --text            read in text mode (default)\n"
         "  -z, --zero            end each output line with NUL, not newline,\n"
         "                          and disable file name escaping\n"
         "\n"
         "The following five options are useful only when verifying checksums:\n"
         "      --ignore-missing  don't fail or report status for missing files\n"
         "      --quiet           don't print OK for each successfully verified file\n"
         "      --status          don't output anything, status code shows success\n"
         "      --strict          exit non-zero for improperly formatted checksum lines\n"
         "  -w, --warn            warn about improperly formatted checksum lines\n"
         "\n"
         "      --help            display this help and exit\n"
         "      --version         output version information and exit\n"
         "\n"
         "Files shorter than 1 MiB are read whole and hashed together in batches (hash_batch, where an\n"
         "accelerator helps); longer files and standard input beyond 1 MiB are streamed in 1 MiB reads.\n"
         "Output follows the order of the FILEs.\n"
         "\n"
         "Exit status: 0 on success; 1 when a FILE could not be read, when a checked file is missing,\n"
         "unreadable or does not match, when a checksum file has no properly formatted line (or, with\n"
         "--strict, an improperly formatted one), when --ignore-missing verified no file, and on usage\n"
         "errors, an unusable engine or a write error.\n";
}

std::optional<HashOptions> parse_hash_options(const std::vector<std::string>& args) {
  HashOptions opt;
  int binary = -1;     // -1: not given; as coreutils: -b 1, -t 0, --tag 1
  bool length_given = false;

  std::vector<std::string> storage;
  storage.reserve(args.size() + 1);
  storage.emplace_back(kProgram);
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(storage.size());

  optind = 0;  // glibc: full re-initialisation
  opterr = 1;
  for (;;) {
    const int c = getopt_long(argc, argv.data(), "a:bctwz", kLongOptions, nullptr);
    if (c == -1) break;
    switch (c) {
      case 'a':
        try {
          opt.algorithm = parse_hash(optarg);
          opt.algorithm_given = true;
        } catch (const std::exception& e) {
          return usage_error(e.what());
        }
        break;
      case 'b': binary = 1; break;
      case 't': binary = 0; break;
      case 'c': opt.check = true; break;
      case 'w':
        opt.status = false, opt.warn = true, opt.quiet = false;
        break;
      case 'z': opt.zero = true; break;
      case kStatus:
        opt.status = true, opt.warn = false, opt.quiet = false;
        break;
      case kQuiet:
        opt.status = false, opt.warn = false, opt.quiet = true;
        break;
      case kStrict: opt.strict = true; break;
      case kIgnoreMissing: opt.ignore_missing = true; break;
      case kTag:
        opt.tag = true;
        binary = 1;
        break;
      case kLength: {
        const auto n = parse_length(optarg);
        if (!n)
          return usage_error(std::string("invalid length: '") + optarg + "' (a number of bytes, 1 to " +
                             std::to_string(kMaxShakeLength) + ")");
        opt.length = *n;
        length_given = true;
        break;
      }
      case kEngine: opt.engine = optarg; break;
      case kList: opt.list = true; break;
      case kHelp: opt.help = true; return opt;
      case kVersion: opt.version = true; return opt;
      default: return usage_error();  // getopt_long printed what was wrong
    }
  }
  // getopt_long permutes argv (not storage): operands are read from argv.
  for (int i = optind; i < argc; ++i) opt.files.emplace_back(argv[static_cast<std::size_t>(i)]);
  if (opt.list) return opt;

  if (length_given && !hash_info(opt.algorithm).xof) {
    return usage_error("--length is only supported with SHAKE algorithms (shake128, shake256), not " +
                       std::string(hash_info(opt.algorithm).name));
  }
  // sha256sum's rules, in its order.
  if (opt.tag && binary == 0) return usage_error("--tag does not support --text mode");
  if (opt.zero && opt.check) return usage_error("the --zero option is not supported when verifying checksums");
  if (opt.tag && opt.check) return usage_error("the --tag option is meaningless when verifying checksums");
  if (binary >= 0 && opt.check) {
    return usage_error("the --binary and --text options are meaningless when verifying checksums");
  }
  if (opt.ignore_missing && !opt.check) {
    return usage_error("the --ignore-missing option is meaningful only when verifying checksums");
  }
  if (opt.status && !opt.check) return usage_error("the --status option is meaningful only when verifying checksums");
  if (opt.warn && !opt.check) return usage_error("the --warn option is meaningful only when verifying checksums");
  if (opt.quiet && !opt.check) return usage_error("the --quiet option is meaningful only when verifying checksums");
  if (opt.strict && !opt.check) return usage_error("the --strict option is meaningful only when verifying checksums");
  opt.binary = binary == 1;
  return opt;
}

}  // namespace cryptaccel::cli::hash
