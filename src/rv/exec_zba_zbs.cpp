// Zba (address generation) and Zbs (single-bit) semantics (bitmanip spec v1.0.0).
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

RV_EXEC(sh1add) { SET_RD((RS1 << 1) + RS2); return NEXT; }
RV_EXEC(sh2add) { SET_RD((RS1 << 2) + RS2); return NEXT; }
RV_EXEC(sh3add) { SET_RD((RS1 << 3) + RS2); return NEXT; }
// *.uw: rs1's low 32 bits, zero-extended (RV64 only).
#define UW static_cast<X>(static_cast<std::uint32_t>(RS1))
RV_EXEC(add_uw) { SET_RD(UW + RS2); return NEXT; }
RV_EXEC(sh1add_uw) { SET_RD((UW << 1) + RS2); return NEXT; }
RV_EXEC(sh2add_uw) { SET_RD((UW << 2) + RS2); return NEXT; }
RV_EXEC(sh3add_uw) { SET_RD((UW << 3) + RS2); return NEXT; }
RV_EXEC(slli_uw) { SET_RD(UW << (d.imm & (XLEN - 1))); return NEXT; }

#define BIT(v) (X{1} << ((v) & (XLEN - 1)))
RV_EXEC(bclr) { SET_RD(RS1 & ~BIT(RS2)); return NEXT; }
RV_EXEC(bext) { SET_RD((RS1 >> (RS2 & (XLEN - 1))) & 1); return NEXT; }
RV_EXEC(binv) { SET_RD(RS1 ^ BIT(RS2)); return NEXT; }
RV_EXEC(bset) { SET_RD(RS1 | BIT(RS2)); return NEXT; }
RV_EXEC(bclri) { SET_RD(RS1 & ~BIT(d.imm)); return NEXT; }
RV_EXEC(bexti) { SET_RD((RS1 >> (d.imm & (XLEN - 1))) & 1); return NEXT; }
RV_EXEC(binvi) { SET_RD(RS1 ^ BIT(d.imm)); return NEXT; }
RV_EXEC(bseti) { SET_RD(RS1 | BIT(d.imm)); return NEXT; }
RV_EXEC(bclri64) { return exec_bclri<X>(c, d, pc); }
RV_EXEC(bexti64) { return exec_bexti<X>(c, d, pc); }
RV_EXEC(binvi64) { return exec_binvi<X>(c, d, pc); }
RV_EXEC(bseti64) { return exec_bseti<X>(c, d, pc); }

RV_INSTANTIATE(sh1add) RV_INSTANTIATE(sh2add) RV_INSTANTIATE(sh3add) RV_INSTANTIATE(add_uw) RV_INSTANTIATE(sh1add_uw)
RV_INSTANTIATE(sh2add_uw) RV_INSTANTIATE(sh3add_uw) RV_INSTANTIATE(slli_uw) RV_INSTANTIATE(bclr) RV_INSTANTIATE(bext)
RV_INSTANTIATE(binv) RV_INSTANTIATE(bset) RV_INSTANTIATE(bclri) RV_INSTANTIATE(bexti) RV_INSTANTIATE(binvi)
RV_INSTANTIATE(bseti) RV_INSTANTIATE(bclri64) RV_INSTANTIATE(bexti64) RV_INSTANTIATE(binvi64) RV_INSTANTIATE(bseti64)

}  // namespace cryptaccel::rv
