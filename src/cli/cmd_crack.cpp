// `cryptaccel crack`: dictionary attack with hashcat's conventions. This file is the driver: it loads the hash file
// (crack_targets), the potfile (crack_potfile) and the rules (crack_rules), answers --show / --left / --stdout, and
// otherwise runs batches of candidates (crack_candidates) through the search (crack_search), recording each find at
// once and printing the status (crack_status). SIGINT / SIGTERM stop it after the batch in flight (exit 2).
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
#include <string>
#include <unordered_set>
#include <vector>

#include "atomic_output.hpp"
#include "cryptaccel/hex.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "crack_candidates.hpp"
#include "crack_options.hpp"
#include "crack_potfile.hpp"
#include "crack_rules.hpp"
#include "crack_search.hpp"
#include "crack_status.hpp"
#include "crack_targets.hpp"
#include "crack_wordlist.hpp"

namespace cryptaccel::cli {
namespace {

using namespace crack;
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
  CandidateSource source(o.wordlist, load_rules(o));
  CandidateBatch batch;
  std::string text;
  while (source.fill(batch, 65536)) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      text += batch.at(i);
      text += '\n';
    }
    if (o.outfile.empty() || o.outfile == "-") {
      std::fwrite(text.data(), 1, text.size(), stdout);
      text.clear();
    }
  }
  if (!o.outfile.empty() && o.outfile != "-") publish(o, text);
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

/// Largest hashes per batch for an engine (GPU engines want big launches; CPU engines answer Ctrl-C sooner with
/// smaller ones).
std::size_t max_jobs_for(const std::string& engine) {
  return engine.starts_with("cuda") ? std::size_t{1} << 22 : std::size_t{1} << 18;
}

int run_attack(const CrackOptions& o, const std::vector<Target>& targets, std::vector<bool>& cracked, Potfile* pot) {
  std::vector<Rule> rules = load_rules(o);
  const std::size_t per_word = rules.empty() ? 1 : rules.size();
  const std::optional<std::uint64_t> words = count_wordlist_lines(o.wordlist);  // nothing: stdin
  CandidateSource source(o.wordlist, std::move(rules));

  Search search(targets, cracked, o.engine, o.threads);
  std::uint64_t recovered = static_cast<std::uint64_t>(std::count(cracked.begin(), cracked.end(), true));
  const std::string word_count = words ? std::to_string(*words) + " words" : std::string("words from stdin");
  note(o, std::to_string(targets.size()) + " hashes (" + std::to_string(search.total_groups()) +
              " distinct settings) to search, " + std::to_string(recovered) + " already in the potfile; " +
              word_count +
              (o.rules_files.empty()
                   ? std::string(" (no rules)")
                   : " x " + std::to_string(per_word) + " rules" +
                         (words ? " = " + std::to_string(*words * per_word) + " candidates" : std::string())) +
              "; engine " + search.engine_used());

  install_stop_handlers();
  const bool to_stdout = o.outfile.empty() || o.outfile == "-";
  StatusPrinter status(o);
  const auto start = Clock::now();
  status.start(start);
  StatusSnapshot snap;
  if (words) snap.total = *words * per_word;
  snap.targets = targets.size();
  snap.settings = search.total_groups();
  snap.engine = search.engine_used();
  snap.time_start = static_cast<double>(std::time(nullptr));
  const auto refresh = [&](Clock::time_point now) {
    snap.elapsed = std::chrono::duration<double>(now - start).count();
    snap.recovered = recovered;
    snap.recovered_settings = search.done_groups();
    snap.engine = search.engine_used();
    if (snap.elapsed > 0) {
      snap.speed = static_cast<double>(search.hashes_done()) / snap.elapsed;
      const double rate = static_cast<double>(snap.progress) / snap.elapsed;
      if (rate > 0 && snap.total)
        snap.eta = static_cast<double>(*snap.total - std::min(*snap.total, snap.progress)) / rate;
    }
  };

  std::size_t jobs = 256;  // adaptive: hashes per batch
  const std::size_t max_jobs = max_jobs_for(search.engine_used());
  CandidateBatch batch;
  std::string state = "exhausted";
  std::unordered_set<std::string> reported;  // hash strings already written (several users may share one)
  while (search.active_groups() > 0) {
    if (g_stop_signal != 0) {
      state = "aborted";
      break;
    }
    const std::size_t per_candidate = std::max<std::size_t>(1, search.active_groups());
    const std::size_t want = o.batch != 0 ? o.batch : std::max<std::size_t>(1, jobs / per_candidate);
    if (!source.fill(batch, want)) break;
    const auto t0 = Clock::now();
    const std::vector<Find> finds = search.run(batch);
    const auto t1 = Clock::now();
    for (const Find& f : finds) {
      cracked[f.target] = true;
      ++recovered;
      const Target& t = targets[f.target];
      if (!reported.insert(t.hash).second) continue;
      if (pot != nullptr) pot->add(t.hash, f.plain);
      const std::string line = find_line(o, t, f, snap.time_start);
      if (to_stdout) {
        status.clear_live();
        std::fprintf(stdout, "%s\n", line.c_str());
        std::fflush(stdout);
      } else {
        append_line_durably(o.outfile, line);
      }
    }
    snap.progress += batch.consumed;
    // Aim for 0.25-1 s per batch: Ctrl-C and the status line stay responsive, the engine stays busy.
    const double took = std::chrono::duration<double>(t1 - t0).count();
    if (took < 0.25 && jobs < max_jobs) jobs *= 2;
    else if (took > 1.0 && jobs > 1) jobs /= 2;
    if (status.due(t1)) {
      refresh(t1);
      status.print(snap, t1, false);
    }
  }
  if (search.active_groups() == 0) state = "cracked";
  const auto end = Clock::now();
  refresh(end);
  snap.state = state;
  if (state != "running") snap.eta.reset();
  status.print(snap, end, true);
  if (state == "aborted") note(o, "aborted by signal " + std::to_string(static_cast<int>(g_stop_signal)) +
                                      " after " + std::to_string(snap.progress) + " candidates; finds are saved");
  return state == "cracked" ? kExitCracked : state == "aborted" ? kExitAborted : kExitExhausted;
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
