// `cryptaccel rv table seed004`: seed 004's Tables II and III (custom Keccak vector instructions, DATE 2023) on
// cryptaccel's simulator. Every configuration runs the `keccak-f1600` kernel (layout keccak-states) on SN fresh random
// states, once with the full 24 rounds and once with the last 12 (Keccak-p), every output checked against the ref
// engine: one pass (load, rounds, store) gives cycles/byte (pass cycles / 200) and bits/cycle (SN * 1600 / pass
// cycles), the difference of the two runs cycles/round ((cycles(24) - cycles(12)) / 12). The rows: scalar RV64I and
// Zbb/Zbkb, RV32 bit-interleaved, standard RVV, the custom instructions (64-bit LMUL 1 and 8, 32-bit LMUL 8) at SN 1,
// 3, 6, and xkeccak64-lmul8 with each custom instruction replaced by standard code (the ablations); the paper's
// figures beside ours.
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "rv_kernel_run.hpp"
#include "rv_manifest.hpp"

namespace cryptaccel::cli::rvlab {

/// The kernel every row runs.
inline constexpr const char* kSeed004Kernel = "keccak-f1600";
/// Round counts of the two runs of a row: the whole permutation, and its last half (Keccak-p[1600, 12]).
inline constexpr unsigned kSeed004Rounds = 24, kSeed004HalfRounds = 12;
/// Bytes of one Keccak-f[1600] state.
inline constexpr unsigned kKeccakStateBytes = 200;

/// One configuration of the table: a kernel variant on one machine.
struct Seed004Config {
  std::string id;                 ///< "scalar-rv64", ..., "custom64-lmul8-sn3", "ablation-no-vpi-sn1"
  std::string group;              ///< rows of one line of the chart: "scalar-rv64", "rvv", "custom64-lmul1", ...
  std::string label;              ///< "scalar RV64I (reference)"
  std::string variant;            ///< the manifest's variant of keccak-f1600
  std::vector<unsigned> xlens;    ///< XLENs to try, first built wins
  unsigned vlen = 0;              ///< VLEN in bits (vector rows), 0 for scalar rows
  unsigned sn = 1;                ///< states per pass (= nstates of the input)
  unsigned elen = 64;             ///< element width of the vector rows (SEW of the state); scalar: the lane width
  unsigned lmul = 0;              ///< LMUL of the vector rows (0: scalar, or not fixed by the table)
  bool seed004_timing = false;    ///< run with the seed004 timing preset (vector rows) instead of the default model
  std::string paper_id;           ///< the paper's row (rv_seed004_paper.hpp), or ""
  std::string replaced;           ///< ablations: what replaces what ("vrotup -> vror.vi (Zvkb)", ...); else ""
  std::string full_id;            ///< ablations: the row of the full custom kernel at the same SN
};

/// The table's configurations, in printing order (every main row, then the ablations).
std::vector<Seed004Config> seed004_configs();

/// One configuration's result.
struct Seed004Row {
  Seed004Config config;
  /// "ok"; "missing" (not in the manifest, or not built); "failed" (a run or a check failed); "not run" (no preset)
  std::string status;
  unsigned xlen = 0;   ///< the XLEN it ran on (0 when missing)
  std::optional<KernelRun> full;  ///< 24 rounds
  std::optional<KernelRun> half;  ///< the last 12 rounds
  std::vector<std::string> problems;
  // Derived from the two runs' region counts when both ran cleanly:
  std::optional<double> cycles_per_round, instructions_per_round, cycles_per_byte, bits_per_cycle;
  std::optional<double> ratio_to_full;  ///< ablations: cycles_per_round over the full custom kernel's at the same SN
};

/// The whole table.
struct Seed004Table {
  std::string manifest_path;
  std::string compiler;
  cryptaccel::rv::CycleModel scalar_model;                ///< defaults (+ --cycle-model)
  std::optional<cryptaccel::rv::CycleModel> vector_model;  ///< defaults + preset (+ --cycle-model); none: no preset
  std::string preset_path;                                 ///< the seed004 preset file (found or looked for)
  Json preset;                                             ///< its contents (null when missing)
  std::string overrides_path;                              ///< --cycle-model, or ""
  bool vs_spike = false;
  std::uint64_t seed = 0;
  std::vector<Seed004Row> rows;
  std::vector<std::string> problems;
  double seconds = 0;

  bool ok() const { return problems.empty(); }
  /// The row with this id, or nullptr.
  const Seed004Row* row(const std::string& id) const;
};

/// What run_seed004 needs besides the manifest.
struct Seed004Settings {
  std::string overrides_path;  ///< --cycle-model FILE ("" none)
  std::string preset_path;     ///< the seed004 timing preset (rv/timing/seed004.json)
  std::string spike;           ///< --vs spike: Spike's path (only rows without custom instructions run on it)
  std::uint64_t seed = 0;
};

/// Where the seed004 timing preset is: $CRYPTACCEL_RV_SEED004_TIMING, else the source tree's rv/timing/seed004.json.
std::string seed004_preset_path();

/// Runs every configuration (missing kernels, variants and a missing preset become per-row problems, not errors).
Seed004Table run_seed004(const Manifest& manifest, const Seed004Settings& settings);

/// Prints Tables II/III (ours beside the paper's), the ablations and the published reference designs.
void print_seed004(std::FILE* out, const Seed004Table& table);

/// The table as JSON: machine, build, cycle_model, seed, rows (with the `rv run --json` object of each run), paper,
/// ok, problems.
Json seed004_json(const Seed004Table& table);

}  // namespace cryptaccel::cli::rvlab
