// `cryptaccel hash`: sha256sum-compatible digests of files (and --check of checksum files) for every hash algorithm
// of the library. Output lines and messages are those of GNU coreutils 9.1, with "cryptaccel hash" as the program
// name. Files are read and hashed by hash_digester.cpp (small ones in batches); names are quoted and escaped by
// hash_quote.cpp; checksum lines are parsed by hash_check_line.cpp.
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "command_errors.hpp"
#include "commands.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/hex.hpp"
#include "cryptaccel/version.hpp"
#include "hash_check_line.hpp"
#include "hash_digester.hpp"
#include "hash_options.hpp"
#include "hash_quote.hpp"

namespace cryptaccel::cli {
namespace {

using hash::kProgram;

/// "cryptaccel hash: MESSAGE" on stderr, after whatever stdout holds (so that the two stay in order on a terminal).
void message(const std::string& text) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", kProgram, text.c_str());
}

/// The message for a file that could not be hashed: "NAME: No such file or directory", with NAME quoted as
/// coreutils quotes it.
std::string failure_text(const std::string& name, const hash::DigestOutcome& outcome) {
  const std::string why = outcome.error != 0 ? std::strerror(outcome.error) : outcome.message;
  return hash::quote_name(name) + ": " + why;
}

/// Case-insensitive comparison of a hex digest from a checksum file with a computed digest.
bool hex_matches(std::string_view hex, bytes_view digest) {
  if (hex.size() != 2 * digest.size()) return false;
  const std::string ours = to_hex(digest);
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i] >= 'A' && hex[i] <= 'F' ? static_cast<char>(hex[i] - 'A' + 'a') : hex[i];
    if (c != ours[i]) return false;
  }
  return true;
}

void write_out(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

/// Limits of the digester; CRYPTACCEL_HASH_SMALL_FILE and CRYPTACCEL_HASH_BATCH_FILES (test hooks) shrink them so
/// that tests can cross the small/large boundary and split batches with small inputs.
hash::DigesterLimits digester_limits() {
  hash::DigesterLimits limits;
  const auto read_env = [](const char* name, std::size_t& field) {
    if (const char* text = std::getenv(name); text != nullptr && *text != '\0') {
      char* end = nullptr;
      const unsigned long long value = std::strtoull(text, &end, 10);
      if (end != nullptr && *end == '\0' && value > 0) field = static_cast<std::size_t>(value);
    }
  };
  read_env("CRYPTACCEL_HASH_SMALL_FILE", limits.small_file);
  read_env("CRYPTACCEL_HASH_BATCH_FILES", limits.batch_jobs);
  if (limits.chunk > limits.small_file) limits.chunk = limits.small_file;
  return limits;
}

// --- printing digests --------------------------------------------------------------------------------------------

bool print_digests(const hash::HashOptions& opt) {
  const HashInfo& info = hash_info(opt.algorithm);
  const std::size_t out_len = info.xof ? opt.length.value_or(info.digest_size) : info.digest_size;
  const char delim = opt.zero ? '\0' : '\n';
  std::vector<std::string> files = opt.files;
  if (files.empty()) files.emplace_back("-");

  bool ok = true;
  hash::Digester digester(opt.algorithm, opt.engine, digester_limits());
  for (const std::string& file : files) {
    digester.submit(file, out_len, false, [&, file](const hash::DigestOutcome& outcome) {
      if (!outcome.ok) {
        message(failure_text(file, outcome));
        ok = false;
        return;
      }
      const bool escape = !opt.zero && hash::name_needs_escape(file);
      const std::string name = escape ? hash::escape_name(file) : file;
      std::string line = escape ? "\\" : "";
      if (opt.tag) {
        line += std::string(info.display_name) + " (" + name + ") = " + to_hex(outcome.digest);
      } else {
        line += to_hex(outcome.digest) + " " + (opt.binary ? "*" : " ") + name;
      }
      line += delim;
      write_out(line);
    });
  }
  digester.flush();
  return ok;
}

// --- checking ----------------------------------------------------------------------------------------------------

struct CheckCounts {
  std::uintmax_t misformatted = 0;
  std::uintmax_t mismatched = 0;
  std::uintmax_t unreadable = 0;
  bool properly_formatted = false;
  bool matched = false;
};

/// "NAME" as a --check result line shows it (with the leading '\' when escaped).
std::string result_name(const std::string& name) {
  if (!hash::check_name_needs_escape(name)) return name;
  std::string out(1, '\\');
  out += hash::escape_name(name);
  return out;
}

/// The parsers and digesters of a --check run, one per algorithm met. Without -a, a BSD-style line ("TAG (NAME) =
/// HEX") is checked with its tag's algorithm, as `cksum -c` does; every other line with the -a algorithm (default
/// sha256), as sha256sum does. Digesters answer in order only among themselves, so the one in use is flushed before
/// another takes over: results stay in line order.
class Checkers {
 public:
  explicit Checkers(const hash::HashOptions& opt) : opt_(opt) {}

  struct Entry {
    hash::CheckLineParser parser;  // one per algorithm for the run: the GNU / reversed-BSD choice carries over
    hash::Digester digester;
  };

  /// The algorithm a line is checked with.
  HashAlgorithm algorithm_of(std::string_view line) const {
    if (opt_.algorithm_given) return opt_.algorithm;
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i < line.size() && line[i] == '\\') ++i;
    const std::string_view rest = line.substr(i);
    std::optional<HashAlgorithm> best;
    std::size_t best_length = 0;
    for (const std::string& name : hash_names()) {  // the longest tag wins: "SHA512/224" over "SHA512"
      const HashInfo& info = hash_info(parse_hash(name));
      const std::string_view tag = info.display_name;
      if (rest.size() > tag.size() && rest.starts_with(tag) && (rest[tag.size()] == ' ' || rest[tag.size()] == '(') &&
          tag.size() > best_length) {
        best = info.algorithm;
        best_length = tag.size();
      }
    }
    return best.value_or(opt_.algorithm);
  }

  /// The entry of `algorithm`, created on first use; the entry used before is flushed when another takes over.
  Entry& use(HashAlgorithm algorithm) {
    if (current_ && *current_ != algorithm) entries_.at(*current_)->digester.flush();
    current_ = algorithm;
    auto& slot = entries_[algorithm];
    if (!slot) {
      const HashInfo& info = hash_info(algorithm);
      hash::CheckFormat format;
      format.tag = std::string(info.display_name);
      format.hex_digits = info.xof ? 2 * opt_.length.value_or(0) : 2 * info.digest_size;
      slot = std::make_unique<Entry>(Entry{hash::CheckLineParser(format),
                                           hash::Digester(algorithm, opt_.engine, digester_limits())});
    }
    return *slot;
  }

  /// Flushes the entry in use (the others were flushed when it took over).
  void flush() {
    if (current_) entries_.at(*current_)->digester.flush();
  }

 private:
  const hash::HashOptions& opt_;
  std::map<HashAlgorithm, std::unique_ptr<Entry>> entries_;
  std::optional<HashAlgorithm> current_;
};

/// Checks one checksum file (`-`: standard input), as coreutils' digest_check(). Returns true when every listed file
/// was read and matched (and, with --strict, every line was properly formatted).
bool check_file(const std::string& check_name, const hash::HashOptions& opt, Checkers& checkers) {
  const bool is_stdin = check_name == "-";
  const std::string shown = hash::quote_name(is_stdin ? std::string("standard input") : check_name);
  std::FILE* in = is_stdin ? stdin : std::fopen(check_name.c_str(), "r");
  if (in == nullptr) {
    message(hash::quote_name(check_name) + ": " + std::strerror(errno));
    return false;
  }
  const std::string tag(hash_info(opt.algorithm).display_name);

  CheckCounts counts;
  char* buffer = nullptr;
  std::size_t capacity = 0;
  std::uintmax_t line_number = 0;
  for (;;) {
    ++line_number;
    const ssize_t read = ::getline(&buffer, &capacity, in);
    if (read <= 0) break;
    std::string_view line(buffer, static_cast<std::size_t>(read));
    if (line.front() == '#') continue;
    if (line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;

    Checkers::Entry& entry = checkers.use(checkers.algorithm_of(line));
    hash::Digester& digester = entry.digester;
    auto parsed = entry.parser.parse(line);
    if (!parsed || (is_stdin && parsed->file_name == "-")) {
      ++counts.misformatted;
      if (opt.warn) {
        digester.submit_note([=] {
          message(shown + ": " + std::to_string(line_number) + ": improperly formatted " + tag + " checksum line");
        });
      }
      continue;
    }
    counts.properly_formatted = true;
    const std::string file = parsed->file_name;
    const std::string hex = parsed->digest_hex;
    digester.submit(file, hex.size() / 2, opt.ignore_missing, [&, file, hex](const hash::DigestOutcome& outcome) {
      if (outcome.missing) return;
      if (!outcome.ok) {
        ++counts.unreadable;
        message(failure_text(file, outcome));
        if (!opt.status) write_out(result_name(file) + ": FAILED open or read\n");
        return;
      }
      const bool match = hex_matches(hex, outcome.digest);
      if (match) {
        counts.matched = true;
      } else {
        ++counts.mismatched;
      }
      if (opt.status) return;
      if (!match) {
        write_out(result_name(file) + ": FAILED\n");
      } else if (!opt.quiet) {
        write_out(result_name(file) + ": OK\n");
      }
    });
  }
  std::free(buffer);
  checkers.flush();

  const bool read_error = std::ferror(in) != 0;
  int close_error = 0;
  if (is_stdin) {
    std::clearerr(in);
  } else if (std::fclose(in) != 0) {
    close_error = errno;
  }
  if (read_error) {
    message(shown + ": read error");
    return false;
  }
  if (close_error != 0) {
    message(shown + ": " + std::strerror(close_error));
    return false;
  }

  if (!counts.properly_formatted) {
    message(shown + ": no properly formatted checksum lines found");
  } else if (!opt.status) {
    const auto plural = [](std::uintmax_t n, const char* one, const char* many) {
      return "WARNING: " + std::to_string(n) + " " + (n == 1 ? one : many);
    };
    if (counts.misformatted != 0) {
      message(plural(counts.misformatted, "line is improperly formatted", "lines are improperly formatted"));
    }
    if (counts.unreadable != 0) {
      message(plural(counts.unreadable, "listed file could not be read", "listed files could not be read"));
    }
    if (counts.mismatched != 0) {
      message(plural(counts.mismatched, "computed checksum did NOT match", "computed checksums did NOT match"));
    }
    if (opt.ignore_missing && !counts.matched) message(shown + ": no file was verified");
  }
  return counts.properly_formatted && counts.matched && counts.mismatched == 0 && counts.unreadable == 0 &&
         (!opt.strict || counts.misformatted == 0);
}

bool check_files(const hash::HashOptions& opt) {
  Checkers checkers(opt);
  std::vector<std::string> files = opt.files;
  if (files.empty()) files.emplace_back("-");
  bool ok = true;
  for (const std::string& file : files) ok = check_file(file, opt, checkers) && ok;
  return ok;
}

// --- the rest ----------------------------------------------------------------------------------------------------

void list_algorithms() {
  for (const std::string& name : hash_names()) {
    const HashInfo& info = hash_info(parse_hash(name));
    std::printf("%-12s %-12s %3zu%s\n", name.c_str(), std::string(info.display_name).c_str(), info.digest_size,
                info.xof ? "  (default; any length with --length)" : "");
  }
}

int run(const hash::HashOptions& opt) {
  if (opt.help) {
    std::fputs(hash::hash_usage().c_str(), stdout);
    return 0;
  }
  if (opt.version) {
    std::printf("%s (cryptaccel) %s\n", kProgram, kVersion);
    return 0;
  }
  if (opt.list) {
    list_algorithms();
    return 0;
  }
  hash::check_engine(opt.algorithm, opt.engine);
  // Line-buffered like coreutils: a line is written whole as soon as it is known.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bool ok = opt.check ? check_files(opt) : print_digests(opt);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    message(std::string("write error: ") + std::strerror(errno));
    ok = false;
  }
  return ok ? 0 : 1;
}

}  // namespace

int run_hash(const std::vector<std::string>& args) {
  std::setlocale(LC_CTYPE, "");  // quoting of file names in messages depends on it, as in coreutils
  const auto opt = hash::parse_hash_options(args);
  if (!opt) return 1;
  return run_reporting_errors("hash", 1, [&] { return run(*opt); });
}

}  // namespace cryptaccel::cli
