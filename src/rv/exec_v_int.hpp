// The element-wise loop of single-width vector instructions (.vv/.vx/.vi), shared by exec_v_int.cpp and the
// Zvbb/Zvkb/Zvbc files: vd[i] = f(vs2[i], operand) for active body elements.
#pragma once
#include "rv/vector.hpp"

namespace cryptaccel::rv::vec {

/// The second operand: vs1[i], x[rs1] (sign-extended from XLEN), simm5, uimm5, or none (unary: 0).
enum class Operand { vv, vx, vi, vi_u, none };
/// The scalar operand of a .vx/.vi form as a 64-bit value (callers truncate it to SEW).
std::uint64_t scalar_operand(const Core& c, const Insn& d, Operand s, unsigned xlen);

/// vd[i] = f(vs2[i], b[i], SEW) truncated to SEW, for active elements vstart <= i < vl. `f` gets zero-extended
/// SEW-bit values. `min_sew`/`max_sew` bound the legal SEW (reserved otherwise, e.g. vclmul needs 64).
template <class X, class F>
std::uint64_t binop(Core& c, const Insn& d, std::uint64_t pc, Operand src, F f, Core::VUnit unit,
                    unsigned min_sew = 8, unsigned max_sew = 64) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  V_REQUIRE(v.sew >= min_sew && v.sew <= max_sew, "SEW " + std::to_string(v.sew) + " is reserved for this instruction");
  V_REQUIRE(aligned(vd, v.group) && aligned(vs2, v.group) && (src != Operand::vv || aligned(vs1, v.group)),
            "register group not aligned to LMUL " + std::to_string(v.group));
  V_REQUIRE(unmasked(d) || vd != 0, "masked instruction writing v0 (the mask register)");
  const std::uint64_t scalar = trunc(scalar_operand(c, d, src, sizeof(X) * 8), v.sew);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    if (!active(c, d, i)) continue;
    const std::uint64_t b = src == Operand::vv ? get(c, vs1, i, v.sewb) : scalar;
    put(c, vd, i, v.sewb, f(get(c, vs2, i, v.sewb), b, v.sew));
  }
  const auto& t = c.cfg.cycle_model.vector;
  c.vissue(unit, beats_for_bytes(c, v.vl * v.sewb), t.alu_latency,
           regs(vs2, v.group) | (src == Operand::vv ? regs(vs1, v.group) : 0) | (unmasked(d) ? 0 : 1u),
           regs(vd, v.group));
  finish(c);
  return pc + d.len;
}

}  // namespace cryptaccel::rv::vec
