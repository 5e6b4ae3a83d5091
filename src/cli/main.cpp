// The `cryptaccel` command-line tool: dispatches to sub-commands; `engines` is small enough to live here.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/version.hpp"

namespace {

/// Prints one line per engine: name, "available" or "unavailable", then the description or the reason.
int list_engines() {
  const std::vector<cryptaccel::EngineInfo> all = cryptaccel::engines();
  std::size_t width = 0;
  for (const auto& e : all) width = std::max(width, e.name.size());
  for (const auto& e : all) {
    const std::string detail = e.available ? e.description : e.description + " (" + e.unavailable_reason + ")";
    std::printf("%-*s  %-11s  %s\n", static_cast<int>(width), e.name.c_str(), e.available ? "available" : "unavailable",
                detail.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // enc/dec take openssl-style single-dash long options (-aes-128-cbc, -in), which CLI11 cannot parse: they get
  // their arguments untouched. speed, hash, rv and crack parse their own (with their own error prefix).
  if (argc >= 2) {
    const std::string_view sub = argv[1];
    if (sub == "enc" || sub == "dec") {
      return cryptaccel::cli::run_enc(std::vector<std::string>(argv + 2, argv + argc), sub == "dec");
    }
    if (sub == "speed") return cryptaccel::cli::run_speed(std::vector<std::string>(argv + 2, argv + argc));
    if (sub == "pkeyutl") return cryptaccel::cli::run_pkeyutl(std::vector<std::string>(argv + 2, argv + argc));
    if (sub == "hash") return cryptaccel::cli::run_hash(std::vector<std::string>(argv + 2, argv + argc));
    if (sub == "rv") return cryptaccel::cli::run_rv(std::vector<std::string>(argv + 2, argv + argc));
    if (sub == "crack") return cryptaccel::cli::run_crack(std::vector<std::string>(argv + 2, argv + argc));
  }

  CLI::App app{"cryptaccel: accelerated cryptography (AES and SM4 in ECB, CBC, CTR, GCM, XTS; SHA-2, SHA-3, SHAKE, SM3)",
               "cryptaccel"};
  app.set_version_flag("--version", std::string("cryptaccel ") + cryptaccel::kVersion);
  app.require_subcommand(1);
  app.add_subcommand("enc", "encrypt or decrypt like `openssl enc` with a raw key (see `cryptaccel enc --help`)");
  app.add_subcommand("dec", "decrypt: the same as `cryptaccel enc -d`");
  app.add_subcommand("speed", "measure engine throughput like `openssl speed` (see `cryptaccel speed --help`)");
  app.add_subcommand("hash", "message digests like `sha256sum`, any algorithm (see `cryptaccel hash --help`)");
  app.add_subcommand("pkeyutl", "RSA sign, verify, encrypt, decrypt like `openssl pkeyutl` (see `cryptaccel pkeyutl -help`)");
  app.add_subcommand("rv", "the RISC-V crypto-ISA lab: run, check and count kernels (see `cryptaccel rv --help`)");
  app.add_subcommand("crack", "dictionary attack on sha512crypt/sha256crypt and raw hashes, hashcat-style (see `cryptaccel crack --help`)");
  CLI::App* engines = app.add_subcommand("engines", "list the engines and whether each is usable here");

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
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::fprintf(stderr, "cryptaccel: %s (see --help)\n", message.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cryptaccel: %s\n", e.what());
    return 1;
  }
  return 0;
}
