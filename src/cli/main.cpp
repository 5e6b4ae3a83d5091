// The `cryptaccel` command-line tool: dispatches to sub-commands; `engines` is small enough to live here.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "parse_error_text.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/version.hpp"

namespace {

/// Prints one line per engine, in the order `auto` prefers them: name, "available" or "unavailable", then the
/// description, after the reason for an unavailable one ("no NVIDIA GPU found (...); ...").
int list_engines() {
  const std::vector<cryptaccel::EngineInfo> all = cryptaccel::engines();
  std::size_t width = 0;
  for (const auto& e : all) width = std::max(width, e.name.size());
  for (const auto& e : all) {
    const std::string detail = e.available ? e.description : e.unavailable_reason + "; " + e.description;
    std::printf("%-*s  %-11s  %s\n", static_cast<int>(width), e.name.c_str(), e.available ? "available" : "unavailable",
                detail.c_str());
  }
  return 0;
}


/// Runs sub-command `sub` with `args` (the arguments after its name); -1 when there is no such sub-command. enc/dec
/// take openssl-style single-dash long options (-aes-128-cbc, -in), which CLI11 cannot parse: they get their
/// arguments untouched. speed, hash, pkeyutl, rv and crack parse their own (with their own error prefix).
int run_subcommand(std::string_view sub, const std::vector<std::string>& args) {
  using namespace cryptaccel::cli;
  if (sub == "enc" || sub == "dec") return run_enc(args, sub == "dec");
  if (sub == "speed") return run_speed(args);
  if (sub == "pkeyutl") return run_pkeyutl(args);
  if (sub == "hash") return run_hash(args);
  if (sub == "rv") return run_rv(args);
  if (sub == "crack") return run_crack(args);
  if (sub == "seal" || sub == "open" || sub == "keygen") return run_age(sub, args);
  return -1;
}

constexpr std::string_view kSubcommands[] = {"enc",   "dec",  "seal", "open", "keygen", "hash",
                                             "pkeyutl", "crack", "speed", "rv",  "engines"};

bool is_subcommand(std::string_view name) {
  return std::find(std::begin(kSubcommands), std::end(kSubcommands), name) != std::end(kSubcommands);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2) {
    const std::string_view sub = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    // Every sub-command answers --version alike (hash prints the same line itself, as coreutils does).
    if (is_subcommand(sub) && args.size() == 1 && args[0] == "--version") {
      std::printf("cryptaccel %s (cryptaccel) %s\n", argv[1], cryptaccel::kVersion);
      return 0;
    }
    // `cryptaccel help CMD`: CMD's --help (engines': below, from CLI11).
    if (sub == "help" && args.size() == 1) {
      if (!is_subcommand(args[0])) {
        std::fprintf(stderr, "cryptaccel: unknown sub-command '%s' (see --help)\n", args[0].c_str());
        return 1;
      }
      if (args[0] != "engines") return run_subcommand(args[0], {"--help"});
    }
    if (const int status = run_subcommand(sub, args); status >= 0) return status;
  }

  CLI::App app{"cryptaccel: accelerated cryptography on CPU cores, NVIDIA GPUs and a RISC-V crypto-ISA lab: AES and SM4\n"
               "(ECB, CBC, CTR, GCM, XTS), ChaCha20-Poly1305, SHA-2, SHA-3, SHAKE, SM3, RSA, SHA-crypt. Drop-in for\n"
               "`openssl enc`, `age`, `openssl pkeyutl`, `sha256sum` and hashcat's dictionary attack. `cryptaccel help CMD` or\n"
               "`cryptaccel CMD --help` for a command; every command answers --version.",
               "cryptaccel"};
  app.set_version_flag("--version", std::string("cryptaccel ") + cryptaccel::kVersion);
  app.require_subcommand(1);
  app.add_subcommand("enc", "encrypt or decrypt like `openssl enc`, raw key or password, streamed (see `cryptaccel enc --help`)");
  app.add_subcommand("dec", "decrypt: the same as `cryptaccel enc -d`");
  app.add_subcommand("seal", "encrypt to age recipients or a passphrase, the age file format (see `cryptaccel seal --help`)");
  app.add_subcommand("open", "decrypt an age file with identities or a passphrase (see `cryptaccel open --help`)");
  app.add_subcommand("keygen", "make an age X25519 identity, like `age-keygen` (see `cryptaccel keygen --help`)");
  app.add_subcommand("speed", "measure engine throughput like `openssl speed` (see `cryptaccel speed --help`)");
  app.add_subcommand("hash", "message digests like `sha256sum`, any algorithm (see `cryptaccel hash --help`)");
  app.add_subcommand("pkeyutl", "RSA sign, verify, encrypt, decrypt like `openssl pkeyutl` (see `cryptaccel pkeyutl -help`)");
  app.add_subcommand("rv", "the RISC-V crypto-ISA lab: run, check and count kernels (see `cryptaccel rv --help`)");
  app.add_subcommand("crack", "dictionary attack on sha512crypt/sha256crypt and raw hashes, hashcat-style (see `cryptaccel crack --help`)");
  CLI::App* engines = app.add_subcommand("engines", "list the engines, in the order `auto` prefers them, and whether each is usable here");
  app.add_subcommand("help", "help CMD: the help of a command");

  if (argc == 1) {  // nothing asked: the help, and a usage status
    std::fprintf(stderr, "%s", app.help().c_str());
    return 1;
  }
  if (argc == 2 && std::string_view(argv[1]) == "help") {  // before parsing: CLI11 then shows the chosen command's
    std::printf("%s", app.help().c_str());
    return 0;
  }
  if (argc == 3 && std::string_view(argv[1]) == "help") {  // help engines: exactly `engines --help`
    std::vector<std::string> reversed{"--help", "engines"};  // CLI11 takes them last first
    try {
      app.parse(reversed);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
  }
  if (argc >= 2 && argv[1][0] == '-' && std::string_view(argv[1]) != "--help" && std::string_view(argv[1]) != "-h" &&
      std::string_view(argv[1]) != "--version") {
    std::fprintf(stderr, "cryptaccel: unknown option '%s' (see --help)\n", argv[1]);
    return 1;
  }
  if (argc >= 2 && argv[1][0] != '-') {
    const auto named = app.get_subcommands([&](CLI::App* sub) { return sub->get_name() == argv[1]; });
    if (named.empty()) {
      std::fprintf(stderr, "cryptaccel: unknown sub-command '%s' (see --help)\n", argv[1]);
      return 1;
    }
  }
  try {
    app.parse(argc, argv);
    if (engines->parsed()) return list_engines();
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "cryptaccel: %s (see --help)\n", cryptaccel::cli::parse_error_text(e.what()).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cryptaccel: %s\n", e.what());
    return 1;
  }
  return 0;
}
