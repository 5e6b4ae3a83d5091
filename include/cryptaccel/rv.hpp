// cryptaccel::rv — the RISC-V simulator of the crypto-ISA lab (docs/isa-lab.md): RV32/RV64 IMC + Zicsr + scalar
// bit-manipulation and crypto extensions, Spike's bare-metal platform (RAM at 0x8000_0000, HTIF tohost/fromhost),
// retired-instruction counts per class for the whole run and for the measured region, and a cycle model.
//
//   cryptaccel::rv::MachineConfig cfg;
//   cfg.isa = "rv64imc_zbkb_zknh";
//   cryptaccel::rv::Machine m(cfg);
//   m.load_elf_file("kernel.elf");
//   cryptaccel::rv::RunResult r = m.run(stdin_bytes);
//   // r.exit_code, r.stdout_bytes, r.total.instret, r.region.by_class[...], r.region.cycles
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cryptaccel::rv {

/// Instruction classes for counting and for the cycle model. New classes go at the end (before count).
enum class InsnClass : std::uint8_t {
  alu,         ///< integer register/immediate arithmetic, logic, shifts, lui/auipc
  mul,         ///< M multiplications
  div,         ///< M divisions and remainders
  load,
  store,
  branch,      ///< conditional branches (taken ones also pay CycleModel::taken_branch_penalty)
  jump,        ///< jal, jalr
  csr,         ///< Zicsr
  system,      ///< fence, fence.i, ecall, ebreak, mret, wfi
  bitmanip,    ///< Zba/Zbb/Zbs/Zbkb/Zbkx
  clmul,       ///< Zbc/Zbkc carry-less multiplication
  crypto_aes,  ///< Zkne/Zknd
  crypto_sha,  ///< Zknh
  crypto_sm,   ///< Zksed/Zksh
  atomic,      ///< A: lr/sc and AMOs
  vector_config,      ///< RVV vsetvli/vsetivli/vsetvl
  vector_alu,         ///< RVV integer arithmetic, logic, shifts, compares, merges, moves, mask ops; Zvbb/Zvkb
  vector_mem,         ///< RVV loads and stores (unit-stride, strided, whole-register, mask)
  vector_permute,     ///< RVV slides, gathers, scalar moves (vmv.x.s, vmv.s.x)
  vector_crypto_aes,  ///< Zvkned
  vector_crypto_sha,  ///< Zvknha/Zvknhb
  vector_crypto_sm,   ///< Zvksed/Zvksh
  vector_clmul,       ///< Zvbc and Zvkg (carry-less multiplication, GHASH)
  vector_keccak,      ///< xkeccak: seed 004's custom Keccak vector instructions
  count
};
inline constexpr std::size_t kClassCount = static_cast<std::size_t>(InsnClass::count);

/// Class name as used in reports and cycle-model files ("alu", "crypto-aes", ...).
std::string_view class_name(InsnClass c);

/// Parameters of the vector timing model (src/rv/vector_timing.cpp; docs/isa-lab.md, "Vector timing model"), in the
/// spirit of Ara2/Marian: the scalar core issues a vector instruction in its class's CycleModel latency and goes on;
/// the vector unit runs it on one of its units (ALU, load/store, slide/permute, crypto) when that unit is free and
/// its source registers are written, for `beats` cycles (occupancy) plus the unit's latency. The scalar core waits
/// only when the instruction queue is full, for a scalar result (vmv.x.s, vcpop.m, vfirst.m), and at a
/// measured-region marker or exit (the vector unit drains). Keys in CycleModel files: "vector-<name>" (e.g.
/// vector-lanes = 8). The preset rv/timing/seed004.json models seed 004's SIMD processor (lanes 0, blocking 1).
struct VectorTiming {
  /// 64-bit lanes: ALU, permute and memory beats move lanes*8 bytes a cycle; 0: a whole register (VLEN bits) a
  /// cycle, whatever VLEN is (seed 004's EleNum lanes)
  std::uint32_t lanes = 4;
  std::uint32_t alu_latency = 2;         ///< lane ALU pipeline: cycles after the last beat until the result
  std::uint32_t mem_latency = 4;         ///< load/store unit: cycles before the first beat (memory hit latency)
  std::uint32_t permute_latency = 2;     ///< slide/gather unit: cycles after the last beat
  std::uint32_t crypto_stages = 3;       ///< crypto unit pipeline depth (Marian: 3 stages)
  std::uint32_t crypto_lanes_per_eg = 2; ///< 64-bit lanes one 128-bit element-group slot uses (EGW 256: twice that)
  std::uint32_t queue_depth = 4;         ///< vector instructions waiting in the dispatcher before the scalar core stalls
  /// xkeccak (seed 004, Table I): cycles after the last beat (beats = ceil(vl / EleNum)) until the result of the
  /// slides mod 5, rotates, rho and iota ...
  std::uint32_t keccak_latency = 1;
  std::uint32_t keccak_pi_latency = 2;   ///< ... and of vpi
  /// 1: the scalar core waits for each vector instruction to finish before the next instruction (seed 004's SIMD
  /// processor runs one instruction at a time); 0: it only issues it (Ara-style decoupling, the default).
  std::uint32_t blocking = 0;
};

/// Per-class cost in cycles of one retired instruction, plus a penalty per taken conditional branch:
/// cycles = sum(count[class] * latency[class]) + taken_branches * taken_branch_penalty. Defaults in
/// src/rv/cycle_model.cpp (documented in docs/isa-lab.md, "Simulator").
struct CycleModel {
  std::array<std::uint32_t, kClassCount> latency{};
  std::uint32_t taken_branch_penalty = 0;
  VectorTiming vector;  ///< the vector unit (used only when the ISA has vectors)

  /// The documented defaults (an in-order single-issue core in the spirit of seed 000's Vortex pipeline).
  static CycleModel defaults();
  /// Sets one parameter: a class name ("alu", "crypto-aes", ...), "taken-branch-penalty" or a VectorTiming field
  /// as "vector-<field>" with '-' for '_' ("vector-lanes", "vector-crypto-stages", ...). Throws
  /// std::invalid_argument for an unknown key.
  void set(std::string_view key, std::uint32_t value);
  /// Applies `key = value` lines ('#' starts a comment) or a flat JSON object {"key": value, ...}.
  void parse(std::string_view text);
  /// parse() on a file's contents; throws std::runtime_error when it cannot be read.
  void load_file(const std::string& path);
};

/// Retired-instruction counts of a run or of the measured region.
struct Counts {
  std::uint64_t instret = 0;                              ///< retired instructions
  std::array<std::uint64_t, kClassCount> by_class{};      ///< retired instructions per InsnClass
  std::uint64_t taken_branches = 0;                       ///< taken conditional branches
  std::uint64_t cycles = 0;                               ///< modelled cycles (CycleModel)
  std::uint64_t vector_stall_cycles = 0;                  ///< of `cycles`: the scalar core waiting for the vector unit
  std::map<std::string, std::uint64_t> by_mnemonic;       ///< non-zero counts per mnemonic ("c." forms count as base)

  std::uint64_t of(InsnClass c) const { return by_class[static_cast<std::size_t>(c)]; }
};

/// Why a run stopped.
enum class StopReason {
  exit,                 ///< the program exited through HTIF (tohost or the exit system call)
  instruction_limit,    ///< MachineConfig::max_instructions retired
  illegal_instruction,  ///< an encoding this simulator does not know, or a reserved one
  disabled_extension,   ///< a known instruction whose extension (or XLEN) the ISA string does not enable
  ecall,                ///< ecall without a trap vector (Spike-platform programs use HTIF for system calls)
  ebreak,               ///< ebreak without a trap vector
  unsupported,          ///< an unknown CSR, a write to a read-only CSR (without a trap vector)
  memory_fault,         ///< a load, store or fetch outside RAM (without a trap vector)
};
// Once a program sets mtvec (riscv-tests style), every one of these exceptions traps there instead, as on Spike:
// mepc, mcause, mtval, mstatus.MPIE/MIE/MPP are set and mret returns.
std::string_view stop_reason_name(StopReason r);

/// Everything a run produced.
struct RunResult {
  StopReason reason = StopReason::instruction_limit;
  std::int64_t exit_code = 0;       ///< the program's exit code (reason == exit); -1 otherwise
  std::string message;              ///< for every stop but exit: pc, instruction word and reason in words
  std::uint64_t stop_pc = 0;        ///< pc of the instruction that stopped the run
  std::uint32_t stop_insn = 0;      ///< its encoding (16-bit for compressed ones)
  std::string stdout_bytes;         ///< bytes the program wrote to fd 1
  std::string stderr_bytes;         ///< bytes the program wrote to fd 2
  /// fd 1 and fd 2 writes interleaved in program order: what Spike prints on its standard output, since Spike's
  /// HTIF front end maps the target's fd 2 to the host's stdout.
  std::string console_bytes;
  Counts total;                     ///< the whole run (including Spike's 5 boot-ROM instructions, see spike_boot)
  Counts region;                    ///< between measured-region markers (summed over all regions)
  unsigned regions = 0;             ///< completed measured regions
  std::uint64_t traps = 0;          ///< exceptions taken through mtvec
  std::vector<std::uint32_t> signature;  ///< words between begin_signature and end_signature (if both exist)
  double seconds = 0;               ///< host wall time of run()

  bool exited() const { return reason == StopReason::exit; }
};

/// Machine parameters.
struct MachineConfig {
  /// Spike-style ISA string: rv32/rv64, single letters (i, m, a, f, d, c, v, g), then _-separated multi-letter
  /// extensions (zba, zbb, zbc, zbs, zbkb, zbkc, zbkx, zkne, zknd, zknh, zksed, zksh, zkn, zks, zk, zicsr,
  /// zifencei, zicntr, zihpm, zve32x, zve64x, zvl<N>b, zvkb, zvbb, zvbc, zvkg, zvkned, zvknha, zvknhb, zvksed,
  /// zvksh, zvkn, zvknc, zvkng, zvks, zvksc, zvksg, zvkt, ..., and xkeccak: seed 004's custom Keccak vector
  /// instructions, which need a vector base). Zicsr and Zifencei are always on.
  std::string isa = "rv64imc";
  /// Vector register length in bits (a power of two, 128..4096) when the ISA has vectors (v, zve32x, zve64x).
  /// With xkeccak any multiple of ELEN from 128 to 4096 (seed 004's 5*SN*ELEN: 320, 960, 1920 for ELEN 64; 160,
  /// 480, 960 for ELEN 32); VLMAX = floor(LMUL*VLEN/SEW) as usual.
  /// A zvl<N>b in the ISA string raises it to at least N (as Spike takes VLEN from zvl<N>b).
  unsigned vlen = 128;
  /// Largest element width in bits (32 or 64); capped at 32 by zve32x without zve64x/v.
  unsigned elen = 64;
  std::uint64_t ram_base = 0x80000000ull;
  std::uint64_t ram_size = 64ull << 20;
  /// Stop after this many retired instructions (0: no limit).
  std::uint64_t max_instructions = 0;
  CycleModel cycle_model = CycleModel::defaults();
  /// Start as Spike does after its 5-instruction boot ROM: minstret = 5, a0 = mhartid (0), a1 = 0x1020 (the
  /// device-tree pointer), t0 = entry; the 5 instructions are counted in total (2 alu, 1 csr, 1 load, 1 jump).
  bool spike_boot = true;
};

/// Parsed ISA string (what the simulator enables).
struct IsaInfo {
  unsigned xlen = 64;
  std::uint64_t extensions = 0;  ///< bit mask, see extension_names()
  unsigned min_vlen = 0;         ///< largest zvl<N>b named (v implies 128, zve64x 64, zve32x 32); 0 without vectors
  unsigned max_elen = 0;         ///< 64 with v or zve64x, 32 with zve32x only, 0 without vectors
  bool has(std::string_view ext) const;
};
/// Parses an ISA string; throws std::invalid_argument naming the offending part.
IsaInfo parse_isa(std::string_view isa);
/// Names of the extension bits (index = bit number).
std::span<const std::string_view> extension_names();

class Core;

/// One RISC-V hart with its RAM and HTIF device. Not thread-safe; separate Machines are independent.
class Machine {
 public:
  explicit Machine(MachineConfig config = {});
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  /// Loads an ELF32/ELF64 RISC-V executable (PT_LOAD segments into RAM; tohost, fromhost, begin_signature,
  /// end_signature from its symbol table); sets pc to the entry. Throws std::runtime_error on a malformed file,
  /// an XLEN that differs from the ISA string's, or a segment outside RAM.
  void load_elf(std::span<const std::uint8_t> image);
  void load_elf_file(const std::string& path);

  /// Runs until exit, a stop or the instruction limit, feeding `stdin_bytes` to read(0, ...).
  /// A Machine runs once per loaded program (load again to rerun).
  RunResult run(std::span<const std::uint8_t> stdin_bytes = {});

  // --- low-level access (tests, tools) ---
  /// Executes up to `n` instructions from the current pc (no boot sequence, no result assembly) and returns why it
  /// stopped (instruction_limit when all n ran). A previous stop is cleared first, so tests can go on after one.
  /// last_message() tells the reason of a stop in words.
  StopReason step(std::uint64_t n);
  const std::string& last_message() const;
  /// Copies bytes into RAM at a physical address (throws std::out_of_range outside RAM).
  void write_memory(std::uint64_t addr, std::span<const std::uint8_t> bytes);
  void read_memory(std::uint64_t addr, std::span<std::uint8_t> out) const;
  /// Places 32-bit words at `addr` (little-endian) and sets pc there.
  void load_words(std::uint64_t addr, std::span<const std::uint32_t> words);
  std::uint64_t reg(unsigned i) const;
  void set_reg(unsigned i, std::uint64_t value);
  std::uint64_t pc() const;
  void set_pc(std::uint64_t pc);
  /// Address of an ELF symbol of the loaded program (0 if absent).
  std::uint64_t symbol(std::string_view name) const;
  /// Vector register `i` (0..31) as VLEN/8 little-endian bytes (element 0 first); empty without vectors.
  std::vector<std::uint8_t> vreg(unsigned i) const;
  /// Sets vector register `i` from up to VLEN/8 bytes (the rest become 0).
  void set_vreg(unsigned i, std::span<const std::uint8_t> bytes);
  /// The machine's VLEN in bits (0 without vector extensions).
  unsigned vlen() const;
  const IsaInfo& isa() const;
  const MachineConfig& config() const;

 private:
  std::unique_ptr<Core> core_;
};

/// Convenience: loads `elf_path` into a fresh Machine and runs it.
RunResult run_elf(const std::string& elf_path, const MachineConfig& config, std::span<const std::uint8_t> stdin_bytes = {});

/// Decodes one instruction word (32-bit, or 16-bit compressed in the low half when (word & 3) != 3) to its
/// mnemonic for the given ISA, or an empty string when it does not decode. For tools and tests.
std::string decode_mnemonic(std::uint32_t word, std::string_view isa);

}  // namespace cryptaccel::rv
