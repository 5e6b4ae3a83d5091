// `cryptaccel speed`: progress and failure lines on stderr.
#include "speed_progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "command_errors.hpp"

namespace cryptaccel::cli {

SpeedProgress::SpeedProgress() : terminal_(::isatty(STDERR_FILENO) == 1) {}

void SpeedProgress::checking(const bench::RowResult& row) {
  if (terminal_) std::fprintf(stderr, "Checking %s against the ref engine\n", bench::row_label(row).c_str());
}

void SpeedProgress::timing(const bench::RowResult& row, std::size_t cell, const std::vector<std::string>& impls,
                           double seconds) {
  if (!terminal_) return;
  std::string names;
  for (const std::string& impl : impls) names += (names.empty() ? "" : ", ") + impl;
  std::fprintf(stderr, "Doing %s%s%s (%s) on %zu-byte messages for %gs each: ", row.algo.c_str(),
               row.operation.empty() ? "" : " ", row.operation.c_str(), names.c_str(), row.cells[cell].bytes, seconds);
  std::fflush(stderr);
}

void SpeedProgress::timed(const std::vector<bench::Measurement>& measured, const std::vector<std::string>& errors) {
  if (!terminal_) return;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    if (!errors[i].empty()) continue;
    std::fprintf(stderr, "%s%llu calls", i ? ", " : "", static_cast<unsigned long long>(measured[i].runs));
  }
  std::fputc('\n', stderr);
}

void SpeedProgress::failed(const std::string& message) { report_error("speed", message); }

}  // namespace cryptaccel::cli
