// `cryptaccel rv` sub-commands (parsed by cmd_rv.cpp). Each returns the exit status; problems that end a command are
// thrown as exceptions with a one-line message, which cmd_rv.cpp prints as "cryptaccel rv: MESSAGE" (exit 1). The
// work is done by the ISA-lab library (include/cryptaccel/rvlab.hpp); these files parse, call and print.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "cryptaccel/rvlab.hpp"

namespace cryptaccel::cli::rvcmd {

/// Exit status of `rv exec` when the simulator stopped the program (illegal instruction, disabled extension,
/// memory fault, instruction limit, ecall/ebreak, unsupported CSR): not a status the program chose.
inline constexpr int kExitStopped = 125;

/// `rv list [--json]`.
struct ListOptions {
  std::string manifest;
  bool json = false;
};
int rv_list(const ListOptions& options);

/// `rv run KERNEL --variant V --xlen X ...`.
struct RunCommandOptions {
  std::string manifest;
  std::string kernel;
  std::string variant;
  unsigned xlen = 0;
  std::optional<unsigned> vlen;  ///< --vlen (vector kernels only)
  cryptaccel::rvlab::WorkloadRequest request;
  bool check = false;
  bool vs_spike = false;
  std::string cycle_model_file;
  bool json = false;
  std::optional<std::uint64_t> seed;
};
int rv_run(const RunCommandOptions& options);

/// `rv exec ELF --isa STRING ...`.
struct ExecOptions {
  std::string elf;
  std::string isa;
  std::string signature;  ///< write the signature here (Spike's +signature format)
  unsigned signature_granularity = 4;  ///< bytes per signature line (Spike's +signature-granularity)
  std::uint64_t max_instructions = 0;
  std::string stdin_path;  ///< "" : no input; "-": this process's stdin
  std::uint64_t ram_mib = 64;
  unsigned vlen = 0;  ///< VLEN in bits for vector ISAs (0: 128, or the ISA string's zvl<N>b)
};
int rv_exec(const ExecOptions& options);

/// `rv table NAME ...`: the experiment NAME (rv/experiments/NAME.json).
struct TableOptions {
  std::string manifest;
  std::string name;        ///< "seed000", "seed001", "seed004", ...
  std::string json_path;   ///< "-": JSON on stdout instead of the text
  std::string chart_path;  ///< PNG, drawn by the experiment's chart script (scripts/rv_<name>_chart.py)
  std::optional<unsigned> vlen;  ///< experiments with the "vlen" option: VLEN of rows that give none
  cryptaccel::rvlab::SimtConfig simt;
  std::string cycle_model_file;
  bool vs_spike = false;
  std::optional<std::uint64_t> seed;
};
int rv_table(const TableOptions& options);

}  // namespace cryptaccel::cli::rvcmd
