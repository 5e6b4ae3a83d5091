// `cryptaccel speed`: throughput of every engine, like `openssl speed -evp`, optionally next to OpenSSL itself.
// This file parses the command line and runs the cells; what is timed is behind the Workload interface
// (speed_workload.hpp), how it is timed in speed_timer.cpp, and how results are shown in speed_report.cpp.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "atomic_output.hpp"
#include "parse_error_text.hpp"
#include "command_errors.hpp"
#include "commands.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/version.hpp"
#include "speed_evp.hpp"
#include "speed_machine.hpp"
#include "speed_report.hpp"
#include "speed_timer.hpp"
#include "speed_workload.hpp"

namespace cryptaccel::cli {
namespace {

using speed::kOpenSsl;

constexpr std::size_t kDefaultSizes[] = {16, 64, 256, 1024, 8192, 16384};
/// Largest message, and largest total of one batch (inputs; outputs come on top).
constexpr std::size_t kMaxCellBytes = std::size_t{1} << 30;
constexpr double kMaxSeconds = 3600;
constexpr std::size_t kMaxThreads = 4096;

/// Everything the command line said, before checking.
struct SpeedArgs {
  std::vector<std::string> algorithms;
  std::vector<std::string> engines;
  std::vector<std::string> sizes;
  double seconds = 1.0;
  std::string threads;  // checked by make_plan: CLI11 would take "-1" for a size_t
  std::string batch;
  std::string json_path;
  std::string vs;
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// "16", "1k" (1024), "64K", "1M" (1048576): a message size in bytes, 1 to 1 GiB.
std::size_t parse_size(std::string_view text) {
  const std::string shown(text);
  std::size_t multiplier = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k':
      case 'K':
        multiplier = std::size_t{1} << 10;
        break;
      case 'm':
      case 'M':
        multiplier = std::size_t{1} << 20;
        break;
      default:
        break;
    }
    if (multiplier != 1) text.remove_suffix(1);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw InvalidArgument("--bytes: not a size: '" + shown + "' (a number of bytes, optionally with k or M)");
  }
  if (value == 0) throw InvalidArgument("--bytes: a message must be at least 1 byte, got '" + shown + "'");
  if (value > kMaxCellBytes / multiplier) throw InvalidArgument("--bytes: '" + shown + "' is more than 1 GiB");
  return static_cast<std::size_t>(value) * multiplier;
}

/// A non-negative integer option value.
std::size_t parse_count(const std::string& text, std::string_view option) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw InvalidArgument(std::string(option) + ": not a non-negative integer: '" + text + "'");
  }
  return static_cast<std::size_t>(value);
}

/// Checks that an engine asked for by name exists and can run here ("auto" always can).
void check_engine(const std::string& name, const std::vector<EngineInfo>& all) {
  if (name == "auto") return;
  for (const EngineInfo& e : all) {
    if (e.name != name) continue;
    if (!e.available) throw EngineUnavailable("engine '" + name + "' is not available: " + e.unavailable_reason);
    return;
  }
  std::string message = "unknown engine '" + name + "'";
  try {
    resolve_engine(name, CipherSpec{}, Direction::encrypt);  // the registry's reason: unknown, or not built in
  } catch (const EngineUnavailable& e) {
    message = e.what();
  }
  if (name == kOpenSsl) message += "; use --vs openssl to compare with OpenSSL";
  throw EngineUnavailable(message);
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
         join(speed::all_workload_names()) + "\n";
}

/// Turns the arguments into settings, workloads and the implementations to time; throws on any mistake.
struct Plan {
  speed::SpeedSettings settings;
  std::vector<std::unique_ptr<speed::Workload>> workloads;
  std::vector<std::string> impls;  // engines, then "openssl" with --vs
};

Plan make_plan(const SpeedArgs& args) {
  Plan plan;
  speed::SpeedSettings& s = plan.settings;

  const std::vector<std::string> algo_names =
      args.algorithms.empty() ? speed::default_workload_names() : args.algorithms;
  for (const std::string& name : algo_names) {
    auto workload = speed::make_workload(name);
    if (std::find(s.algorithms.begin(), s.algorithms.end(), workload->name()) != s.algorithms.end()) continue;
    s.algorithms.push_back(workload->name());
    plan.workloads.push_back(std::move(workload));
  }

  const std::vector<EngineInfo> all = engines();
  if (args.engines.empty()) {
    for (const EngineInfo& e : all) {
      if (e.available) s.engines.push_back(e.name);
    }
    if (s.engines.empty()) throw EngineUnavailable("no engine is available on this machine");
  } else {
    for (const std::string& e : args.engines) {
      check_engine(e, all);
      if (std::find(s.engines.begin(), s.engines.end(), e) == s.engines.end()) s.engines.push_back(e);
    }
  }

  if (args.sizes.empty()) {
    s.sizes.assign(std::begin(kDefaultSizes), std::end(kDefaultSizes));
  } else {
    for (const std::string& text : args.sizes) {
      const std::size_t n = parse_size(text);
      if (std::find(s.sizes.begin(), s.sizes.end(), n) == s.sizes.end()) s.sizes.push_back(n);
    }
  }

  if (!std::isfinite(args.seconds) || args.seconds <= 0 || args.seconds > kMaxSeconds) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", args.seconds);
    throw InvalidArgument(std::string("--seconds must be more than 0 and at most 3600, got ") + shown);
  }
  s.seconds = args.seconds;
  if (!args.threads.empty()) {
    s.threads = parse_count(args.threads, "--threads");
    if (s.threads > kMaxThreads) throw InvalidArgument("--threads must be at most " + std::to_string(kMaxThreads));
  }

  if (!args.batch.empty()) {
    s.batch = parse_count(args.batch, "--batch");
    if (s.batch == 0) throw InvalidArgument("--batch must be at least 1");
    const std::size_t largest = *std::max_element(s.sizes.begin(), s.sizes.end());
    if (s.batch > kMaxCellBytes / largest) {
      throw InvalidArgument("--batch " + std::to_string(s.batch) + " of " + std::to_string(largest) +
                            "-byte messages is more than 1 GiB");
    }
  }

  if (!args.vs.empty()) {
    if (args.vs != kOpenSsl) throw InvalidArgument("--vs: only 'openssl' is supported, got '" + args.vs + "'");
    s.vs_openssl = true;
  }

  plan.impls = s.engines;
  if (s.vs_openssl) plan.impls.emplace_back(kOpenSsl);
  return plan;
}

void report_error(std::string message) { cli::report_error("speed", std::move(message)); }

/// One implementation's rows of a workload (one per batch setting or RSA operation) and how its check went.
struct ImplRows {
  std::string impl;
  std::vector<speed::RowResult> rows;
  std::string error;  ///< the check or a cell failed: reported, and the rows are left out of the table
  bool timed = false;  ///< passed its check (an unsupported implementation's cells carry the reason instead)
};

/// `impl`'s rows for `workload`, checked against the ref engine; nothing timed yet.
ImplRows check_impl(const speed::Workload& workload, const std::string& impl, const speed::SpeedSettings& s,
                    speed::Rng& rng) {
  ImplRows out{impl, {}, {}, false};
  std::vector<std::size_t> batches{0};  // 0: one message per call
  if (s.batch != 0) batches.push_back(s.batch);
  // Operation workloads (RSA): one row per operation, with one cell of the workload's own message size.
  std::vector<std::string> operations = workload.operations();
  const bool per_operation = !operations.empty();
  if (!per_operation) operations.emplace_back();
  for (const std::size_t batch : batches) {
    for (const std::string& operation : operations) {
      speed::RowResult row;
      row.algo = workload.name();
      row.impl = row.impl_used = impl;
      row.batch = batch;
      row.operation = operation;
      if (per_operation) {
        row.cells.push_back({workload.operation_bytes(), std::nullopt, {}});
      } else {
        for (const std::size_t n : s.sizes) row.cells.push_back({n, std::nullopt, {}});
      }
      out.rows.push_back(std::move(row));
    }
  }

  if (std::string why = workload.unsupported(impl); !why.empty()) {
    for (speed::RowResult& row : out.rows)
      for (speed::CellResult& cell : row.cells) cell.note = why;
    return out;
  }
  const std::string used = workload.resolve(impl);
  for (speed::RowResult& row : out.rows) row.impl_used = used;
  if (::isatty(STDERR_FILENO) == 1)
    std::fprintf(stderr, "Checking %s against the ref engine\n", speed::row_label(out.rows.front()).c_str());
  out.error = workload.verify(impl, s.threads, rng);
  out.timed = out.error.empty();
  return out;
}

/// Times every cell of the implementations that passed their check: for each row and message size, the cells of
/// all of them side by side (speed::time_cells), so that their ratios come from the same moments of the machine.
void time_impls(const speed::Workload& workload, std::vector<ImplRows>& impls, const speed::SpeedSettings& s,
                speed::Rng& rng) {
  const bool progress = ::isatty(STDERR_FILENO) == 1;
  if (impls.empty()) return;
  const std::size_t row_count = impls.front().rows.size();
  for (std::size_t r = 0; r < row_count; ++r) {
    for (std::size_t c = 0; c < impls.front().rows[r].cells.size(); ++c) {
      std::vector<std::unique_ptr<speed::Cell>> prepared;
      std::vector<speed::Cell*> cells;
      std::vector<ImplRows*> owners;
      std::string names;
      for (ImplRows& ir : impls) {
        if (!ir.timed || !ir.error.empty()) continue;
        speed::RowResult& row = ir.rows[r];
        speed::CellResult& cell = row.cells[c];
        if (std::string why = workload.unsupported_size(ir.impl, cell.bytes); !why.empty()) {
          cell.note = why;
          continue;
        }
        try {
          prepared.push_back(workload.prepare(ir.impl, {cell.bytes, row.messages(), s.threads, row.operation}, rng));
        } catch (const std::bad_alloc&) {
          ir.error = "out of memory";
          continue;
        } catch (const std::exception& e) {
          ir.error = e.what();
          continue;
        }
        cells.push_back(prepared.back().get());
        owners.push_back(&ir);
        names += (names.empty() ? "" : ", ") + ir.impl;
      }
      if (cells.empty()) continue;
      const speed::RowResult& shown = owners.front()->rows[r];
      if (progress) {
        std::fprintf(stderr, "Doing %s%s%s (%s) on %zu-byte messages for %gs each: ", shown.algo.c_str(),
                     shown.operation.empty() ? "" : " ", shown.operation.c_str(), names.c_str(),
                     shown.cells[c].bytes, s.seconds);
        std::fflush(stderr);
      }
      std::vector<std::string> errors;
      const std::vector<speed::Measurement> measured = speed::time_cells(cells, s.seconds, errors);
      for (std::size_t i = 0; i < owners.size(); ++i) {
        if (!errors[i].empty()) {
          owners[i]->error = errors[i];
          continue;
        }
        owners[i]->rows[r].cells[c].measured = measured[i];
        if (progress) std::fprintf(stderr, "%s%llu calls", i ? ", " : "", static_cast<unsigned long long>(measured[i].runs));
      }
      if (progress) std::fputc('\n', stderr);
    }
  }
}

/// Runs every cell; returns false when some row failed (its error already reported).
bool run_plan(const Plan& plan, std::vector<speed::RowResult>& rows) {
  speed::Rng rng(std::random_device{}());
  bool all_ok = true;
  for (const auto& workload : plan.workloads) {
    std::vector<ImplRows> impls;
    for (const std::string& impl : plan.impls) impls.push_back(check_impl(*workload, impl, plan.settings, rng));
    time_impls(*workload, impls, plan.settings, rng);
    for (ImplRows& ir : impls) {
      if (!ir.error.empty()) {
        report_error(speed::row_label(ir.rows.front()) + ": " + ir.error);
        for (speed::RowResult& row : ir.rows) row.error = ir.error;
        all_ok = false;
      }
      for (speed::RowResult& row : ir.rows) rows.push_back(std::move(row));
    }
  }
  return all_ok;
}

void print_header(const speed::SpeedSettings& s) {
  const speed::Json build = speed::build_info();
  std::string cpu = speed::cpu_model();
  if (cpu.empty()) cpu = "unknown CPU";
  const std::string threads = s.threads == 0 ? "all cores" : std::to_string(s.threads);
  std::printf("cryptaccel %s (%s), %s, %u cores; threads: %s; %g s per cell\n", kVersion,
              build["compiler"].get<std::string>().c_str(), cpu.c_str(), speed::usable_cores(), threads.c_str(),
              s.seconds);
  if (s.vs_openssl) {
    std::printf("vs %s: EVP on one thread, key and IV set per message\n", speed::openssl_version().c_str());
  }
}

int run(const SpeedArgs& args) {
  const Plan plan = make_plan(args);
  std::optional<AtomicOutput> json_out;
  if (!args.json_path.empty()) json_out.emplace(args.json_path);  // fails now if it cannot be written later
  const bool json_to_stdout = args.json_path == "-";

  std::vector<speed::RowResult> rows;
  const bool ok = run_plan(plan, rows);

  if (!json_to_stdout) {
    print_header(plan.settings);
    speed::print_tables(stdout, plan.settings, rows);
    std::fflush(stdout);
  }
  if (json_out) {
    const std::string text = speed::report_json(plan.settings, rows).dump(2) + "\n";
    json_out->commit(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  return ok ? 0 : 1;
}

}  // namespace

int run_speed(const std::vector<std::string>& args) {
  SpeedArgs parsed;
  CLI::App app{"Measure encryption throughput of cryptaccel's engines, like `openssl speed -evp`.", "cryptaccel speed"};
  app.get_formatter()->column_width(28);
  app.add_option("-a,--algorithm,algorithms", parsed.algorithms,
                 "algorithms to time (default: aes-128-ctr aes-256-ctr aes-256-gcm aes-256-cbc aes-256-xts sm4-ctr "
                 "sha256 sha3-256)")
      ->delimiter(',')
      ->type_name("ALGO...");
  app.add_option("--engine", parsed.engines,
                 "engines to time: auto or names from `cryptaccel engines` "
                 "(default: every available engine)")
      ->delimiter(',')
      ->type_name("E...");
  app.add_option("--bytes", parsed.sizes, "message sizes; suffixes k and M (default: 16 64 256 1024 8192 16384)")
      ->delimiter(',')
      ->type_name("N...");
  app.add_option("--seconds", parsed.seconds, "time per cell, fractions allowed (default: 1)")->type_name("S");
  app.add_option("--threads", parsed.threads, "host threads per call for CPU engines (default 0: all cores)")
      ->type_name("T");
  app.add_option("--batch", parsed.batch, "also time batches of M messages per run_batch call (messages/s)")
      ->type_name("M");
  app.add_option("--json", parsed.json_path,
                 "also write the results and machine details as JSON ('-': stdout, "
                 "instead of the table)")
      ->type_name("FILE");
  app.add_option("--vs", parsed.vs, "compare with OpenSSL's libcrypto: adds [openssl] and ratio rows")
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
