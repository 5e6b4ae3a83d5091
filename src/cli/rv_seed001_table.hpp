// `cryptaccel rv table seed001`: seed 001's table (Marian: Zvk on CVA6 + Ara2) on cryptaccel's simulator: AES-128/256
// and SM4 encrypt/decrypt of one block (schedule expanded before the measured region, as OpenSSL's block functions
// take it), SHA-256, SHA-512 and SM3 of 1 KiB; the `reference` (constant-time C) and `zvk` variants on RV64 at one
// VLEN, the scalar `native` variant where it exists, every output checked against the ref engine, speed-ups, the
// paper's figures beside ours.
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "rv_kernel_run.hpp"
#include "rv_manifest.hpp"
#include "rv_workload.hpp"

namespace cryptaccel::cli::rvlab {

/// One row of seed 001's table.
struct Seed001Row {
  std::string id;      ///< aes128-enc-block, ..., sm3-1k (the ids of rv_seed001_paper.hpp)
  std::string label;   ///< "AES-128 encrypt, 1 block"
  std::string kernel;  ///< manifest kernel
  WorkloadRequest request;
};

/// One row x variant.
struct Seed001Cell {
  const Seed001Row* row = nullptr;
  KernelRun run;
};

/// The whole table.
struct Seed001Table {
  std::string manifest_path;
  std::string compiler;
  cryptaccel::rv::CycleModel cycle_model;
  bool cycle_model_default = true;
  unsigned vlen = 0;
  bool vs_spike = false;
  std::uint64_t seed = 0;
  std::vector<Seed001Row> rows;
  std::vector<Seed001Cell> cells;       ///< row-major, variants in the order reference, zvk, native
  std::vector<std::string> problems;
  double seconds = 0;

  bool ok() const { return problems.empty(); }
  /// The cell for row x variant, or nullptr.
  const Seed001Cell* cell(const std::string& row, const std::string& variant) const;
};

/// The variants of the table, in column order.
inline constexpr const char* kSeed001Variants[] = {"reference", "zvk", "native"};

/// Seed 001's rows; throws std::runtime_error naming the kernel when the manifest lacks one.
std::vector<Seed001Row> seed001_rows(const Manifest& manifest);

/// Runs every row x variant (RV64; zvk at options.vlen or its default VLEN) with checks (and Spike when set).
Seed001Table run_seed001(const Manifest& manifest, const RunOptions& options, bool cycle_model_default,
                         std::uint64_t seed);

/// Prints the table: ours (reference, zvk, native) and the paper's, with speed-ups.
void print_seed001(std::FILE* out, const Seed001Table& table);

/// The table as JSON (machine, build, settings, rows with every run's counts, speed-ups, the paper's rows).
Json seed001_json(const Seed001Table& table);

}  // namespace cryptaccel::cli::rvlab
