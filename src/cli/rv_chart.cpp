#include "rv_chart.hpp"

#include "cryptaccel/rvlab/data_files.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace cryptaccel::cli::rvcmd {
namespace {

/// Exit status of the chart script when matplotlib cannot be imported.
constexpr int kNoMatplotlib = 3;

std::string from_env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

}  // namespace

void draw_chart(const std::string& json_path, const std::string& png_path, const std::string& script_name) {
  std::string python = from_env("CRYPTACCEL_PYTHON");  // no interpreter path is compiled in
  if (python.empty()) python = "python3";
  std::string script = from_env("CRYPTACCEL_RV_CHART_SCRIPT");
  if (script.empty()) script = cryptaccel::rvlab::find_data_file("charts", script_name);
  if (script.empty() || !std::filesystem::is_regular_file(script)) {
    throw std::runtime_error("--chart: the chart script " + (script.empty() ? script_name : script) +
                             " is missing (set CRYPTACCEL_RV_CHART_SCRIPT)");
  }
  std::vector<char*> argv{python.data(), script.data(), const_cast<char*>(json_path.c_str()),
                          const_cast<char*>(png_path.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (rc != 0) throw std::runtime_error("--chart: cannot run " + python + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("--chart: waitpid: ") + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kNoMatplotlib) {
    throw std::runtime_error("--chart: matplotlib is not installed for " + python +
                             " (pip install matplotlib, or set CRYPTACCEL_PYTHON): no chart written");
  }
  throw std::runtime_error("--chart: " + script + " failed (exit status " +
                           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) + ")");
}

}  // namespace cryptaccel::cli::rvcmd
