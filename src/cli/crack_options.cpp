// Option parsing of `cryptaccel crack` (see crack_options.hpp).
#include "crack_options.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <stdexcept>

namespace cryptaccel::cli::crack {
namespace {

const char* kFooter = R"(Hash lines: /etc/shadow ("user:$6$salt$hash:..."), bare "$6$[rounds=N$]salt$hash" / "$5$...", hex
digests ("hex" or "user:hex"). Without -m the mode is read from each line: $5$ / $6$, 128 hex digits = sha512;
64 hex digits need -m (sha256, sha3-256 and sm3 all have 32-byte digests).
Exit status: 0 all cracked, 1 exhausted, 2 aborted (Ctrl-C, SIGTERM), 255 error.

Examples:
  cryptaccel crack shadow.txt /usr/share/dict/american-english --rules rules/cryptaccel-small.rule
  cryptaccel crack -m sha256 hashes.txt words.txt --engine cpu -o found.txt
  cryptaccel crack shadow.txt --show
  cryptaccel crack --stdout words.txt -r rules/cryptaccel-small.rule | head
)";

}  // namespace

std::optional<CrackOptions> parse_crack_options(const std::vector<std::string>& args, int& exit_code) {
  CrackOptions o;
  std::string mode;
  double timer = 0;
  CLI::App app{"Dictionary attack on sha512crypt/sha256crypt and raw SHA-256/SHA-512/SHA3-256/SM3 hashes, with "
               "hashcat's potfile, --show/--left, rules and exit codes.",
               "cryptaccel crack"};
  app.get_formatter()->column_width(30);
  app.add_option("hashfile", o.hash_file, "the hashes to crack")->type_name("HASHFILE");
  app.add_option("wordlist", o.wordlist, "candidate passwords, one per line (not needed with --show/--left)")
      ->type_name("WORDLIST");
  app.add_option("-r,--rules", o.rules_file, "hashcat rule file: every rule is applied to every word")
      ->type_name("FILE");
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
  app.add_flag("--stdout", o.stdout_only,
               "print the candidates (words × rules) instead of cracking, as `hashcat --stdout`: "
               "`cryptaccel crack --stdout WORDLIST [-r RULES]`");
  app.add_flag("-q,--quiet", o.quiet, "no status and no notes; finds and errors only");
  app.footer(kFooter);

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
    if (!mode.empty()) o.mode = parse_hash_mode(mode);
    if (timer > 0) o.status_timer = timer;
    if (o.status_json) o.status = true;
    if (o.stdout_only) {
      if (o.hash_file.empty() || !o.wordlist.empty())
        throw std::invalid_argument("--stdout takes one WORDLIST and no HASHFILE");
      o.wordlist = std::move(o.hash_file);
      o.hash_file.clear();
      return o;
    }
    if (o.hash_file.empty()) throw std::invalid_argument("a HASHFILE is required");
    if (o.show && o.left) throw std::invalid_argument("--show and --left exclude each other");
    if ((o.show || o.left) && o.potfile_disable)
      throw std::invalid_argument("--show and --left read the potfile: not with --potfile-disable");
    if (!o.show && !o.left && o.wordlist.empty())
      throw std::invalid_argument("a WORDLIST is required (except with --show or --left)");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      std::printf("%s", app.help().c_str());
      exit_code = 0;
      return std::nullopt;
    }
    std::fprintf(stderr, "cryptaccel crack: %s (see --help)\n", e.what());
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
