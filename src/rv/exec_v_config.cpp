// RVV 1.0 configuration-setting instructions (spec §6): vsetvli, vsetivli, vsetvl. vtype is illegal (vill set,
// vl = 0) for reserved bits, a reserved LMUL, SEW > ELEN or SEW > LMUL * ELEN; vl follows the spec's AVL rules
// exactly as Spike implements them: rs1 != x0 → vl = min(AVL, VLMAX); rs1 = x0, rd != x0 → VLMAX; both x0 → the
// current vl (capped at the new VLMAX).
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
/// Sets vtype and vl; returns the new vl. `avl_kind`: 0 AVL from a register or immediate, 1 VLMAX, 2 keep vl.
std::uint64_t set_vl(Core& c, std::uint64_t new_vtype, std::uint64_t avl, int avl_kind) {
  const unsigned xlen = c.isa.xlen;
  const unsigned vsew = static_cast<unsigned>((new_vtype >> 3) & 7);
  const int lmul_log2 = static_cast<int>(static_cast<std::int8_t>((new_vtype & 7) << 5) >> 5);
  const bool reserved_bits = (new_vtype >> 8) != 0;
  const unsigned sew = 8u << vsew;
  // SEW <= min(LMUL, 1) * ELEN (fractional LMUL must leave room for at least one SEW element of ELEN).
  const bool bad = reserved_bits || lmul_log2 == -4 || vsew > 3 || sew > c.elen ||
                   (lmul_log2 < 0 && sew > (c.elen >> -lmul_log2));
  std::uint64_t vlmax = 0;
  if (bad) {
    c.vtype = std::uint64_t{1} << (xlen - 1);
  } else {
    c.vtype = new_vtype;
    vlmax = lmul_log2 >= 0 ? (std::uint64_t{c.vlen} << lmul_log2) / sew : (c.vlen >> -lmul_log2) / sew;
  }
  if (vlmax == 0) c.vl = 0;
  else if (avl_kind == 2) c.vl = std::min(c.vl, vlmax);
  else if (avl_kind == 1) c.vl = vlmax;
  else c.vl = std::min(avl, vlmax);
  vec::finish(c);
  return c.vl;
}

template <class X>
std::uint64_t vset(Core& c, const Insn& d, std::uint64_t pc, std::uint64_t new_vtype, std::uint64_t avl, bool imm_avl) {
  if ((c.mstatus & kMstatusVs) == 0)
    return vec::illegal(c, d, pc, "vector instruction with mstatus.VS off (set mstatus.VS first, as on Spike)");
  const unsigned rd = vec::vd(d), rs1 = vec::vs1(d);
  const int kind = imm_avl || rs1 != 0 ? 0 : (rd != 0 ? 1 : 2);
  SET_RD(set_vl(c, new_vtype, avl, kind));
  return NEXT;
}
}  // namespace

RV_EXEC(vsetvli) { return vset<X>(c, d, pc, (d.raw >> 20) & 0x7FF, RS1, false); }
RV_EXEC(vsetivli) { return vset<X>(c, d, pc, (d.raw >> 20) & 0x3FF, vec::uimm5(d), true); }
RV_EXEC(vsetvl) { return vset<X>(c, d, pc, RS2, RS1, false); }

RV_INSTANTIATE(vsetvli) RV_INSTANTIATE(vsetivli) RV_INSTANTIATE(vsetvl)

}  // namespace cryptaccel::rv
