// The speed harness: a speed run from request to rows. plan_speed checks what was asked for; run_speed checks each
// implementation against the ref engine and times the cells side by side (timer.cpp). What is timed is behind the
// Workload interface (workload.cpp and the families), how results are shown in report_table.cpp and report_json.cpp.
#include "cryptaccel/bench/speed.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <random>
#include <string_view>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"

namespace cryptaccel::bench {
namespace {

constexpr std::size_t kDefaultSizes[] = {16, 64, 256, 1024, 8192, 16384};
/// Largest message, and largest total of one batch (inputs; outputs come on top).
constexpr std::size_t kMaxCellBytes = std::size_t{1} << 30;
constexpr double kMaxSeconds = 3600;
constexpr std::size_t kMaxThreads = 4096;

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

/// One implementation's rows of a workload (one per batch setting or RSA operation) and how its check went.
struct ImplRows {
  std::string impl;
  std::vector<RowResult> rows;
  std::string error;   ///< the check or a cell failed: reported, and the rows are left out of the table
  bool timed = false;  ///< passed its check (an unsupported implementation's cells carry the reason instead)
};

/// `impl`'s rows for `workload`, checked against the ref engine; nothing timed yet.
ImplRows check_impl(const Workload& workload, const std::string& impl, const SpeedSettings& s, Rng& rng,
                    SpeedObserver& observer) {
  ImplRows out{impl, {}, {}, false};
  std::vector<std::size_t> batches{0};  // 0: one message per call
  if (s.batch != 0) batches.push_back(s.batch);
  // Operation workloads (RSA): one row per operation, with one cell of the workload's own message size.
  std::vector<std::string> operations = workload.operations();
  const bool per_operation = !operations.empty();
  if (!per_operation) operations.emplace_back();
  for (const std::size_t batch : batches) {
    for (const std::string& operation : operations) {
      RowResult row;
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
    for (RowResult& row : out.rows)
      for (CellResult& cell : row.cells) cell.note = why;
    return out;
  }
  const std::string used = workload.resolve(impl);
  for (RowResult& row : out.rows) row.impl_used = used;
  observer.checking(out.rows.front());
  out.error = workload.verify(impl, s.threads, rng);
  out.timed = out.error.empty();
  return out;
}

/// Times every cell of the implementations that passed their check: for each row and message size, the cells of
/// all of them side by side (time_cells), so that their ratios come from the same moments of the machine.
void time_impls(const Workload& workload, std::vector<ImplRows>& impls, const SpeedSettings& s, Rng& rng,
                SpeedObserver& observer) {
  if (impls.empty()) return;
  const std::size_t row_count = impls.front().rows.size();
  for (std::size_t r = 0; r < row_count; ++r) {
    for (std::size_t c = 0; c < impls.front().rows[r].cells.size(); ++c) {
      std::vector<std::unique_ptr<Cell>> prepared;
      std::vector<Cell*> cells;
      std::vector<ImplRows*> owners;
      std::vector<std::string> names;
      for (ImplRows& ir : impls) {
        if (!ir.timed || !ir.error.empty()) continue;
        RowResult& row = ir.rows[r];
        CellResult& cell = row.cells[c];
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
        names.push_back(ir.impl);
      }
      if (cells.empty()) continue;
      observer.timing(owners.front()->rows[r], c, names, s.seconds);
      std::vector<std::string> errors;
      const std::vector<Measurement> measured = time_cells(cells, s.seconds, errors);
      for (std::size_t i = 0; i < owners.size(); ++i) {
        if (!errors[i].empty()) {
          owners[i]->error = errors[i];
          continue;
        }
        owners[i]->rows[r].cells[c].measured = measured[i];
      }
      observer.timed(measured, errors);
    }
  }
}

}  // namespace

SpeedPlan plan_speed(const SpeedRequest& args) {
  SpeedPlan plan;
  SpeedSettings& s = plan.settings;

  const std::vector<std::string> algo_names = args.algorithms.empty() ? default_workload_names() : args.algorithms;
  for (const std::string& name : algo_names) {
    auto workload = make_workload(name);
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

SpeedRun run_speed(const SpeedPlan& plan, SpeedObserver* observer) {
  SpeedObserver silent;
  SpeedObserver& watch = observer != nullptr ? *observer : silent;
  Rng rng(std::random_device{}());
  SpeedRun run;
  for (const auto& workload : plan.workloads) {
    std::vector<ImplRows> impls;
    for (const std::string& impl : plan.impls) impls.push_back(check_impl(*workload, impl, plan.settings, rng, watch));
    time_impls(*workload, impls, plan.settings, rng, watch);
    for (ImplRows& ir : impls) {
      if (!ir.error.empty()) {
        run.errors.push_back(row_label(ir.rows.front()) + ": " + ir.error);
        watch.failed(run.errors.back());
        for (RowResult& row : ir.rows) row.error = ir.error;
      }
      for (RowResult& row : ir.rows) run.rows.push_back(std::move(row));
    }
  }
  return run;
}

}  // namespace cryptaccel::bench
