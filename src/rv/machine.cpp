// Machine: construction, ELF loading, the run loop (pre-decoded, function-pointer dispatch), stops and results.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cryptaccel/file.hpp"
#include "rv/core.hpp"
#include "rv/elf_loader.hpp"

namespace cryptaccel::rv {

Core::Core(const MachineConfig& config) : cfg(config), isa(parse_isa(config.isa)) {
  if (cfg.ram_size < kPageSize || cfg.ram_size % kPageSize != 0)
    throw std::invalid_argument("RAM size must be a non-zero multiple of 4 KiB");
  if (isa.xlen == 32 && cfg.ram_base + cfg.ram_size > (std::uint64_t{1} << 32))
    throw std::invalid_argument("RAM must lie below 4 GiB on RV32");
  ram_storage.reset(static_cast<std::uint8_t*>(std::calloc(cfg.ram_size, 1)));
  if (!ram_storage) throw std::bad_alloc();
  ram = ram_storage.get();
  ram_base = cfg.ram_base;
  ram_size = cfg.ram_size;
  page_flag_storage.assign(ram_size / kPageSize + 1, 0);
  page_flags = page_flag_storage.data();
  pages.resize(ram_size / kPageSize);
  for (std::size_t op = 0; op < kOpCount; ++op)
    op_cycles[op] = cfg.cycle_model.latency[static_cast<std::size_t>(kOpInfo[op].cls)];
  op_cycles[static_cast<std::size_t>(Op::decode_stub)] = 0;
  op_cycles[static_cast<std::size_t>(Op::illegal)] = 0;
  if (cfg.max_instructions) budget = cfg.max_instructions;
  pc = ram_base;
  if (isa.extensions & EXT(zve32x)) {
    if (cfg.elen != 32 && cfg.elen != 64) throw std::invalid_argument("ELEN must be 32 or 64");
    elen = std::min(cfg.elen, isa.max_elen);
    // RVV requires a power of two; seed 004's custom configuration (xkeccak) holds 5*SN elements a register, so
    // there any multiple of ELEN is accepted (docs/isa-lab.md, "Custom Keccak vector instructions").
    const bool any_multiple = (isa.extensions & EXT(xkeccak)) != 0;
    for (unsigned n : {cfg.vlen, std::max(cfg.vlen, isa.min_vlen)}) {
      if (any_multiple && (n < 128 || n > 4096 || n % elen != 0))
        throw std::invalid_argument("VLEN " + std::to_string(n) + " is not a multiple of ELEN = " + std::to_string(elen) +
                                    " from 128 to 4096 (xkeccak)");
      if (!any_multiple && (n < 128 || n > 4096 || (n & (n - 1)) != 0))
        throw std::invalid_argument("VLEN " + std::to_string(n) +
                                    " is not a power of two from 128 to 4096 (other multiples of ELEN need xkeccak)");
    }
    vlen = std::max(cfg.vlen, isa.min_vlen);
    vlenb = vlen / 8;
    vregs.assign(32u * vlenb, 0);
    vtype = std::uint64_t{1} << (isa.xlen - 1);  // vill until the first vsetvl*, as on Spike
    vqueue.assign(std::max<std::uint32_t>(cfg.cycle_model.vector.queue_depth, 1), 0);
  }
}

std::uint64_t Core::fault(std::uint64_t at, const Insn& d, StopReason why, const std::string& what, unsigned cause,
                          std::uint64_t tval) {
  const std::uint64_t handler = mtvec & ~std::uint64_t{3};
  // The handler's own first instruction trapping twice with nothing retired in between: the state repeats exactly
  // (same pc, registers and memory), so the program would trap forever without ever using up the instruction
  // budget (a trap does not retire). Stop instead of hanging (Spike would spin).
  const bool endless = mtvec != 0 && at == handler && vector_trap_retired == retired();
  if (mtvec != 0 && at == handler) vector_trap_retired = retired();
  if (mtvec != 0 && !endless) {
    --op_count[d.op];  // the run loop counts every executed slot; a trapping instruction does not retire
    mepc = at;
    mcause = cause;
    mtval = tval;
    constexpr std::uint64_t kMie = 1u << 3, kMpie = 1u << 7, kMppM = 3u << 11;
    mstatus = (mstatus & ~(kMie | kMpie)) | ((mstatus & kMie) ? kMpie : 0) | kMppM;
    ++traps;
    trapped = true;
    return mtvec & ~std::uint64_t{3};  // direct mode (vectored mode only differs for interrupts)
  }
  stopped = true;
  budget = 0;
  last_retired = false;
  stop_op = d.op;
  reason = why;
  stop_pc = at;
  stop_insn = d.raw;
  const std::string mnem = d.op < static_cast<std::uint16_t>(Op::decode_stub) ? std::string(" (") + kOpInfo[d.op].mnemonic + ")" : "";
  message = "stopped at pc " + hex(at) + ", instruction " + hex(d.raw) + mnem + ": " + what;
  if (endless) message += " (in the trap handler itself: an endless trap loop)";
  return at;
}

std::uint64_t Core::load_fault(std::uint64_t at, const Insn& d, std::uint64_t addr, unsigned n) {
  return fault(at, d, StopReason::memory_fault,
               std::to_string(n) + "-byte load from " + hex(addr) + " outside RAM [" + hex(ram_base) + ", " +
                   hex(ram_base + ram_size) + ")",
               kCauseLoadAccess, addr);
}
std::uint64_t Core::store_fault(std::uint64_t at, const Insn& d, std::uint64_t addr, unsigned n) {
  return fault(at, d, StopReason::memory_fault,
               std::to_string(n) + "-byte store to " + hex(addr) + " outside RAM [" + hex(ram_base) + ", " +
                   hex(ram_base + ram_size) + ")",
               kCauseStoreAccess, addr);
}

void Core::exit(std::int64_t code) {
  if (vlen) vdrain();
  stopped = true;
  budget = 0;
  last_retired = true;
  reason = StopReason::exit;
  exit_code = code;
}

void Core::run_loop() {
  std::uint64_t p = pc;
  const std::uint64_t start = retired();
  std::uint64_t remaining = budget > start ? budget - start : 0;
  Insn* page = nullptr;
  std::uint64_t page_index = ~std::uint64_t{0};
  while (remaining) {
    const std::uint64_t off = p - ram_base;
    if ((off >> kPageShift) != page_index) [[unlikely]] {
      if (off >= ram_size) {
        Insn none{};
        none.op = static_cast<std::uint16_t>(Op::illegal);
        ++op_count[none.op];  // undone by fault(): the fetch does not retire
        p = fault(p, none, StopReason::memory_fault, "instruction fetch outside RAM", kCauseFetchAccess, p);
        if (stopped) break;
        trapped = false;
        continue;
      }
      page_index = off >> kPageShift;
      page = code_page(page_index);
    }
    const Insn& d = page[(off & (kPageSize - 1)) >> 1];
    const std::uint16_t op = d.op;  // read before executing: a store may reset this slot
    p = d.fn(*this, d, p);
    ++op_count[op];
    if (stopped | trapped) [[unlikely]] {
      if (stopped) break;
      trapped = false;  // a trap does not retire: it does not use up the instruction budget either
      continue;
    }
    --remaining;
  }
  pc = p;
  if (!last_retired && stopped) --op_count[stop_op];  // the stopping instruction did not retire
}

Counts Core::make_counts(const std::array<std::uint64_t, kOpCount>& ops, std::uint64_t taken_branches,
                         std::uint64_t vector_stall) const {
  Counts c;
  c.taken_branches = taken_branches;
  c.cycles = taken_branches * cfg.cycle_model.taken_branch_penalty + vector_stall;
  c.vector_stall_cycles = vector_stall;
  for (std::size_t op = 0; op < static_cast<std::size_t>(Op::decode_stub); ++op) {
    if (!ops[op]) continue;
    c.instret += ops[op];
    c.by_class[static_cast<std::size_t>(kOpInfo[op].cls)] += ops[op];
    c.by_mnemonic[kOpInfo[op].mnemonic] += ops[op];
    c.cycles += ops[op] * op_cycles[op];
  }
  return c;
}

// ---- Machine ------------------------------------------------------------------------------------------------

Machine::Machine(MachineConfig config) : core_(std::make_unique<Core>(config)) {}
Machine::~Machine() = default;

void Machine::load_elf(std::span<const std::uint8_t> image) {
  Core& c = *core_;
  const ElfImage elf = parse_elf(image);
  if (elf.xlen != c.isa.xlen)
    throw std::runtime_error("ELF is " + std::to_string(elf.xlen) + "-bit but the ISA string '" + c.cfg.isa +
                             "' is RV" + std::to_string(c.isa.xlen));
  for (const ElfSegment& s : elf.segments) {
    if (s.memsz == 0) continue;
    if (s.paddr < c.ram_base || s.memsz > c.ram_size || s.paddr - c.ram_base > c.ram_size - s.memsz)
      throw std::runtime_error("ELF segment [" + hex(s.paddr) + ", " + hex(s.paddr + s.memsz) + ") lies outside RAM [" +
                               hex(c.ram_base) + ", " + hex(c.ram_base + c.ram_size) + ")");
    std::uint8_t* dst = c.ram + (s.paddr - c.ram_base);
    std::copy(s.data.begin(), s.data.end(), dst);
    std::fill(dst + s.data.size(), dst + s.memsz, std::uint8_t{0});
    c.invalidate_code(s.paddr - c.ram_base, s.memsz);
  }
  c.symbols = elf.symbols;
  c.tohost = symbol("tohost");
  c.fromhost = symbol("fromhost");
  for (std::uint64_t* a : {&c.tohost, &c.fromhost}) {
    if (*a && (*a < c.ram_base || *a - c.ram_base > c.ram_size - 8)) *a = 0;  // not in RAM: no HTIF
    if (*a) c.page_flags[(*a - c.ram_base) >> kPageShift] |= kPageHtif;
  }
  c.pc = elf.entry;
}

void Machine::load_elf_file(const std::string& path) {
  load_elf(read_whole_file(path));
}

RunResult Machine::run(std::span<const std::uint8_t> stdin_bytes) {
  Core& c = *core_;
  if (c.ran) throw std::logic_error("rv::Machine::run: a Machine runs once");
  c.ran = true;
  c.stdin_bytes.assign(stdin_bytes.begin(), stdin_bytes.end());
  if (c.cfg.spike_boot) {
    // Spike's reset vector at 0x1000: auipc t0; addi a1, t0, 32; csrr a0, mhartid; ld/lw t0, 24(t0); jr t0.
    const bool rv64 = c.isa.xlen == 64;
    for (Op op : {Op::auipc, Op::addi, Op::csrrs, rv64 ? Op::ld : Op::lw, Op::jalr}) ++c.op_count[static_cast<std::size_t>(op)];
    c.x[10] = 0;        // a0 = mhartid
    c.x[11] = 0x1020;   // a1 = device tree blob
    c.x[5] = c.pc;      // t0 = entry
    if (c.cfg.max_instructions) c.budget = c.cfg.max_instructions;
  }
  const auto t0 = std::chrono::steady_clock::now();
  c.run_loop();
  const auto t1 = std::chrono::steady_clock::now();

  RunResult r;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  r.reason = c.reason;
  r.exit_code = c.stopped && c.reason == StopReason::exit ? c.exit_code : -1;
  if (!c.stopped) {
    r.reason = StopReason::instruction_limit;
    c.stop_pc = c.pc;
    c.message = "instruction limit of " + std::to_string(c.cfg.max_instructions) + " reached at pc " + hex(c.pc);
  }
  r.message = c.message;
  r.stop_pc = c.stop_pc;
  r.stop_insn = c.stop_insn;
  r.stdout_bytes = std::move(c.out);
  r.stderr_bytes = std::move(c.err);
  r.console_bytes = std::move(c.console);
  r.total = c.make_counts(c.op_count, c.taken, c.vstall);
  r.region = c.make_counts(c.region_ops, c.region_taken, c.region_vstall);
  r.regions = c.regions;
  r.traps = c.traps;
  const std::uint64_t b = symbol("begin_signature"), e = symbol("end_signature");
  if (b && e > b && b >= c.ram_base && e - c.ram_base <= c.ram_size) {
    for (std::uint64_t a = b; a + 4 <= e; a += 4) {
      std::uint32_t w;
      std::memcpy(&w, c.ram + (a - c.ram_base), 4);
      r.signature.push_back(w);
    }
  }
  return r;
}

StopReason Machine::step(std::uint64_t n) {
  Core& c = *core_;
  c.stopped = false;
  c.last_retired = true;
  c.message.clear();
  c.budget = c.retired() + n;
  c.run_loop();
  if (!c.stopped) return StopReason::instruction_limit;
  return c.reason;
}

const std::string& Machine::last_message() const { return core_->message; }

void Machine::write_memory(std::uint64_t addr, std::span<const std::uint8_t> bytes) {
  Core& c = *core_;
  if (addr < c.ram_base || bytes.size() > c.ram_size || addr - c.ram_base > c.ram_size - bytes.size())
    throw std::out_of_range("write_memory outside RAM");
  std::copy(bytes.begin(), bytes.end(), c.ram + (addr - c.ram_base));
  c.invalidate_code(addr - c.ram_base, bytes.size());
}

void Machine::read_memory(std::uint64_t addr, std::span<std::uint8_t> out) const {
  const Core& c = *core_;
  if (addr < c.ram_base || out.size() > c.ram_size || addr - c.ram_base > c.ram_size - out.size())
    throw std::out_of_range("read_memory outside RAM");
  std::copy_n(c.ram + (addr - c.ram_base), out.size(), out.begin());
}

void Machine::load_words(std::uint64_t addr, std::span<const std::uint32_t> words) {
  std::vector<std::uint8_t> bytes;
  for (std::uint32_t w : words)
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
  write_memory(addr, bytes);
  core_->pc = addr;
}

std::uint64_t Machine::reg(unsigned i) const { return i < 32 ? core_->x[i] : 0; }
void Machine::set_reg(unsigned i, std::uint64_t value) {
  if (i == 0 || i >= 32) return;
  core_->x[i] = core_->isa.xlen == 32 ? static_cast<std::uint32_t>(value) : value;
}
std::uint64_t Machine::pc() const { return core_->pc; }
void Machine::set_pc(std::uint64_t pc) { core_->pc = pc; }
std::uint64_t Machine::symbol(std::string_view name) const {
  for (const auto& [n, v] : core_->symbols)
    if (n == name) return v;
  return 0;
}
std::vector<std::uint8_t> Machine::vreg(unsigned i) const {
  const Core& c = *core_;
  if (i >= 32 || c.vlenb == 0) return {};
  return std::vector<std::uint8_t>(c.vreg_ptr(i), c.vreg_ptr(i) + c.vlenb);
}
void Machine::set_vreg(unsigned i, std::span<const std::uint8_t> bytes) {
  Core& c = *core_;
  if (i >= 32 || c.vlenb == 0) return;
  std::uint8_t* p = c.vreg_ptr(i);
  std::fill_n(p, c.vlenb, std::uint8_t{0});
  std::copy_n(bytes.begin(), std::min<std::size_t>(bytes.size(), c.vlenb), p);
}
unsigned Machine::vlen() const { return core_->vlen; }
const IsaInfo& Machine::isa() const { return core_->isa; }
const MachineConfig& Machine::config() const { return core_->cfg; }

RunResult run_elf(const std::string& elf_path, const MachineConfig& config, std::span<const std::uint8_t> stdin_bytes) {
  Machine m(config);
  m.load_elf_file(elf_path);
  return m.run(stdin_bytes);
}

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::exit: return "exit";
    case StopReason::instruction_limit: return "instruction-limit";
    case StopReason::illegal_instruction: return "illegal-instruction";
    case StopReason::disabled_extension: return "disabled-extension";
    case StopReason::ecall: return "ecall";
    case StopReason::ebreak: return "ebreak";
    case StopReason::unsupported: return "unsupported";
    case StopReason::memory_fault: return "memory-fault";
  }
  return "?";
}

}  // namespace cryptaccel::rv
