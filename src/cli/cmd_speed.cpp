// `cryptaccel speed`: throughput of every engine, like `openssl speed -evp`, optionally next to OpenSSL itself. This
// file parses the command line, hands it to the speed harness (include/cryptaccel/bench.hpp: plan_speed, run_speed)
// and writes what it returns: the table on stdout, the JSON to --json, progress (speed_progress.cpp) and failures on
// stderr.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "cryptaccel/bench.hpp"
#include "parse_error_text.hpp"
#include "speed_progress.hpp"

namespace cryptaccel::cli {
namespace {

/// Everything the command line said, before checking (by bench::plan_speed).
struct SpeedArgs {
  bench::SpeedRequest request;  // threads and batch as text: CLI11 would take "-1" for a size_t
  std::string json_path;
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string help_footer() {
  return "Examples:\n"
         "  cryptaccel speed                        default algorithms on every available engine, 1 s per cell\n"
         "  cryptaccel speed -a aes-128-ctr --vs openssl\n"
         "  cryptaccel speed -a aes-256-gcm sm4-gcm --engine ref --bytes 1k 16k 1M --seconds 3\n"
         "  cryptaccel speed --batch 1024 --bytes 64,512 --threads 4 --json speed.json\n"
         "  cryptaccel speed -a rsa2048,rsa4096 --engine cpu --batch 64 --vs openssl\n"
         "\n"
         "Numbers are thousands of bytes per second (\"%.2fk\", as openssl speed), encrypting; ECB and CBC without\n"
         "padding. Each engine is checked against the ref engine before it is timed. With --vs openssl, the same\n"
         "messages are encrypted by libcrypto's EVP on one thread, key and IV set per message (as in one cryptaccel\n"
         "job), and rows \"ALGO [ENGINE/openssl]\" give engine / OpenSSL.\n"
         "RSA (rsa1024 ... rsa8192) is timed per operation, as `openssl speed rsa2048`: sign (private key, CRT) and\n"
         "verify (e = 65537) in seconds per operation and operations per second; --bytes does not apply.\n"
         "\n"
         "Algorithms: " +
         join(bench::all_workload_names()) + "\n";
}

void report_error(std::string message) { cli::report_error("speed", std::move(message)); }

int run(const SpeedArgs& args) {
  const bench::SpeedPlan plan = bench::plan_speed(args.request);
  std::optional<AtomicOutput> json_out;
  if (!args.json_path.empty()) json_out.emplace(args.json_path);  // fails now if it cannot be written later
  const bool json_to_stdout = args.json_path == "-";

  SpeedProgress progress;
  const bench::SpeedRun result = bench::run_speed(plan, &progress);

  if (!json_to_stdout) {
    std::fputs(bench::report_text(plan.settings, result.rows).c_str(), stdout);
    std::fflush(stdout);
  }
  if (json_out) {
    const std::string text = bench::report_json(plan.settings, result.rows);
    json_out->commit(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  return result.ok() ? 0 : 1;
}

}  // namespace

int run_speed(const std::vector<std::string>& args) {
  SpeedArgs parsed;
  CLI::App app{"Measure encryption throughput of cryptaccel's engines, like `openssl speed -evp`.", "cryptaccel speed"};
  app.get_formatter()->column_width(28);
  app.add_option("-a,--algorithm,algorithms", parsed.request.algorithms,
                 "algorithms to time (default: aes-128-ctr aes-256-ctr aes-256-gcm aes-256-cbc aes-256-xts sm4-ctr "
                 "sha256 sha3-256)")
      ->delimiter(',')
      ->type_name("ALGO...");
  app.add_option("--engine", parsed.request.engines,
                 "engines to time: auto or names from `cryptaccel engines` "
                 "(default: every available engine)")
      ->delimiter(',')
      ->type_name("E...");
  app.add_option("--bytes", parsed.request.sizes,
                 "message sizes; suffixes k and M (default: 16 64 256 1024 8192 16384)")
      ->delimiter(',')
      ->type_name("N...");
  app.add_option("--seconds", parsed.request.seconds, "time per cell, fractions allowed (default: 1)")->type_name("S");
  app.add_option("--threads", parsed.request.threads, "host threads per call for CPU engines (default 0: all cores)")
      ->type_name("T");
  app.add_option("--batch", parsed.request.batch, "also time batches of M messages per run_batch call (messages/s)")
      ->type_name("M");
  app.add_option("--json", parsed.json_path,
                 "also write the results and machine details as JSON ('-': stdout, "
                 "instead of the table)")
      ->type_name("FILE");
  app.add_option("--vs", parsed.request.vs, "compare with OpenSSL's libcrypto: adds [openssl] and ratio rows")
      ->type_name("openssl");
  app.footer(help_footer());

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      std::printf("%s", app.help().c_str());
      return 0;
    }
    report_error(parse_error_text(e.what()) + " (see --help)");
    return 1;
  }

  return run_reporting_errors("speed", 1, [&] { return run(parsed); });
}

}  // namespace cryptaccel::cli
