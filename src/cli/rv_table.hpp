// `cryptaccel rv table seed000`: seed 000's workloads (Table 1, Figures 2-4) for every variant on RV32 and RV64,
// each output checked against the ref engine, with speed-ups over software, the paper's numbers and a SIMT
// throughput estimate (rv_simt.hpp).
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "rv_kernel_run.hpp"
#include "rv_manifest.hpp"
#include "rv_simt.hpp"
#include "rv_workload.hpp"

namespace cryptaccel::cli::rvlab {

/// One workload of the table (a row group of Table 1).
struct TableWorkload {
  std::string id;        ///< "sha256", "aes-ecb-encrypt", "aes-keyexp-decrypt", ...
  std::string label;     ///< "SHA-256, 2 KiB", "AES-256 ECB encrypt, 512 blocks", ...
  std::string figure;    ///< "Figure 2", "Figure 3", "Figure 4", or "extra" (not in the paper)
  std::string kernel;    ///< manifest kernel
  std::string baseline;  ///< the variant speed-ups are relative to (the paper's "software")
  WorkloadRequest request;
};

/// One workload x variant x XLEN.
struct TableCell {
  const TableWorkload* workload = nullptr;
  KernelRun run;
  std::optional<double> speedup_cycles;        ///< baseline cycles / these cycles (same XLEN)
  std::optional<double> speedup_instructions;  ///< baseline instructions / these instructions
  SimtEstimate simt;
};

/// The whole table.
struct SeedTable {
  std::string manifest_path;
  std::string compiler;
  cryptaccel::rv::CycleModel cycle_model;
  bool cycle_model_default = true;
  SimtConfig simt;
  bool vs_spike = false;
  std::uint64_t seed = 0;               ///< of the random inputs (--seed reproduces them)
  std::vector<TableWorkload> workloads;
  std::vector<TableCell> cells;         ///< workload-major, then variant, then XLEN
  std::vector<std::string> problems;    ///< "kernel variant rvX workload: problem", one per failed check
  double seconds = 0;                   ///< wall time of all runs

  bool ok() const { return problems.empty(); }
  /// The cell for workload x variant x xlen, or nullptr.
  const TableCell* cell(const std::string& workload, const std::string& variant, unsigned xlen) const;
  /// Variants present for a workload, in manifest order.
  std::vector<std::string> variants(const std::string& workload) const;
};

/// Seed 000's workloads as found in the manifest (SHA-256 on the kernel's seed000 message length, AES-256 on its
/// seed000 block count in ECB/CBC/CTR x encrypt/decrypt, the two AES-256 key expansions; SHA-512 as an extra).
std::vector<TableWorkload> seed000_workloads(const Manifest& manifest);

/// Runs every workload x variant x XLEN with checks (and Spike when options.spike is set).
SeedTable run_seed000(const Manifest& manifest, const RunOptions& options, bool cycle_model_default,
                      const SimtConfig& simt, std::uint64_t seed);

/// Prints Table 1, the speed-ups of Figures 2-4 beside the paper's, and the SIMT estimate.
void print_seed000(std::FILE* out, const SeedTable& table);

/// The table as JSON (machine, build, settings, rows with counts, speed-ups, SIMT, the paper's numbers).
Json seed000_json(const SeedTable& table);

}  // namespace cryptaccel::cli::rvlab
