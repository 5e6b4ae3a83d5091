// Zvbb / Zvkb semantics (vector crypto spec v1.0, "Zvbb"): vandn, vbrev8, vrev8, vrol, vror (Zvkb) and vbrev,
// vclz, vctz, vcpop.v, vwsll (Zvbb only). All maskable, any SEW; vwsll widens to 2*SEW.
#include "rv/exec_v_int.hpp"

namespace cryptaccel::rv {

namespace {
using vec::Operand;

std::uint64_t rotl(std::uint64_t a, unsigned n, unsigned sew) {
  n &= sew - 1;
  return n == 0 ? a : vec::trunc((a << n) | (a >> (sew - n)), sew);
}
std::uint64_t brev8(std::uint64_t a) {  // bit order reversed within each byte
  std::uint64_t r = 0;
  for (unsigned b = 0; b < 64; ++b) r |= ((a >> b) & 1) << ((b & ~7u) | (7 - (b & 7)));
  return r;
}
std::uint64_t rev8(std::uint64_t a, unsigned sew) { return __builtin_bswap64(a) >> (64 - sew); }
std::uint64_t brev(std::uint64_t a, unsigned sew) { return rev8(brev8(a), sew); }

struct Andn { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a & ~b; } };
struct Rol { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return rotl(a, static_cast<unsigned>(b), s); } };
struct Ror { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return rotl(a, s - (b & (s - 1)), s); } };
struct Brev8 { std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned) const { return brev8(a); } };
struct Rev8 { std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned s) const { return rev8(a, s); } };
struct Brev { std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned s) const { return brev(a, s); } };
struct Clz {
  std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned s) const {
    return static_cast<std::uint64_t>(std::countl_zero(a)) - (64 - s);
  }
};
struct Ctz {
  std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned s) const {
    return a == 0 ? s : static_cast<std::uint64_t>(std::countr_zero(a));
  }
};
struct Cpop { std::uint64_t operator()(std::uint64_t a, std::uint64_t, unsigned) const { return std::popcount(a); } };

/// vwsll: vd[i] (2*SEW) = zext(vs2[i]) << (b & (2*SEW - 1)).
template <class X>
std::uint64_t wsll(Core& c, const Insn& d, std::uint64_t pc, Operand src) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  V_REQUIRE(v.sew * 2 <= c.elen && v.lmul_log2 < 3, "vwsll: 2*SEW exceeds ELEN or 2*LMUL exceeds 8");
  const unsigned wgroup = v.lmul_log2 >= 0 ? 2u << v.lmul_log2 : 1u;
  V_REQUIRE(vec::aligned(vd, wgroup) && vec::aligned(vs2, v.group) && (src != Operand::vv || vec::aligned(vs1, v.group)),
            "register group not aligned");
  V_REQUIRE(!vec::overlap(vd, wgroup, vs2, v.group) && (src != Operand::vv || !vec::overlap(vd, wgroup, vs1, v.group)),
            "vwsll destination overlaps a source");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0 (the mask register)");
  const unsigned wsew = 2 * v.sew;
  const std::uint64_t scalar = vec::scalar_operand(c, d, src, sizeof(X) * 8);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    if (!vec::active(c, d, i)) continue;
    const std::uint64_t b = src == Operand::vv ? vec::get(c, vs1, i, v.sewb) : scalar;
    vec::put(c, vd, i, 2 * v.sewb, vec::trunc(vec::get(c, vs2, i, v.sewb) << (b & (wsew - 1)), wsew));
  }
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * 2 * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, v.group) | (src == Operand::vv ? vec::regs(vs1, v.group) : 0) | (vec::unmasked(d) ? 0 : 1u),
           vec::regs(vd, wgroup));
  vec::finish(c);
  return NEXT;
}
}  // namespace

constexpr auto kAlu = Core::VUnit::alu;
RV_EXEC(vandn_vv) { return vec::binop<X>(c, d, pc, Operand::vv, Andn{}, kAlu); }
RV_EXEC(vandn_vx) { return vec::binop<X>(c, d, pc, Operand::vx, Andn{}, kAlu); }
RV_EXEC(vbrev8_v) { return vec::binop<X>(c, d, pc, Operand::none, Brev8{}, kAlu); }
RV_EXEC(vrev8_v) { return vec::binop<X>(c, d, pc, Operand::none, Rev8{}, kAlu); }
RV_EXEC(vbrev_v) { return vec::binop<X>(c, d, pc, Operand::none, Brev{}, kAlu); }
RV_EXEC(vclz_v) { return vec::binop<X>(c, d, pc, Operand::none, Clz{}, kAlu); }
RV_EXEC(vctz_v) { return vec::binop<X>(c, d, pc, Operand::none, Ctz{}, kAlu); }
RV_EXEC(vcpop_v) { return vec::binop<X>(c, d, pc, Operand::none, Cpop{}, kAlu); }
RV_EXEC(vrol_vv) { return vec::binop<X>(c, d, pc, Operand::vv, Rol{}, kAlu); }
RV_EXEC(vrol_vx) { return vec::binop<X>(c, d, pc, Operand::vx, Rol{}, kAlu); }
RV_EXEC(vror_vv) { return vec::binop<X>(c, d, pc, Operand::vv, Ror{}, kAlu); }
RV_EXEC(vror_vx) { return vec::binop<X>(c, d, pc, Operand::vx, Ror{}, kAlu); }
/// vror.vi: 6-bit rotate amount {bit 26, bits 19..15}.
RV_EXEC(vror_vi) {
  const std::uint64_t amount = ((d.raw >> 26) & 1) << 5 | vec::uimm5(d);
  return vec::binop<X>(c, d, pc, Operand::none,
                       [amount](std::uint64_t a, std::uint64_t, unsigned s) { return Ror{}(a, amount, s); }, kAlu);
}
RV_EXEC(vwsll_vv) { return wsll<X>(c, d, pc, Operand::vv); }
RV_EXEC(vwsll_vx) { return wsll<X>(c, d, pc, Operand::vx); }
RV_EXEC(vwsll_vi) { return wsll<X>(c, d, pc, Operand::vi_u); }

RV_INSTANTIATE(vandn_vv) RV_INSTANTIATE(vandn_vx) RV_INSTANTIATE(vbrev8_v) RV_INSTANTIATE(vrev8_v)
RV_INSTANTIATE(vbrev_v) RV_INSTANTIATE(vclz_v) RV_INSTANTIATE(vctz_v) RV_INSTANTIATE(vcpop_v)
RV_INSTANTIATE(vrol_vv) RV_INSTANTIATE(vrol_vx) RV_INSTANTIATE(vror_vv) RV_INSTANTIATE(vror_vx) RV_INSTANTIATE(vror_vi)
RV_INSTANTIATE(vwsll_vv) RV_INSTANTIATE(vwsll_vx) RV_INSTANTIATE(vwsll_vi)

}  // namespace cryptaccel::rv
