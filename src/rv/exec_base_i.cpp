// RV32I / RV64I semantics (unprivileged spec ch. 2 and 4).
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

RV_EXEC(lui) { SET_RD(IMM); return NEXT; }
RV_EXEC(auipc) { SET_RD(static_cast<X>(pc) + IMM); return NEXT; }
RV_EXEC(jal) {
  SET_RD(static_cast<X>(pc + d.len));
  return static_cast<X>(static_cast<X>(pc) + IMM);
}
RV_EXEC(jalr) {
  const X target = (RS1 + IMM) & ~X{1};  // read rs1 before writing rd (rd may equal rs1)
  SET_RD(static_cast<X>(pc + d.len));
  return target;
}

/// Conditional branch: counts taken ones for the cycle model.
#define RV_BRANCH(name, cond)                     \
  RV_EXEC(name) {                                 \
    if (cond) {                                   \
      ++c.taken;                                  \
      return static_cast<X>(static_cast<X>(pc) + IMM); \
    }                                             \
    return NEXT;                                  \
  }
RV_BRANCH(beq, RS1 == RS2)
RV_BRANCH(bne, RS1 != RS2)
RV_BRANCH(blt, SGN(RS1) < SGN(RS2))
RV_BRANCH(bge, SGN(RS1) >= SGN(RS2))
RV_BRANCH(bltu, RS1 < RS2)
RV_BRANCH(bgeu, RS1 >= RS2)

/// Load of type T, sign- or zero-extended by T's signedness.
#define RV_LOAD(name, T)                                                       \
  RV_EXEC(name) {                                                              \
    const X addr = RS1 + IMM;                                                  \
    T v;                                                                       \
    if (!c.load(addr, v)) [[unlikely]] return c.load_fault(pc, d, addr, sizeof(T)); \
    SET_RD(static_cast<X>(v));                                                 \
    return NEXT;                                                               \
  }
RV_LOAD(lb, std::int8_t)
RV_LOAD(lh, std::int16_t)
RV_LOAD(lw, std::int32_t)
RV_LOAD(ld, std::uint64_t)
RV_LOAD(lbu, std::uint8_t)
RV_LOAD(lhu, std::uint16_t)
RV_LOAD(lwu, std::uint32_t)

#define RV_STORE(name, T)                                                           \
  RV_EXEC(name) {                                                                   \
    const X addr = RS1 + IMM;                                                       \
    if (!c.store(addr, static_cast<T>(RS2))) [[unlikely]] return c.store_fault(pc, d, addr, sizeof(T)); \
    return NEXT;                                                                    \
  }
RV_STORE(sb, std::uint8_t)
RV_STORE(sh, std::uint16_t)
RV_STORE(sw, std::uint32_t)
RV_STORE(sd, std::uint64_t)

RV_EXEC(addi) { SET_RD(RS1 + IMM); return NEXT; }
RV_EXEC(slti) { SET_RD(SGN(RS1) < SGN(IMM) ? 1 : 0); return NEXT; }
RV_EXEC(sltiu) { SET_RD(RS1 < IMM ? 1 : 0); return NEXT; }
RV_EXEC(xori) { SET_RD(RS1 ^ IMM); return NEXT; }
RV_EXEC(ori) { SET_RD(RS1 | IMM); return NEXT; }
RV_EXEC(andi) { SET_RD(RS1 & IMM); return NEXT; }
// Shift immediates: the decoder's masks admit only shamt < XLEN for each XLEN's form.
RV_EXEC(slli) { SET_RD(RS1 << (d.imm & (XLEN - 1))); return NEXT; }
RV_EXEC(srli) { SET_RD(RS1 >> (d.imm & (XLEN - 1))); return NEXT; }
RV_EXEC(srai) { SET_RD(SGN(RS1) >> (d.imm & (XLEN - 1))); return NEXT; }
RV_EXEC(slli64) { return exec_slli<X>(c, d, pc); }
RV_EXEC(srli64) { return exec_srli<X>(c, d, pc); }
RV_EXEC(srai64) { return exec_srai<X>(c, d, pc); }

RV_EXEC(add) { SET_RD(RS1 + RS2); return NEXT; }
RV_EXEC(sub) { SET_RD(RS1 - RS2); return NEXT; }
RV_EXEC(sll) { SET_RD(RS1 << (RS2 & (XLEN - 1))); return NEXT; }
RV_EXEC(slt) { SET_RD(SGN(RS1) < SGN(RS2) ? 1 : 0); return NEXT; }
RV_EXEC(sltu) { SET_RD(RS1 < RS2 ? 1 : 0); return NEXT; }
RV_EXEC(xor_) { SET_RD(RS1 ^ RS2); return NEXT; }
RV_EXEC(srl) { SET_RD(RS1 >> (RS2 & (XLEN - 1))); return NEXT; }
RV_EXEC(sra) { SET_RD(SGN(RS1) >> (RS2 & (XLEN - 1))); return NEXT; }
RV_EXEC(or_) { SET_RD(RS1 | RS2); return NEXT; }
RV_EXEC(and_) { SET_RD(RS1 & RS2); return NEXT; }

// RV64 *W forms: operate on the low 32 bits, sign-extend the 32-bit result.
RV_EXEC(addiw) { SET_RD(SEXT32(RS1 + IMM)); return NEXT; }
RV_EXEC(slliw) { SET_RD(SEXT32(static_cast<std::uint32_t>(RS1) << (d.imm & 31))); return NEXT; }
RV_EXEC(srliw) { SET_RD(SEXT32(static_cast<std::uint32_t>(RS1) >> (d.imm & 31))); return NEXT; }
RV_EXEC(sraiw) { SET_RD(SEXT32(static_cast<std::int32_t>(RS1) >> (d.imm & 31))); return NEXT; }
RV_EXEC(addw) { SET_RD(SEXT32(RS1 + RS2)); return NEXT; }
RV_EXEC(subw) { SET_RD(SEXT32(RS1 - RS2)); return NEXT; }
RV_EXEC(sllw) { SET_RD(SEXT32(static_cast<std::uint32_t>(RS1) << (RS2 & 31))); return NEXT; }
RV_EXEC(srlw) { SET_RD(SEXT32(static_cast<std::uint32_t>(RS1) >> (RS2 & 31))); return NEXT; }
RV_EXEC(sraw) { SET_RD(SEXT32(static_cast<std::int32_t>(RS1) >> (RS2 & 31))); return NEXT; }

// FENCE orders memory for other harts and devices: a no-op on this single in-order hart.
RV_EXEC(fence) { return NEXT; }
// Exceptions trap to mtvec when a program has set one (riscv-tests style); otherwise they stop the run with a message
// (Spike-platform kernels use HTIF, not ecall).
RV_EXEC(ecall) {
  return c.fault(pc, d, StopReason::ecall, "ecall (no trap vector: use HTIF for system calls)", kCauseEcallM, 0);
}
RV_EXEC(ebreak) { return c.fault(pc, d, StopReason::ebreak, "ebreak (no trap vector)", kCauseBreakpoint, pc); }
/// mret (M-mode only): back to mepc; MIE = MPIE, MPIE = 1, MPP stays M (the only mode).
RV_EXEC(mret) {
  constexpr std::uint64_t kMie = 1u << 3, kMpie = 1u << 7;
  c.mstatus = (c.mstatus & ~kMie) | ((c.mstatus & kMpie) ? kMie : 0) | kMpie;
  return static_cast<X>(c.mepc);
}
// No interrupts are modelled, so waiting for one returns at once (as Spike does without pending interrupts).
RV_EXEC(wfi) { return NEXT; }

RV_INSTANTIATE(lui) RV_INSTANTIATE(auipc) RV_INSTANTIATE(jal) RV_INSTANTIATE(jalr)
RV_INSTANTIATE(beq) RV_INSTANTIATE(bne) RV_INSTANTIATE(blt) RV_INSTANTIATE(bge) RV_INSTANTIATE(bltu) RV_INSTANTIATE(bgeu)
RV_INSTANTIATE(lb) RV_INSTANTIATE(lh) RV_INSTANTIATE(lw) RV_INSTANTIATE(ld) RV_INSTANTIATE(lbu) RV_INSTANTIATE(lhu)
RV_INSTANTIATE(lwu) RV_INSTANTIATE(sb) RV_INSTANTIATE(sh) RV_INSTANTIATE(sw) RV_INSTANTIATE(sd)
RV_INSTANTIATE(addi) RV_INSTANTIATE(slti) RV_INSTANTIATE(sltiu) RV_INSTANTIATE(xori) RV_INSTANTIATE(ori)
RV_INSTANTIATE(andi) RV_INSTANTIATE(slli) RV_INSTANTIATE(srli) RV_INSTANTIATE(srai) RV_INSTANTIATE(slli64)
RV_INSTANTIATE(srli64) RV_INSTANTIATE(srai64) RV_INSTANTIATE(add) RV_INSTANTIATE(sub) RV_INSTANTIATE(sll)
RV_INSTANTIATE(slt) RV_INSTANTIATE(sltu) RV_INSTANTIATE(xor_) RV_INSTANTIATE(srl) RV_INSTANTIATE(sra)
RV_INSTANTIATE(or_) RV_INSTANTIATE(and_) RV_INSTANTIATE(addiw) RV_INSTANTIATE(slliw) RV_INSTANTIATE(srliw)
RV_INSTANTIATE(sraiw) RV_INSTANTIATE(addw) RV_INSTANTIATE(subw) RV_INSTANTIATE(sllw) RV_INSTANTIATE(srlw)
RV_INSTANTIATE(sraw) RV_INSTANTIATE(fence) RV_INSTANTIATE(ecall) RV_INSTANTIATE(ebreak) RV_INSTANTIATE(mret)
RV_INSTANTIATE(wfi)

}  // namespace cryptaccel::rv
