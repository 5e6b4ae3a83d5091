// Spike parity for the RISC-V simulator tests: the Spike found at configure time (CRYPTACCEL_SPIKE) and one run of
// it on an ELF with a given stdin.
#pragma once
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace cryptaccel::test {

#ifdef CRYPTACCEL_SPIKE
inline constexpr const char* kSpike = CRYPTACCEL_SPIKE;
#else
inline constexpr const char* kSpike = nullptr;  ///< tests that need Spike skip
#endif

/// What Spike did: its exit code and its stdout (Spike prints the target's fd 1 and fd 2 there).
struct SpikeRun {
  int exit_code = -1;
  std::string out;
};

/// Runs Spike (kSpike, which must be set) on `elf_path` with `input` on stdin.
inline SpikeRun run_spike(const std::string& elf_path, const std::string& isa, const std::string& input) {
  char dir_template[] = "/tmp/cryptaccel_rv_spike_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (!dir) return {};
  const std::string in = std::string(dir) + "/in", out = std::string(dir) + "/out", err = std::string(dir) + "/err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string cmd = std::string("'") + kSpike + "' --isa=" + isa + " '" + elf_path + "' < " + in + " > " + out +
                          " 2> " + err;
  const int status = std::system(cmd.c_str());
  SpikeRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(out, std::ios::binary);
  r.out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  std::remove(in.c_str()), std::remove(out.c_str()), std::remove(err.c_str());
  rmdir(dir);
  return r;
}

}  // namespace cryptaccel::test
