// The CSR file: the counters (cycle/time/instret and their machine aliases, RV32 high halves), misa, the ID
// registers, and plain storage for the trap CSRs (no traps are taken). Also the measured-region bookkeeping.
#include "rv/core.hpp"

namespace cryptaccel::rv {

namespace {
/// CSRs that are plain storage here (no address translation, protection, delegation or debug triggers), so that
/// the start-up code of riscv-tests / riscv-arch-test style programs runs: S-mode CSRs, satp, medeleg/mideleg,
/// menvcfg, mseccfg, mstatush, pmpcfg*/pmpaddr*, tselect/tdata*.
bool storage_csr(unsigned num, bool rv32) {
  switch (num) {
    case 0x100: case 0x104: case 0x105: case 0x106: case 0x10A: case 0x140: case 0x141: case 0x142: case 0x143:
    case 0x144: case 0x180: case 0x302: case 0x303: case 0x30A: case 0x747: case 0x7A0: case 0x7A1: case 0x7A2:
    case 0x7A3:
      return true;
    case 0x310: case 0x31A: return rv32;  // mstatush, menvcfgh
    default: return (num >= 0x3A0 && num <= 0x3AF) || (num >= 0x3B0 && num <= 0x3EF);
  }
}

enum : unsigned {
  kMstatus = 0x300, kMisa = 0x301, kMie = 0x304, kMtvec = 0x305, kMcounteren = 0x306, kMcountinhibit = 0x320,
  kMscratch = 0x340, kMepc = 0x341, kMcause = 0x342, kMtval = 0x343, kMip = 0x344,
  kMcycle = 0xB00, kMinstret = 0xB02, kMcycleh = 0xB80, kMinstreth = 0xB82,
  kCycle = 0xC00, kTime = 0xC01, kInstret = 0xC02, kCycleh = 0xC80, kTimeh = 0xC81, kInstreth = 0xC82,
  kVstart = 0x008, kVxsat = 0x009, kVxrm = 0x00A, kVcsr = 0x00F, kVl = 0xC20, kVtype = 0xC21, kVlenb = 0xC22,
  kMvendorid = 0xF11, kMarchid = 0xF12, kMimpid = 0xF13, kMhartid = 0xF14, kMconfigptr = 0xF15,
};
}

std::uint64_t Core::cycles_now() const {
  std::uint64_t cycles = taken * cfg.cycle_model.taken_branch_penalty + vstall;
  for (std::size_t op = 0; op < kOpCount; ++op) cycles += op_count[op] * op_cycles[op];
  return cycles;
}

bool Core::csr_read(unsigned num, std::uint64_t& v) const {
  const bool rv32 = isa.xlen == 32;
  const std::uint64_t cycles = cycles_now() + static_cast<std::uint64_t>(cycle_offset);
  const std::uint64_t ret = retired() + static_cast<std::uint64_t>(instret_offset);
  switch (num) {
    case kCycle: case kMcycle: case kTime: v = cycles; return true;  // time ticks with the modelled cycles
    case kInstret: case kMinstret: v = ret; return true;
    case kCycleh: case kMcycleh: case kTimeh: v = cycles >> 32; return rv32;
    case kInstreth: case kMinstreth: v = ret >> 32; return rv32;
    case kMisa: {
      std::uint64_t letters = 0;
      const char* const kLetters = "imafdcv";
      const std::uint64_t bits[] = {EXT(i), EXT(m), EXT(a), EXT(f), EXT(d), EXT(c), EXT(v)};
      for (int k = 0; k < 7; ++k)
        if (isa.extensions & bits[k]) letters |= std::uint64_t{1} << (kLetters[k] - 'a');
      v = (rv32 ? std::uint64_t{1} << 30 : std::uint64_t{2} << 62) | letters;
      return true;
    }
    case kMvendorid: case kMarchid: case kMimpid: case kMhartid: case kMconfigptr: v = 0; return true;
    case kMstatus: v = mstatus; return true;
    case kMie: v = mie; return true;
    case kMip: v = mip; return true;
    case kMtvec: v = mtvec; return true;
    case kMscratch: v = mscratch; return true;
    case kMepc: v = mepc; return true;
    case kMcause: v = mcause; return true;
    case kMtval: v = mtval; return true;
    case kMcounteren: case kMcountinhibit: v = 0; return true;
    case kVstart: case kVxsat: case kVxrm: case kVcsr: case kVl: case kVtype: case kVlenb: {
      if (vlen == 0 || (mstatus & kMstatusVs) == 0) return false;  // no vectors, or mstatus.VS off (as Spike)
      switch (num) {
        case kVstart: v = vstart; break;
        case kVxsat: v = vxsat; break;
        case kVxrm: v = vxrm; break;
        case kVcsr: v = vxrm << 1 | vxsat; break;
        case kVl: v = vl; break;
        case kVtype: v = vtype; break;
        default: v = vlenb; break;
      }
      return true;
    }
    default:
      if (storage_csr(num, rv32)) {
        v = 0;
        for (const auto& [n, value] : csr_store)
          if (n == num) v = value;
        return true;
      }
      // Zihpm: hpmcounter3..31 (and the machine ones, their events) read 0, as on Spike without events.
      if ((num >= 0xC03 && num <= 0xC1F) || (num >= 0xB03 && num <= 0xB1F) || (num >= 0x323 && num <= 0x33F) ||
          (rv32 && ((num >= 0xC83 && num <= 0xC9F) || (num >= 0xB83 && num <= 0xB9F)))) {
        v = 0;
        return true;
      }
      return false;
  }
}

bool Core::csr_write(unsigned num, std::uint64_t v) {
  if ((num >> 10) == 3) return false;  // read-only space (cycle, time, instret, IDs)
  const bool rv32 = isa.xlen == 32;
  // Counter writes take effect for the next instruction: this one does not count on top (Spike's behaviour).
  const std::uint64_t next_instret = retired() + 1;
  switch (num) {
    case kMinstret: case kMinstreth: {
      std::uint64_t cur = next_instret + static_cast<std::uint64_t>(instret_offset);
      if (!rv32) cur = v;
      else if (num == kMinstret) cur = (cur & ~std::uint64_t{0xFFFFFFFF}) | (v & 0xFFFFFFFF);
      else cur = (cur & 0xFFFFFFFF) | (v << 32);
      instret_offset = static_cast<std::int64_t>(cur - next_instret);
      return true;
    }
    case kMcycle: case kMcycleh: {
      const std::uint64_t now = cycles_now();
      std::uint64_t cur = now + static_cast<std::uint64_t>(cycle_offset);
      if (!rv32) cur = v;
      else if (num == kMcycle) cur = (cur & ~std::uint64_t{0xFFFFFFFF}) | (v & 0xFFFFFFFF);
      else cur = (cur & 0xFFFFFFFF) | (v << 32);
      cycle_offset = static_cast<std::int64_t>(cur - now);
      return true;
    }
    case kMstatus: mstatus = v; return true;
    case kMie: mie = v; return true;
    case kMip: mip = v; return true;
    case kMtvec: mtvec = v; return true;
    case kMscratch: mscratch = v; return true;
    case kMepc: mepc = v; return true;
    case kMcause: mcause = v; return true;
    case kMtval: mtval = v; return true;
    case kMisa: case kMcounteren: case kMcountinhibit: return true;  // WARL: writes ignored
    case kVstart: case kVxsat: case kVxrm: case kVcsr: {
      if (vlen == 0 || (mstatus & kMstatusVs) == 0) return false;
      // WARL: enough bits for VLEN-1, the largest element index (VLEN need not be a power of two with xkeccak).
      if (num == kVstart) vstart = v & (std::bit_ceil(vlen) - 1);
      else if (num == kVxsat) vxsat = v & 1;
      else if (num == kVxrm) vxrm = v & 3;
      else vxrm = (v >> 1) & 3, vxsat = v & 1;
      mstatus |= kMstatusVs;  // dirty
      return true;
    }
    default: {
      if (storage_csr(num, rv32)) {
        for (auto& [n, value] : csr_store)
          if (n == num) return value = v, true;
        csr_store.emplace_back(num, v);
        return true;
      }
      std::uint64_t ignored;
      return csr_read(num, ignored);  // hpm counters/events: writable, ignored
    }
  }
}

void Core::region_marker() {
  // Snapshots hold the counts of instructions retired before the marker, like a minstret read at that point:
  // a region counts its start marker and not its end marker, exactly the minstret delta of the two reads.
  if (vlen) vdrain();  // a region's cycles include the vector work it started
  if (!in_region) {
    region_start = op_count;
    region_start_taken = taken;
    region_start_vstall = vstall;
    in_region = true;
    return;
  }
  for (std::size_t op = 0; op < kOpCount; ++op) region_ops[op] += op_count[op] - region_start[op];
  region_taken += taken - region_start_taken;
  region_vstall += vstall - region_start_vstall;
  in_region = false;
  ++regions;
}

}  // namespace cryptaccel::rv
