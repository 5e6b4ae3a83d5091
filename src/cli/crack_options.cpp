// Option parsing of `cryptaccel crack` (see crack_options.hpp).
#include "crack_options.hpp"
#include "parse_error_text.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace cryptaccel::cli::crack {

using namespace cryptaccel::crack;
namespace {

const char* kFooter = R"(Hash lines: /etc/shadow ("user:$6$salt$hash:..."), bare "$6$[rounds=N$]salt$hash" / "$5$...", hex
digests ("hex" or "user:hex"). Without -m the mode is read from each line: $5$ / $6$, 128 hex digits = sha512;
64 hex digits need -m (sha256, sha3-256 and sm3 all have 32-byte digests).
Without a WORDLIST (or with "-") the candidates are read from stdin, as hashcat does. Repeated -r stack the rule
files as hashcat does (every combination, the first file varying fastest). hashcat's -a 0 is accepted (the only
attack mode); -O, -w N, --force and --username are accepted and change nothing here (user names are recognised
without --username). Rules hashcat cannot run either (M X 4 6 and the reject functions) are skipped with a warning.
--outfile-format takes hashcat's numbers: 1 hash, 2 plain, 3 hex_plain, 4 crack_pos, 5 timestamp absolute,
6 timestamp relative (comma-separated; default 1,2).
--ray runs the attack on a Ray cluster (docs/cli.md): the wordlist is cut into work units sized by each node's
measured speed and scheduled over one worker per node (one per GPU); finds are merged into this machine's potfile.
It needs Python with the cryptaccel package and `ray` (CRYPTACCEL_PYTHON, default python3). The session's restore
file records finished units: after an interruption, the same command with --restore continues where it stopped.
Exit status: 0 all cracked, 1 exhausted, 2 aborted (Ctrl-C, SIGTERM), 255 error.

Examples:
  cryptaccel crack shadow.txt /usr/share/dict/american-english --rules rules/cryptaccel-small.rule
  cryptaccel crack -m sha256 hashes.txt words.txt --engine cpu -o found.txt
  cryptaccel crack shadow.txt --show
  cryptaccel crack shadow.txt words.txt -r best64.rule --ray auto --session big   (on a Ray cluster)
  cryptaccel crack shadow.txt words.txt -r best64.rule --ray auto --session big --restore
  cryptaccel crack --stdout words.txt -r rules/cryptaccel-small.rule | head
  crunch 6 6 abc123 | cryptaccel crack -m sha256 hashes.txt -r best64.rule -r toggles1.rule
)";

/// Parses --outfile-format: hashcat's field numbers 1-6, comma-separated.
std::vector<OutfileField> parse_outfile_format(const std::string& text) {
  std::vector<OutfileField> fields;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    if (item.size() != 1 || item[0] < '1' || item[0] > '6')
      throw std::invalid_argument("--outfile-format: '" + item + "' is not one of 1-6 (hash, plain, hex_plain, "
                                  "crack_pos, timestamp absolute, timestamp relative)");
    fields.push_back(static_cast<OutfileField>(item[0] - '0'));
    at = comma + 1;
  }
  return fields;
}

}  // namespace

std::optional<CrackOptions> parse_crack_options(const std::vector<std::string>& args, int& exit_code) {
  CrackOptions o;
  std::string mode;
  double timer = 0;
  int attack_mode = 0;
  int workload = 0;
  bool optimized = false, force = false, username = false;
  std::string outfile_format;
  CLI::App app{"Dictionary attack on sha512crypt/sha256crypt and raw SHA-256/SHA-512/SHA3-256/SM3 hashes, with "
               "hashcat's potfile, --show/--left, rules and exit codes.",
               "cryptaccel crack"};
  app.get_formatter()->column_width(30);
  app.add_option("hashfile", o.hash_file, "the hashes to crack")->type_name("HASHFILE");
  app.add_option("wordlist", o.wordlist,
                 "candidate passwords, one per line; none or '-': stdin (not needed with --show/--left)")
      ->type_name("WORDLIST");
  app.add_option("-r,--rules", o.rules_files,
                 "hashcat rule file: every rule is applied to every word; repeat to stack files")
      ->type_name("FILE")
      ->allow_extra_args(false);
  app.add_option("-a,--attack-mode", attack_mode, "hashcat's attack mode: only 0 (straight: a wordlist, rules)")
      ->type_name("N");
  app.add_flag("-O,--optimized-kernel-enable", optimized, "accepted for hashcat command lines; no effect");
  app.add_option("-w,--workload-profile", workload, "accepted for hashcat command lines (1-4); no effect")
      ->type_name("N")
      ->check(CLI::Range(1, 4));
  app.add_flag("--force", force, "accepted for hashcat command lines; no effect");
  app.add_flag("--username", username, "accepted for hashcat command lines: user:hash lines are recognised anyway");
  app.add_option("--outfile-format", outfile_format, "fields of a find's line, hashcat's 1-6 (default 1,2)")
      ->type_name("N[,N...]");
  app.add_option("-m,--hash-type", mode,
                 "sha512crypt, sha256crypt, sha256, sha512, sha3-256, sm3 (or hashcat's 1800, 7400, 1400, 1700, "
                 "17400); default: from the lines")
      ->type_name("MODE");
  app.add_option("--engine", o.engine, "auto or an engine from `cryptaccel engines` (default: auto)")
      ->type_name("E");
  app.add_option("--potfile-path", o.potfile_path,
                 "potfile (default: $XDG_DATA_HOME/cryptaccel/cryptaccel.potfile)")
      ->type_name("P");
  app.add_flag("--potfile-disable", o.potfile_disable, "neither read nor write a potfile");
  app.add_flag("--show", o.show, "print the cracked hashes of HASHFILE from the potfile ([user:]hash:plain)");
  app.add_flag("--left", o.left, "print the hashes of HASHFILE not in the potfile ([user:]hash)");
  app.add_option("-o,--outfile", o.outfile,
                 "append each find (hash:plain) here instead of printing it; with --show/--left: write the "
                 "listing here (replaced whole)")
      ->type_name("FILE");
  app.add_flag("--status", o.status, "print a status line every --status-timer seconds even when stderr is no TTY");
  app.add_option("--status-timer", timer, "seconds between status lines (default: 1 on a TTY, else 10)")
      ->type_name("S")
      ->check(CLI::PositiveNumber);
  app.add_flag("--status-json", o.status_json, "status as JSON lines on stderr (implies --status)");
  app.add_option("--threads", o.threads, "host threads for CPU engines (default 0: all cores)")->type_name("T");
  app.add_option("--batch", o.batch, "candidates per batch (default 0: grows until a batch takes ~0.5 s)")
      ->type_name("N");
  std::uint64_t limit = 0;
  app.add_option("-s,--skip", o.skip, "skip the first N words of the wordlist (hashcat's -s; each with every rule)")
      ->type_name("N");
  app.add_option("-l,--limit", limit, "try at most N words after --skip (hashcat's -l; default: to the end)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  app.add_flag("--stdout", o.stdout_only,
               "print the candidates (words × rules) instead of cracking, as `hashcat --stdout`: "
               "`cryptaccel crack --stdout WORDLIST [-r RULES]`");
  app.add_option("--ray", o.ray, "crack on a Ray cluster: auto (the running one), local, or its address")
      ->type_name("ADDRESS");
  app.add_option("--session", o.session, "name of a --ray run, for --restore (default: cryptaccel)")->type_name("NAME");
  app.add_option("--restore-file-path", o.restore_file_path,
                 "restore file of a --ray run (default: $XDG_DATA_HOME/cryptaccel/sessions/NAME.restore)")
      ->type_name("P");
  app.add_flag("--restore", o.restore, "continue the --ray session that was interrupted, skipping finished units");
  app.add_option("--ray-unit-seconds", o.ray_unit_seconds, "time a work unit should take on a node (default 5)")
      ->type_name("S")
      ->check(CLI::PositiveNumber);
  app.add_flag("-q,--quiet", o.quiet, "no status and no notes; finds and errors only");
  app.footer(kFooter);

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
    if (!mode.empty()) o.mode = parse_hash_mode(mode);
    if (attack_mode != 0)
      throw std::invalid_argument("attack mode " + std::to_string(attack_mode) +
                                  " is not supported: only -a 0 (straight: a wordlist with optional rules)");
    if (!outfile_format.empty()) o.outfile_format = parse_outfile_format(outfile_format);
    if (optimized) o.ignored.push_back("-O");
    if (workload != 0) o.ignored.push_back("-w");
    if (force) o.ignored.push_back("--force");
    if (username) o.ignored.push_back("--username");
    if (timer > 0) o.status_timer = timer;
    if (limit > 0) o.limit = limit;
    if (o.status_json) o.status = true;
    if (o.stdout_only) {  // --stdout [WORDLIST]: no HASHFILE, the one positional (if any) is the wordlist
      if (!o.wordlist.empty()) throw std::invalid_argument("--stdout takes one WORDLIST (or stdin) and no HASHFILE");
      o.wordlist = std::move(o.hash_file);
      o.hash_file.clear();
      return o;
    }
    if (o.hash_file.empty()) throw std::invalid_argument("a HASHFILE is required");
    if (o.ray.empty() && o.restore) throw std::invalid_argument("--restore continues a --ray session: add --ray");
    if (!o.ray.empty() && (o.wordlist.empty() || o.wordlist == "-") && !o.show && !o.left)
      throw std::invalid_argument("--ray needs a WORDLIST file (the nodes get it in work units), not stdin");
    if (o.session.empty() || o.session.find('/') != std::string::npos)
      throw std::invalid_argument("--session: a name without '/'");
    if (o.show && o.left) throw std::invalid_argument("--show and --left exclude each other");
    if ((o.show || o.left) && o.potfile_disable)
      throw std::invalid_argument("--show and --left read the potfile: not with --potfile-disable");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      std::printf("%s", app.help().c_str());
      exit_code = 0;
      return std::nullopt;
    }
    std::fprintf(stderr, "cryptaccel crack: %s (see --help)\n", parse_error_text(e.what()).c_str());
    exit_code = kExitError;
    return std::nullopt;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "cryptaccel crack: %s (see --help)\n", e.what());
    exit_code = kExitError;
    return std::nullopt;
  }
  return o;
}

}  // namespace cryptaccel::cli::crack
