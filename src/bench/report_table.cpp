// The speed harness: the report as text, as `cryptaccel speed` prints it (a header line, then tables like `openssl
// speed`'s, then notes on the n/a cells).
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <utility>

#include "cryptaccel/bench/machine.hpp"
#include "cryptaccel/bench/report.hpp"
#include "cryptaccel/bench/workload.hpp"
#include "cryptaccel/version.hpp"
#include "report_rows.hpp"

namespace cryptaccel::bench {
namespace {

/// printf into a string.
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, again);
  va_end(again);
  return out;
}

std::string format_ratio(std::optional<double> r) {
  if (!r) return "n/a";
  return format("%.4fx", *r);
}

using Table = std::vector<std::vector<std::string>>;

/// One table, columns right-aligned to their widest cell (the first left-aligned), two spaces apart.
void append_table(std::string& out, const Table& table) {
  std::vector<std::size_t> width;
  for (const auto& line : table) {
    width.resize(std::max(width.size(), line.size()), 0);
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  }
  for (const auto& line : table) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - line[c].size(), ' ');
      text += c == 0 ? line[c] + pad : "  " + pad + line[c];
    }
    out += format("%s\n", text.c_str());
  }
}

/// One table: rows with this batch setting, grouped by algorithm, each algorithm's ratio rows after its rows.
Table build_table(const SpeedSettings& settings, const std::vector<RowResult>& rows, std::size_t batch) {
  Table table;
  std::vector<std::string> header{"type"};
  for (const std::size_t n : settings.sizes) header.push_back(std::to_string(n) + " bytes");
  table.push_back(std::move(header));

  const auto value = [&](const RowResult& row, const CellResult& cell) -> std::string {
    if (!cell.measured) return "n/a";
    return batch == 0 ? format("%.2fk", bytes_per_second(row, cell) / 1000)
                      : format("%.2f", messages_per_second(row, cell));
  };

  std::vector<std::string> algos;
  for (const RowResult& row : rows) {
    if (row.batch == batch && row.operation.empty() && std::find(algos.begin(), algos.end(), row.algo) == algos.end())
      algos.push_back(row.algo);
  }
  for (const std::string& algo : algos) {
    std::vector<const RowResult*> group;
    for (const RowResult& row : rows) {
      if (row.batch == batch && row.operation.empty() && row.algo == algo && row.error.empty()) group.push_back(&row);
    }
    for (const RowResult* row : group) {
      std::vector<std::string> line{row_label(*row)};
      for (const CellResult& cell : row->cells) line.push_back(value(*row, cell));
      table.push_back(std::move(line));
    }
    if (!settings.vs_openssl) continue;
    for (const RowResult* row : group) {
      if (row->impl == kOpenSsl) continue;
      const RowResult* base = openssl_row(rows, *row);
      RowResult label_row = *row;
      label_row.impl = row_label_impl(*row) + "/openssl";
      label_row.impl_used = label_row.impl;
      std::vector<std::string> line{row_label(label_row)};
      for (std::size_t i = 0; i < row->cells.size(); ++i) line.push_back(format_ratio(ratio(*row, base, i)));
      table.push_back(std::move(line));
    }
  }
  return table;
}

/// The table of operation rows (RSA), as `openssl speed rsa2048`: per algorithm and implementation, seconds per
/// operation then operations per second for each operation ("sign", "verify"); with --vs openssl, ratio rows
/// "ALGO [ENGINE/openssl]" in the operations-per-second columns. `batch`: rows of that batch setting.
Table build_operation_table(const SpeedSettings& settings, const std::vector<RowResult>& rows, std::size_t batch) {
  std::vector<std::string> ops;
  std::vector<std::pair<std::string, std::string>> keys;  // (algo, impl) in first-seen order
  for (const RowResult& row : rows) {
    if (row.batch != batch || row.operation.empty() || !row.error.empty()) continue;
    if (std::find(ops.begin(), ops.end(), row.operation) == ops.end()) ops.push_back(row.operation);
    const std::pair<std::string, std::string> key{row.algo, row.impl};
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  Table table;
  if (keys.empty()) return table;
  std::vector<std::string> header{""};
  for (const std::string& op : ops) header.push_back(op);
  for (const std::string& op : ops) header.push_back(op + "/s");
  table.push_back(std::move(header));

  const auto find = [&](const std::string& algo, const std::string& impl, const std::string& op) -> const RowResult* {
    for (const RowResult& r : rows)
      if (r.batch == batch && r.algo == algo && r.impl == impl && r.operation == op && r.error.empty()) return &r;
    return nullptr;
  };
  std::string current_algo;
  std::vector<std::pair<std::string, std::string>> pending_ratios;
  const auto flush_ratios = [&]() {
    for (const auto& [algo, impl] : pending_ratios) {
      std::vector<std::string> line;
      bool any = false;
      for (std::size_t i = 0; i < ops.size(); ++i) line.emplace_back();
      for (const std::string& op : ops) {
        const RowResult* row = find(algo, impl, op);
        std::optional<double> r;
        if (row != nullptr) r = ratio(*row, openssl_row(rows, *row), 0);
        any = any || r.has_value();
        line.push_back(format_ratio(r));
      }
      if (!any) continue;
      const RowResult* some = nullptr;
      for (const std::string& op : ops)
        if ((some = find(algo, impl, op)) != nullptr) break;
      RowResult label_row = *some;
      label_row.impl = row_label_impl(*some) + "/openssl";
      line.insert(line.begin(), row_label(label_row));
      table.push_back(std::move(line));
    }
    pending_ratios.clear();
  };
  for (const auto& [algo, impl] : keys) {
    if (algo != current_algo) {
      flush_ratios();
      current_algo = algo;
    }
    std::vector<std::string> times, rates;
    const RowResult* labelled = nullptr;
    for (const std::string& op : ops) {
      const RowResult* row = find(algo, impl, op);
      if (row != nullptr && labelled == nullptr) labelled = row;
      const bool timed = row != nullptr && row->cells.front().measured;
      const double per_second = timed ? messages_per_second(*row, row->cells.front()) : 0;
      times.push_back(timed && per_second > 0 ? format("%.6fs", 1.0 / per_second) : "n/a");
      rates.push_back(timed ? format("%.1f", per_second) : "n/a");
    }
    std::vector<std::string> line{row_label(*labelled)};
    line.insert(line.end(), times.begin(), times.end());
    line.insert(line.end(), rates.begin(), rates.end());
    table.push_back(std::move(line));
    if (settings.vs_openssl && impl != kOpenSsl) pending_ratios.emplace_back(algo, impl);
  }
  flush_ratios();
  return table;
}

bool has_byte_rows(const std::vector<RowResult>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const RowResult& r) { return r.operation.empty(); });
}

/// Why cells show n/a: one line per algorithm, reason and set of sizes, naming the implementations unless it is all
/// of them (batch rows have the same reasons and are not repeated).
void append_notes(std::string& out, const std::vector<RowResult>& rows) {
  struct Note {
    std::string algo, reason, sizes;
    std::vector<std::string> impls;
  };
  std::vector<Note> notes;
  std::vector<std::pair<std::string, std::size_t>> rows_per_algo;
  for (const RowResult& row : rows) {
    if (row.batch != 0 || !row.error.empty()) continue;
    auto counted =
        std::find_if(rows_per_algo.begin(), rows_per_algo.end(), [&](const auto& p) { return p.first == row.algo; });
    if (counted == rows_per_algo.end()) {
      rows_per_algo.emplace_back(row.algo, 1);
    } else {
      ++counted->second;
    }
    std::vector<std::string> reasons;
    for (const CellResult& cell : row.cells) {
      if (!cell.measured && std::find(reasons.begin(), reasons.end(), cell.note) == reasons.end()) {
        reasons.push_back(cell.note);
      }
    }
    for (const std::string& reason : reasons) {
      std::string sizes;
      std::size_t count = 0;
      for (const CellResult& cell : row.cells) {
        if (cell.measured || cell.note != reason) continue;
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(cell.bytes);
        ++count;
      }
      if (count == row.cells.size()) sizes.clear();
      auto same = std::find_if(notes.begin(), notes.end(), [&](const Note& n) {
        return n.algo == row.algo && n.reason == reason && n.sizes == sizes;
      });
      if (same == notes.end()) same = notes.insert(notes.end(), Note{row.algo, reason, sizes, {}});
      same->impls.push_back(row_label_impl(row));
    }
  }
  bool first = true;
  for (const Note& note : notes) {
    const auto total =
        std::find_if(rows_per_algo.begin(), rows_per_algo.end(), [&](const auto& p) { return p.first == note.algo; });
    std::string where = note.algo;
    if (note.impls.size() != total->second) {
      std::string impls;
      for (const std::string& i : note.impls) impls += (impls.empty() ? "" : ", ") + i;
      where += " [" + impls + "]";
    }
    if (!note.sizes.empty()) where += " " + note.sizes + " bytes";
    out += format("%snote: %s: n/a (%s)\n", first ? "\n" : "", where.c_str(), note.reason.c_str());
    first = false;
  }
}

/// The tables: single messages in thousands of bytes per second, then with --batch messages per second, then the
/// operation rows (RSA, SHA-crypt), then the notes; with --vs openssl, ratio rows after each algorithm's rows.
void append_tables(std::string& out, const SpeedSettings& settings, const std::vector<RowResult>& rows) {
  const bool byte_rows = has_byte_rows(rows);
  if (byte_rows) {
    out += format("The 'numbers' are in 1000s of bytes per second processed.\n");
    append_table(out, build_table(settings, rows, 0));
    if (settings.batch != 0) {
      out += format("\nThe 'numbers' are messages per second, in batches of %zu messages (one run_batch call).\n",
                   settings.batch);
      append_table(out, build_table(settings, rows, settings.batch));
    }
  }
  bool first = !byte_rows;
  std::vector<std::size_t> batches{0};
  if (settings.batch != 0) batches.push_back(settings.batch);
  for (const std::size_t batch : batches) {
    const Table table = build_operation_table(settings, rows, batch);
    if (table.empty()) continue;
    if (!first) out += format("\n");
    first = false;
    if (batch == 0) {
      out += format("Seconds per operation and operations per second, one operation per call.\n");
    } else {
      out += format("Seconds per operation and operations per second, in batches of %zu (one batch call).\n",
                   batch);
    }
    append_table(out, table);
  }
  append_notes(out, rows);
}

/// The header line(s): what ran where.
void append_header(std::string& out, const SpeedSettings& s) {
  std::string cpu = cpu_model();
  if (cpu.empty()) cpu = "unknown CPU";
  const std::string threads = s.threads == 0 ? "all cores" : std::to_string(s.threads);
  out += format("cryptaccel %s (%s), %s, %u cores; threads: %s; %g s per cell\n", kVersion, compiler().c_str(),
                cpu.c_str(), usable_cores(), threads.c_str(), s.seconds);
  if (s.vs_openssl) {
    out += format("vs %s: EVP on one thread, key and IV set per message\n", openssl_version().c_str());
  }
}

}  // namespace

std::string report_text(const SpeedSettings& settings, const std::vector<RowResult>& rows) {
  std::string out;
  append_header(out, settings);
  append_tables(out, settings, rows);
  return out;
}

}  // namespace cryptaccel::bench
