// Zicsr semantics (unprivileged spec ch. 7) and Zifencei's fence.i. CSR contents live in csr.cpp.
// `csrrs zero, minstret, zero` also marks the measured region (docs/isa-lab.md).
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
enum class CsrOp { write, set, clear };

/// The common body: read (always: reading has no side effects here), then write unless the spec says not to
/// (csrrs/csrrc with rs1 = x0 or uimm = 0 do not write, so they may target read-only CSRs).
template <class X>
std::uint64_t csr_access(Core& c, const Insn& d, std::uint64_t pc, CsrOp op, X operand, bool writes) {
  const unsigned num = static_cast<unsigned>(d.imm);
  if (d.raw == kRegionMarker) c.region_marker();
  std::uint64_t old = 0;
  if (!c.csr_read(num, old))
    return c.fault(pc, d, StopReason::unsupported, "unsupported CSR " + hex(num), kCauseIllegal, d.raw);
  if (writes) {
    X v = static_cast<X>(old);
    switch (op) {
      case CsrOp::write: v = operand; break;
      case CsrOp::set: v |= operand; break;
      case CsrOp::clear: v &= static_cast<X>(~operand); break;
    }
    if (!c.csr_write(num, v))
      return c.fault(pc, d, StopReason::unsupported, "write to read-only or unsupported CSR " + hex(num),
                     kCauseIllegal, d.raw);
  }
  SET_RD(old);
  return NEXT;
}
}  // namespace

RV_EXEC(csrrw) { return csr_access<X>(c, d, pc, CsrOp::write, RS1, true); }
RV_EXEC(csrrs) { return csr_access<X>(c, d, pc, CsrOp::set, RS1, d.rs1 != 0); }
RV_EXEC(csrrc) { return csr_access<X>(c, d, pc, CsrOp::clear, RS1, d.rs1 != 0); }
// Immediate forms: the 5-bit zero-extended uimm sits in the rs1 field.
RV_EXEC(csrrwi) { return csr_access<X>(c, d, pc, CsrOp::write, static_cast<X>(d.rs1), true); }
RV_EXEC(csrrsi) { return csr_access<X>(c, d, pc, CsrOp::set, static_cast<X>(d.rs1), d.rs1 != 0); }
RV_EXEC(csrrci) { return csr_access<X>(c, d, pc, CsrOp::clear, static_cast<X>(d.rs1), d.rs1 != 0); }

// Stores into decoded code already drop the stale decodes (Core::store_hook), so fence.i has nothing left to do.
RV_EXEC(fence_i) { return NEXT; }

RV_INSTANTIATE(csrrw) RV_INSTANTIATE(csrrs) RV_INSTANTIATE(csrrc) RV_INSTANTIATE(csrrwi) RV_INSTANTIATE(csrrsi)
RV_INSTANTIATE(csrrci) RV_INSTANTIATE(fence_i)

}  // namespace cryptaccel::rv
