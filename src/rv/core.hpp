// The simulator's internal state: registers, RAM, pre-decoded instruction pages, counters, CSRs, HTIF, stop state.
// Instruction semantics (exec_*.cpp) read and write it directly; Machine (machine.cpp) is the public face.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cryptaccel/rv.hpp"

namespace cryptaccel::rv {

class Core;
struct Insn;

/// Semantics of one instruction: executes `d` at `pc` and returns the next pc.
using Exec = std::uint64_t (*)(Core& c, const Insn& d, std::uint64_t pc);

/// A pre-decoded instruction (32 bytes). rd is 32 (a sink register) when the encoding names x0, so semantics
/// write x[rd] without a branch.
struct Insn {
  Exec fn;
  std::int64_t imm;
  std::uint32_t raw;  ///< the encoding as fetched (16 bits for compressed instructions)
  std::uint16_t op;   ///< Op
  std::uint8_t rd, rs1, rs2;
  std::uint8_t len;   ///< 2 or 4
};

/// One id per entry of isa/encodings.def, then the two internal ops.
enum class Op : std::uint16_t {
#define RV_INSN(id, ...) id,
#include "rv/isa/encodings.def"
#undef RV_INSN
  decode_stub,  ///< not yet decoded: decodes, then executes
  illegal,      ///< does not decode (or is disabled): stops the run
  count
};
inline constexpr std::size_t kOpCount = static_cast<std::size_t>(Op::count);

/// Extension bits (MachineConfig::isa → IsaInfo::extensions). Order = extension_names().
enum ExtBit : unsigned {
  ext_i, ext_m, ext_a, ext_f, ext_d, ext_c, ext_zicsr, ext_zifencei, ext_zicntr, ext_zihpm,
  ext_zba, ext_zbb, ext_zbc, ext_zbs, ext_zbkb, ext_zbkc, ext_zbkx,
  ext_zkne, ext_zknd, ext_zknh, ext_zksed, ext_zksh, ext_zkr, ext_zkt,
  ext_v, ext_zve32x, ext_zve64x, ext_zvkb, ext_zvbb, ext_zvbc, ext_zvkg, ext_zvkned, ext_zvknha, ext_zvknhb,
  ext_zvksed, ext_zvksh, ext_zvkt,
  ext_xkeccak,  ///< seed 004's custom Keccak vector instructions (exec_xkeccak.cpp)
  ext_count
};
#define EXT(name) (std::uint64_t{1} << ::cryptaccel::rv::ext_##name)

/// How a format's immediate is extracted.
enum class Format : std::uint8_t { R, I, S, B, U, J, SH, CSR, BS, RNUM, NONE };

/// Static facts about an op, from isa/encodings.def.
struct OpInfo {
  const char* mnemonic;
  std::uint32_t match, mask;
  std::uint64_t extensions;
  std::uint8_t xlen;  ///< 0 = both
  InsnClass cls;
  Format format;
};
extern const OpInfo kOpInfo[kOpCount];

/// Exception causes (privileged spec, mcause).
enum TrapCause : unsigned {
  kCauseFetchAccess = 1, kCauseIllegal = 2, kCauseBreakpoint = 3, kCauseLoadAccess = 5, kCauseStoreAccess = 7,
  kCauseEcallM = 11,
};

/// mstatus.VS (bits 10..9): vector state off (0), initial, clean, dirty (3). Vector instructions and CSRs need it on.
inline constexpr std::uint64_t kMstatusVs = std::uint64_t{3} << 9;

/// The encoding of `csrrs zero, minstret, zero`, the measured-region marker (docs/isa-lab.md).
inline constexpr std::uint32_t kRegionMarker = 0xB0202073u;

inline constexpr unsigned kPageShift = 12;
inline constexpr std::uint64_t kPageSize = 1u << kPageShift;
inline constexpr unsigned kSlotsPerPage = kPageSize / 2;  // one slot per 2-byte position (C extension)
inline constexpr std::uint8_t kPageCode = 1, kPageHtif = 2;

class Core {
 public:
  Core(const MachineConfig& cfg);

  // --- hot state ---------------------------------------------------------------------------------------------
  std::uint64_t x[33] = {};  ///< x[32]: write sink for rd = x0
  std::uint64_t budget = ~std::uint64_t{0};  ///< run_loop stops when retired() reaches it
  std::uint64_t taken = 0;                   ///< taken conditional branches
  std::uint8_t* ram = nullptr;
  std::uint64_t ram_base = 0, ram_size = 0;
  std::uint8_t* page_flags = nullptr;        ///< kPageCode | kPageHtif per RAM page
  /// Retired instructions per op (the only per-instruction counter: totals are sums of it).
  std::array<std::uint64_t, kOpCount> op_count{};
  /// Instructions retired so far (before the one executing), = minstret without its write offset.
  std::uint64_t retired() const {
    std::uint64_t n = 0;
    for (std::uint64_t v : op_count) n += v;
    return n;
  }

  // --- memory ------------------------------------------------------------------------------------------------
  /// Loads sizeof(T) bytes (any alignment); false outside RAM.
  template <class T>
  bool load(std::uint64_t addr, T& out) const {
    const std::uint64_t off = addr - ram_base;
    if (off > ram_size - sizeof(T)) [[unlikely]] return false;
    std::memcpy(&out, ram + off, sizeof(T));
    return true;
  }
  /// Stores sizeof(T) bytes; false outside RAM. Stores into decoded code drop the affected decodes; stores to
  /// tohost run the HTIF device.
  template <class T>
  bool store(std::uint64_t addr, T v) {
    const std::uint64_t off = addr - ram_base;
    if (off > ram_size - sizeof(T)) [[unlikely]] return false;
    std::memcpy(ram + off, &v, sizeof(T));
    if ((page_flags[off >> kPageShift] | page_flags[(off + sizeof(T) - 1) >> kPageShift]) != 0) [[unlikely]]
      store_hook(off, sizeof(T));
    return true;
  }
  void store_hook(std::uint64_t off, unsigned n);

  // --- stops (return the pc to hand back from a semantics function) -------------------------------------------
  /// An exception on instruction `d` at `pc`, which does not retire. With a trap vector (mtvec != 0) the hart
  /// traps to it as Spike does (mepc, mcause = `cause`, mtval = `tval`, mstatus.MPIE/MIE/MPP) and the pc there is
  /// returned; without one the run stops with `reason` and the message.
  std::uint64_t fault(std::uint64_t pc, const Insn& d, StopReason reason, const std::string& what, unsigned cause,
                      std::uint64_t tval);
  std::uint64_t load_fault(std::uint64_t pc, const Insn& d, std::uint64_t addr, unsigned n);
  std::uint64_t store_fault(std::uint64_t pc, const Insn& d, std::uint64_t addr, unsigned n);
  /// The program exited (the current instruction retires).
  void exit(std::int64_t code);

  // --- CSRs (csr.cpp) ----------------------------------------------------------------------------------------
  /// Reads CSR `num` into `v`; false if unknown.
  bool csr_read(unsigned num, std::uint64_t& v) const;
  /// Writes CSR `num`; false if unknown or read-only.
  bool csr_write(unsigned num, std::uint64_t v);
  /// Modelled cycles so far (instructions retired before the current one).
  std::uint64_t cycles_now() const;
  /// A measured-region marker executed (before it retires).
  void region_marker();

  // --- decode (decode.cpp) -----------------------------------------------------------------------------------
  /// Decodes the instruction at `pc` into `slot` (an illegal op when it does not decode).
  void decode_into(Insn& slot, std::uint64_t pc);
  /// Page of decoded slots for RAM page `page`, allocated (all stubs) on first use.
  Insn* code_page(std::uint64_t page);
  /// Why the word at `slot` did not decode, in words; sets `why`.
  std::string illegal_reason(const Insn& slot, StopReason& why) const;
  /// Drops decoded slots overlapping RAM bytes [off, off + n) (self-modifying code, loads from the host).
  void invalidate_code(std::uint64_t off, std::uint64_t n);

  /// Runs until a stop or the budget.
  void run_loop();
  /// Counts of an op array (by class, mnemonic) and cycles.
  Counts make_counts(const std::array<std::uint64_t, kOpCount>& ops, std::uint64_t taken_branches,
                     std::uint64_t vector_stall) const;

  // --- configuration -----------------------------------------------------------------------------------------
  MachineConfig cfg;
  IsaInfo isa;
  /// RAM from calloc: the OS hands out zero pages lazily, so a large RAM costs nothing until touched.
  struct FreeDeleter {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t, FreeDeleter> ram_storage;
  std::vector<std::uint8_t> page_flag_storage;
  std::vector<std::unique_ptr<Insn[]>> pages;
  std::array<std::uint32_t, kOpCount> op_cycles{};  ///< CycleModel latency per op
  std::uint64_t pc = 0;

  // --- symbols and HTIF (htif.cpp) ---------------------------------------------------------------------------
  std::vector<std::pair<std::string, std::uint64_t>> symbols;
  std::uint64_t tohost = 0, fromhost = 0;  ///< addresses (0: none)
  void htif_tohost_written();
  std::vector<std::uint8_t> stdin_bytes;
  std::size_t stdin_pos = 0;
  std::string out, err, console;

  // --- CSR state ---------------------------------------------------------------------------------------------
  std::int64_t instret_offset = 0, cycle_offset = 0;  ///< set by writes to minstret / mcycle
  std::uint64_t mstatus = 0, mtvec = 0, mscratch = 0, mepc = 0, mcause = 0, mtval = 0, mie = 0, mip = 0;
  /// CSRs kept as plain storage so that start-up code of test suites runs (satp, medeleg, pmp*, s-mode, ...).
  std::vector<std::pair<unsigned, std::uint64_t>> csr_store;
  std::uint64_t traps = 0;  ///< exceptions taken through mtvec
  /// retired() when an instruction at the trap vector itself last trapped (~0: never); a second such trap with
  /// nothing retired in between is a fixed point, an endless trap loop, and stops the run.
  std::uint64_t vector_trap_retired = ~std::uint64_t{0};
  /// A: the lr reservation (address; valid flag). Cleared by sc; a single hart has no other invalidation.
  std::uint64_t reservation = 0;
  bool reserved = false;

  // --- vector state (RVV 1.0; exec_v_*.cpp, vector_timing.cpp) ----------------------------------------------
  unsigned vlen = 0;   ///< bits; 0 without vector extensions
  unsigned vlenb = 0;  ///< bytes
  unsigned elen = 0;   ///< 32 or 64
  /// 32 registers of vlenb bytes, v0 first, little-endian elements (the byte layout RVV defines).
  std::vector<std::uint8_t> vregs;
  std::uint64_t vtype = 0, vl = 0, vstart = 0, vxrm = 0, vxsat = 0;
  std::uint8_t* vreg_ptr(unsigned i) { return vregs.data() + static_cast<std::size_t>(i) * vlenb; }
  const std::uint8_t* vreg_ptr(unsigned i) const { return vregs.data() + static_cast<std::size_t>(i) * vlenb; }

  // --- vector timing (vector_timing.cpp) -----------------------------------------------------------------------
  /// The vector unit's functional units (Ara's VALU, VLSU, SLDU, plus Marian's crypto unit).
  enum class VUnit : std::uint8_t { alu, mem, permute, crypto, count };
  std::array<std::uint64_t, 4> vunit_free{};   ///< cycle at which each unit accepts its next instruction
  std::array<std::uint64_t, 32> vreg_ready{};  ///< cycle at which each vector register's pending write completes
  std::vector<std::uint64_t> vqueue;           ///< start cycles of the last queue_depth vector instructions
  std::uint64_t vissued = 0, vall_done = 0;
  std::uint64_t vstall = 0;                    ///< cycles the scalar core waited for the vector unit
  /// Op of the vector instruction executing (set by vec::begin): its class latency is the scalar core's issue time,
  /// after which a blocking core (VectorTiming::blocking) waits for the result.
  std::uint16_t vcur_op = 0;
  /// A vector instruction occupying unit `u` for `beats` cycles with `latency` cycles to its result; `reads` and
  /// `writes` are masks of vector registers; `scalar_result`: the scalar core waits for it. With
  /// VectorTiming::blocking the scalar core waits for every instruction.
  void vissue(VUnit u, std::uint64_t beats, std::uint32_t latency, std::uint32_t reads, std::uint32_t writes,
              bool scalar_result = false);
  /// The scalar core waits until the vector unit is idle (region markers, exit).
  void vdrain();

  // --- measured region ---------------------------------------------------------------------------------------
  bool in_region = false;
  unsigned regions = 0;
  std::array<std::uint64_t, kOpCount> region_start{}, region_ops{};
  std::uint64_t region_start_taken = 0, region_taken = 0;
  std::uint64_t region_start_vstall = 0, region_vstall = 0;

  // --- stop state --------------------------------------------------------------------------------------------
  bool stopped = false;
  bool trapped = false;  ///< the last instruction trapped (did not retire): the run loop does not count it
  bool last_retired = true;  ///< whether the stopping instruction retired
  std::uint16_t stop_op = 0;
  StopReason reason = StopReason::instruction_limit;
  std::int64_t exit_code = -1;
  std::string message;
  std::uint64_t stop_pc = 0;
  std::uint32_t stop_insn = 0;
  bool ran = false;
};

/// Semantics of the two internal ops (decode.cpp).
std::uint64_t exec_decode_stub(Core& c, const Insn& d, std::uint64_t pc);
std::uint64_t exec_illegal(Core& c, const Insn& d, std::uint64_t pc);

/// Expands a 16-bit compressed instruction to its 32-bit equivalent; 0 when reserved or illegal
/// (decode_compressed.cpp).
std::uint32_t expand_compressed(std::uint16_t h, unsigned xlen);

/// Formats a value as 0x-prefixed hex.
std::string hex(std::uint64_t v);

}  // namespace cryptaccel::rv
