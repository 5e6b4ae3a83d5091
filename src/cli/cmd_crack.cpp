// `cryptaccel crack`: dictionary attack with hashcat's conventions. This file is the driver over the library's attack
// (include/cryptaccel/crack.hpp): it loads the hash file, the potfile and the rules, answers --show / --left /
// --stdout, and otherwise runs the attack, recording each find at once (potfile, -o or stdout) and printing the
// status (crack_status). SIGINT / SIGTERM stop it after the batch in flight (exit 2).
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stop_token>
#include <string>
#include <unordered_set>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "cryptaccel/hex.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "crack_cluster.hpp"
#include "crack_options.hpp"
#include "crack_status.hpp"
#include "cryptaccel/crack.hpp"

namespace cryptaccel::cli {
namespace {

using namespace crack;  // cli::crack: the status and option helpers, and the library's crack namespace through it
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

/// SIGINT and SIGTERM ask the run to stop after the current batch; a second one kills as usual (SA_RESETHAND).
void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void note(const CrackOptions& o, const std::string& text) {
  if (o.quiet) return;
  std::fflush(stdout);
  std::fprintf(stderr, "cryptaccel crack: %s\n", text.c_str());
}

/// Loads every -r file, skipping (with a warning unless -q) the rules hashcat would skip too, and stacks the files
/// as hashcat does. No -r: no rules.
std::vector<Rule> load_rules(const CrackOptions& o) {
  std::vector<std::vector<Rule>> lists;
  for (const std::string& path : o.rules_files) {
    lists.push_back(load_rule_file(path, [&](std::size_t line, const std::string& rule, const std::string& reason) {
      if (o.quiet) return;
      std::fprintf(stderr, "cryptaccel crack: skipping invalid or unsupported rule in %s on line %zu: %s (%s)\n",
                   path.c_str(), line, rule.c_str(), reason.c_str());
    }));
  }
  return lists.empty() ? std::vector<Rule>{} : stack_rules(lists);
}

/// The attack's settings from the command line.
AttackOptions attack_options(const CrackOptions& o) {
  AttackOptions a;
  a.wordlist = o.wordlist;
  a.rules = load_rules(o);
  a.engine = o.engine;
  a.threads = o.threads;
  a.batch = o.batch;
  a.skip = o.skip;
  a.limit = o.limit;
  return a;
}

/// hex of `plain` (--outfile-format 3).
std::string hex_of(std::string_view plain) {
  return to_hex(bytes_view(reinterpret_cast<const std::uint8_t*>(plain.data()), plain.size()));
}

/// A find's line in the --outfile-format fields, joined with ':'.
std::string find_line(const CrackOptions& o, const Target& t, const Find& f, double started_unix) {
  std::string line;
  for (std::size_t i = 0; i < o.outfile_format.size(); ++i) {
    if (i) line += ':';
    switch (o.outfile_format[i]) {
      case OutfileField::hash: line += t.hash; break;
      case OutfileField::plain: line += encode_plain(f.plain); break;
      case OutfileField::hex_plain: line += hex_of(f.plain); break;
      case OutfileField::crack_pos: line += std::to_string(f.position); break;
      case OutfileField::timestamp_absolute: line += std::to_string(static_cast<long long>(std::time(nullptr))); break;
      case OutfileField::timestamp_relative:
        line += std::to_string(static_cast<long long>(static_cast<double>(std::time(nullptr)) - started_unix));
        break;
    }
  }
  return line;
}

/// Writes `text` to stdout, or to -o through a temporary file and rename (--show, --left, --stdout).
void publish(const CrackOptions& o, const std::string& text) {
  AtomicOutput out(o.outfile);
  out.commit(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

int run_stdout(const CrackOptions& o) {
  const bool to_stdout = o.outfile.empty() || o.outfile == "-";
  std::string text;
  list_candidates(attack_options(o), [&](std::string_view lines) {
    if (to_stdout) std::fwrite(lines.data(), 1, lines.size(), stdout);
    else text += lines;
  });
  if (!to_stdout) publish(o, text);
  std::fflush(stdout);
  return 0;
}

/// The lines of --show ([user:]hash:plain for cracked targets) or --left ([user:]hash for the others), file order.
std::string listing(const CrackOptions& o, const std::vector<Target>& targets, const Potfile& pot) {
  std::string text;
  for (const Target& t : targets) {
    const std::string* plain = pot.find(t.hash);
    if ((plain != nullptr) != o.show) continue;
    if (!t.user.empty()) text += t.user + ":";
    text += t.hash;
    if (o.show) {
      text += ':';
      text += encode_plain(*plain);
    }
    text += '\n';
  }
  return text;
}

/// The width of the terminal on stderr (80 when it cannot be told).
std::size_t terminal_columns() {
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return 80;
}

/// Status output: a live line on a terminal, else (with --status) one line or JSON object per interval.
class StatusPrinter {
 public:
  explicit StatusPrinter(const CrackOptions& o) : json_(o.status_json) {
    tty_ = !o.quiet && ::isatty(STDERR_FILENO) == 1 && !o.status_json;
    enabled_ = !o.quiet && (tty_ || o.status);
    interval_ = o.status_timer.value_or(tty_ ? 1.0 : 10.0);
  }
  bool due(Clock::time_point now) const {
    return enabled_ && std::chrono::duration<double>(now - last_).count() >= interval_;
  }
  void print(const StatusSnapshot& s, Clock::time_point now, bool final) {
    if (!enabled_) return;
    last_ = now;
    if (json_) {
      std::fprintf(stderr, "%s\n", status_json(s).c_str());
    } else if (tty_) {
      // One line that never wraps (a wrapped line cannot be rewritten with \r): cut to the terminal's width - 1.
      std::fprintf(stderr, "\r%s\x1b[K%s", status_line_compact(s, terminal_columns() - 1).c_str(), final ? "\n" : "");
      live_ = !final;
    } else {
      std::fprintf(stderr, "%s\n", status_line(s).c_str());
    }
    std::fflush(stderr);
  }
  /// Clears a live line before other output to the terminal.
  void clear_live() {
    if (live_) std::fputs("\r\x1b[K", stderr);
    live_ = false;
  }
  void start(Clock::time_point now) { last_ = now; }

 private:
  bool json_ = false;
  bool tty_ = false;
  bool enabled_ = false;
  bool live_ = false;
  double interval_ = 10;
  Clock::time_point last_{};
};

/// The note before the search: what is searched, with what, where.
std::string search_note(const CrackOptions& o, std::size_t targets, std::optional<std::size_t> settings,
                        std::uint64_t known, std::optional<std::uint64_t> words, std::size_t per_word,
                        const std::string& where) {
  const std::string word_count = words ? std::to_string(*words) + " words" : std::string("words from stdin");
  return std::to_string(targets) + " hashes" +
         (settings ? " (" + std::to_string(*settings) + " distinct settings)" : std::string()) + " to search, " +
         std::to_string(known) + " already in the potfile; " + word_count +
         (o.rules_files.empty()
              ? std::string(" (no rules)")
              : " x " + std::to_string(per_word) + " rules" +
                    (words ? " = " + std::to_string(*words * per_word) + " candidates" : std::string())) +
         "; " + where;
}

/// Words of the wordlist in the -s/-l slice (a cluster run's wordlist is a file).
std::uint64_t slice_words(const CrackOptions& o) {
  const std::uint64_t lines = count_wordlist_lines(o.wordlist).value_or(0);
  const std::uint64_t after_skip = lines > o.skip ? lines - o.skip : 0;
  return o.limit ? std::min(after_skip, *o.limit) : after_skip;
}

int run_attack(const CrackOptions& o, const std::vector<Target>& targets, std::vector<bool>& cracked, Potfile* pot) {
  const std::uint64_t known = static_cast<std::uint64_t>(std::count(cracked.begin(), cracked.end(), true));
  std::optional<Attack> attack;
  if (o.ray.empty()) {
    attack.emplace(targets, cracked, attack_options(o));
    note(o, search_note(o, targets.size(), attack->total_settings(), known, attack->words(), attack->rules_per_word(),
                        "engine " + attack->engine_used()));
  } else {
    const std::size_t rules = load_rules(o).size();  // warns of skipped rules, as a local run does
    note(o, search_note(o, targets.size(), std::nullopt, known, slice_words(o), rules == 0 ? 1 : rules,
                        "on the Ray cluster '" + o.ray + "', session '" + o.session + "'" +
                            (o.restore ? " (restored)" : "")));
  }

  install_stop_handlers();
  std::stop_source stop;
  if (g_stop_signal != 0) stop.request_stop();
  const bool to_stdout = o.outfile.empty() || o.outfile == "-";
  StatusPrinter status(o);
  status.start(Clock::now());
  std::unordered_set<std::string> reported;  // hash strings already written (several users may share one)
  const double started_unix = static_cast<double>(std::time(nullptr));
  const auto on_find = [&](const Find& f) {
    const Target& t = targets[f.target];
    if (!reported.insert(t.hash).second) return;
    if (pot != nullptr) pot->add(t.hash, f.plain);
    const std::string line = find_line(o, t, f, started_unix);
    if (to_stdout) {
      status.clear_live();
      std::fprintf(stdout, "%s\n", line.c_str());
      std::fflush(stdout);
    } else {
      append_line_durably(o.outfile, line);
    }
  };
  const auto on_progress = [&](const StatusSnapshot& snap) {
    if (g_stop_signal != 0) stop.request_stop();
    const auto now = Clock::now();
    if (status.due(now)) status.print(snap, now, false);
  };
  AttackEnd end;
  StatusSnapshot snap;
  if (attack) {
    end = attack->run(stop.get_token(), on_find, on_progress);
    snap = attack->status();
  } else {
    std::vector<std::string> known_hashes;
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (cracked[i]) known_hashes.push_back(targets[i].hash);
    const auto on_cluster_find = [&](const Find& f) {
      if (f.target >= targets.size()) throw std::runtime_error("--ray: the runner reported an unknown hash");
      on_find(f);
    };
    end = run_cluster_attack(o, known_hashes, on_cluster_find, on_progress, [] { return g_stop_signal != 0; }, snap);
  }
  status.print(snap, Clock::now(), true);
  if (end == AttackEnd::stopped) note(o, "aborted by signal " + std::to_string(static_cast<int>(g_stop_signal)) +
                                           " after " + std::to_string(snap.progress) + " candidates; finds are saved" +
                                           (o.ray.empty() ? std::string() : "; --restore continues the session"));
  return end == AttackEnd::cracked ? kExitCracked : end == AttackEnd::stopped ? kExitAborted : kExitExhausted;
}

int run(const CrackOptions& o) {
  if (o.stdout_only) return run_stdout(o);
  for (const std::string& option : o.ignored) note(o, option + " is accepted for hashcat command lines and changes nothing here");
  const HashFile file = load_hash_file(o.hash_file, o.mode);
  std::size_t without_hash = 0;
  for (const BadLine& bad : file.bad) {
    switch (bad.kind) {
      case BadLineKind::unusable:  // an error in the input: always said
        std::fprintf(stderr, "%s:%zu: %s\n", o.hash_file.c_str(), bad.line, bad.reason.c_str());
        break;
      case BadLineKind::no_password_hash:  // locked and system accounts: normal, counted in one note
        ++without_hash;
        break;
      case BadLineKind::empty_password:  // a finding: always said, on its own line
        std::fprintf(stderr, "cryptaccel crack: %s:%zu: account '%s' has an empty password field: it needs no password\n",
                     o.hash_file.c_str(), bad.line, bad.user.c_str());
        break;
    }
  }
  if (without_hash)
    note(o, std::to_string(without_hash) + (without_hash == 1 ? " account has" : " accounts have") +
                " no password hash (locked, disabled or shadowed): skipped");
  if (file.targets.empty()) throw std::runtime_error(o.hash_file + ": no usable hashes");

  std::unique_ptr<Potfile> pot;
  std::vector<bool> cracked(file.targets.size(), false);
  if (!o.potfile_disable) {
    std::unordered_set<std::string> wanted;
    for (const Target& t : file.targets) wanted.insert(t.hash);
    pot = std::make_unique<Potfile>(o.potfile_path.empty() ? default_potfile_path() : o.potfile_path, wanted);
    for (std::size_t i = 0; i < file.targets.size(); ++i) cracked[i] = pot->find(file.targets[i].hash) != nullptr;
  }
  if (o.show || o.left) {
    publish(o, listing(o, file.targets, *pot));
    return 0;
  }
  if (!o.outfile.empty() && o.outfile != "-") {
    // Fail before the search when the outfile cannot be written (its directory is missing, ...).
    AtomicOutput probe(o.outfile);
  }
  if (std::all_of(cracked.begin(), cracked.end(), [](bool c) { return c; })) {
    // Still check the wordlist, so that a typo is reported rather than hidden by the potfile (stdin: nothing to check).
    count_wordlist_lines(o.wordlist);
    note(o, "all " + std::to_string(cracked.size()) + " hashes are in the potfile already (see --show)");
    return kExitCracked;
  }
  return run_attack(o, file.targets, cracked, pot.get());
}

}  // namespace

int run_crack(const std::vector<std::string>& args) {
  int exit_code = 0;
  const auto options = parse_crack_options(args, exit_code);
  if (!options) return exit_code;
  return run_reporting_errors("crack", kExitError, [&] { return run(*options); });
}

}  // namespace cryptaccel::cli
