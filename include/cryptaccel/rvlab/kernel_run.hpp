// One kernel ELF on cryptaccel's simulator (and optionally on Spike) with a prepared input, and the checks on what
// came out.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/rv.hpp"
#include "cryptaccel/rvlab/manifest.hpp"
#include "cryptaccel/rvlab/workload.hpp"

namespace cryptaccel::rvlab {

/// How to run.
struct RunOptions {
  cryptaccel::rv::CycleModel cycle_model = cryptaccel::rv::CycleModel::defaults();
  bool check = false;      ///< compare the output with the ref engine's (and the kernel's instret report)
  std::string spike;       ///< non-empty: also run on this Spike and compare output and region instret
  unsigned vlen = 0;       ///< vector kernels: VLEN in bits (0: the entry's default); ignored for scalar kernels
};

/// Spike's side of a run.
struct SpikeSide {
  int exit_status = -1;                  ///< Spike's exit status
  std::optional<std::uint64_t> instret;  ///< from the `instret N` line after the output
  bool output_equal = false;             ///< Spike's output bytes equal the simulator's
  double seconds = 0;                    ///< Spike's wall time
};

/// Everything about one run.
struct KernelRun {
  ManifestEntry entry;                           ///< what ran
  unsigned vlen = 0;                             ///< the VLEN it ran at (vector kernels), else 0
  KernelInput input;                             ///< what it was fed, and what it had to output
  cryptaccel::rv::RunResult result;              ///< the simulator's run
  std::optional<std::uint64_t> kernel_instret;  ///< the kernel's own `instret N` report (stderr)
  std::optional<bool> output_equal;              ///< with check: output == ref engine's
  std::optional<SpikeSide> spike;                ///< with a Spike: its side
  std::vector<std::string> problems;  ///< every failed check or run failure, one line each; empty when all is well
  double cpu_seconds = 0;             ///< CPU time of this thread during Machine::run (wall time: result.seconds)

  /// No problem.
  bool ok() const { return problems.empty(); }
  /// Simulated instructions per second of host wall time, in millions (whole run).
  double mips() const;
  /// The same per second of CPU time (what the simulator achieves when the host is busy with other work).
  double cpu_mips() const;
};

/// Runs `entry` with `input`; never throws for a failing kernel or check (see KernelRun::problems), only for an ELF
/// that cannot be loaded or a Spike that cannot be started.
KernelRun run_kernel(const ManifestEntry& entry, KernelInput input, const RunOptions& options);

/// The N of the first `instret N` line in `text` (a kernel's report), if any.
std::optional<std::uint64_t> parse_instret_line(std::string_view text);

/// The meaning of a kernel's exit status (rv/kernels/README.md, "Platform").
std::string kernel_exit_meaning(std::int64_t status);

/// The run as a JSON document (indented by 2, no final newline): kernel, variant, xlen, isa, elf, workload, region
/// and total counts, checks, Spike, problems (`rv run --json`).
std::string run_json(const KernelRun& run);

}  // namespace cryptaccel::rvlab
