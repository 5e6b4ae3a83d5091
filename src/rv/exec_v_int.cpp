// RVV 1.0 integer instructions as crypto kernels use them (spec §11-§15): add/sub/reverse-sub, min/max, logic,
// shifts, multiplies (vmul, vmulhu), zero/sign extension, integer compares into masks, vmerge and vmv.v.*, mask
// logic (vm*.mm), vid, viota, vcpop.m, vfirst.m. Masked-off and tail elements are undisturbed (vector.hpp).
// Fixed-point, widening/narrowing arithmetic (other than vzext/vsext), reductions, division and vadc/vmadc are
// not implemented (they do not decode).
#include "rv/exec_v_int.hpp"

namespace cryptaccel::rv {

namespace vec {
std::uint64_t scalar_operand(const Core& c, const Insn& d, Operand s, unsigned xlen) {
  switch (s) {
    case Operand::vx: return static_cast<std::uint64_t>(sext(c.x[(d.raw >> 15) & 31], xlen));
    case Operand::vi: return static_cast<std::uint64_t>(simm5(d));
    case Operand::vi_u: return uimm5(d);
    default: return 0;
  }
}
}  // namespace vec

namespace {
using vec::Operand;
using vec::sext;
using vec::trunc;

// Element functions: a = vs2[i], b = vs1[i] / x[rs1] / imm, both zero-extended SEW-bit values.
struct Add { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a + b; } };
struct Sub { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a - b; } };
struct Rsub { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return b - a; } };
struct Minu { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a < b ? a : b; } };
struct Maxu { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a > b ? a : b; } };
struct Min { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return sext(a, s) < sext(b, s) ? a : b; } };
struct Max { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return sext(a, s) > sext(b, s) ? a : b; } };
struct And { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a & b; } };
struct Or { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a | b; } };
struct Xor { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a ^ b; } };
struct Sll { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return a << (b & (s - 1)); } };
struct Srl { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return a >> (b & (s - 1)); } };
struct Sra {
  std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const {
    return static_cast<std::uint64_t>(sext(a, s) >> (b & (s - 1)));
  }
};
struct Mul { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a * b; } };
struct Mulhu {
  std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned s) const {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> s);
  }
};
// Compares.
struct Eq { bool operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a == b; } };
struct Ne { bool operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a != b; } };
struct Ltu { bool operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a < b; } };
struct Lt { bool operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return sext(a, s) < sext(b, s); } };
struct Leu { bool operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a <= b; } };
struct Le { bool operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return sext(a, s) <= sext(b, s); } };
struct Gtu { bool operator()(std::uint64_t a, std::uint64_t b, unsigned) const { return a > b; } };
struct Gt { bool operator()(std::uint64_t a, std::uint64_t b, unsigned s) const { return sext(a, s) > sext(b, s); } };

/// vd[i] = f(vs2[i], vs1[i] | x[rs1] | imm) into mask register vd.
template <class X, class F>
std::uint64_t compare(Core& c, const Insn& d, std::uint64_t pc, Operand src, F f) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  V_REQUIRE(vec::aligned(vs2, v.group) && (src != Operand::vv || vec::aligned(vs1, v.group)),
            "source register group not aligned to LMUL");
  const std::uint64_t scalar = trunc(vec::scalar_operand(c, d, src, sizeof(X) * 8), v.sew);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    if (!vec::active(c, d, i)) continue;
    const std::uint64_t b = src == Operand::vv ? vec::get(c, vs1, i, v.sewb) : scalar;
    vec::set_mask_bit(c, vd, i, f(vec::get(c, vs2, i, v.sewb), b, v.sew));
  }
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, v.group) | (src == Operand::vv ? vec::regs(vs1, v.group) : 0) | (vec::unmasked(d) ? 0 : 1u),
           vec::regs(vd, 1));
  vec::finish(c);
  return NEXT;
}

/// vmerge (vm = 0: v0.mask[i] ? b : vs2[i]) and vmv.v.* (vm = 1: b) over all body elements.
template <class X>
std::uint64_t merge(Core& c, const Insn& d, std::uint64_t pc, Operand src) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  const bool is_merge = !vec::unmasked(d);
  V_REQUIRE(vec::aligned(vd, v.group) && (!is_merge || vec::aligned(vs2, v.group)) &&
                (src != Operand::vv || vec::aligned(vs1, v.group)),
            "register group not aligned to LMUL");
  V_REQUIRE(!is_merge || vd != 0, "vmerge into v0 (the mask register)");
  const std::uint64_t scalar = trunc(vec::scalar_operand(c, d, src, sizeof(X) * 8), v.sew);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    const std::uint64_t b = src == Operand::vv ? vec::get(c, vs1, i, v.sewb) : scalar;
    vec::put(c, vd, i, v.sewb, is_merge && !vec::mask_bit(c, 0, i) ? vec::get(c, vs2, i, v.sewb) : b);
  }
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           (is_merge ? vec::regs(vs2, v.group) | 1u : 0) | (src == Operand::vv ? vec::regs(vs1, v.group) : 0),
           vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

/// vzext/vsext.vf<N>: vd[i] = extend(vs2[i]) from SEW/N bits.
template <class X, bool Signed>
std::uint64_t extend(Core& c, const Insn& d, std::uint64_t pc, unsigned n) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  const unsigned src_bits = v.sew / n;
  V_REQUIRE(src_bits >= 8, "vext.vf" + std::to_string(n) + " needs SEW >= " + std::to_string(8 * n));
  const int emul_log2 = v.lmul_log2 - std::countr_zero(n);
  V_REQUIRE(emul_log2 >= -3, "source EMUL below 1/8");
  const unsigned src_group = emul_log2 > 0 ? 1u << emul_log2 : 1u;
  V_REQUIRE(vec::aligned(vd, v.group) && vec::aligned(vs2, src_group), "register group not aligned");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0");
  // The source must not overlap the destination except in its highest-numbered part (spec §5.2): copy it first.
  std::vector<std::uint64_t> in(v.vl);
  for (std::uint64_t i = 0; i < v.vl; ++i) in[i] = vec::get(c, vs2, i, src_bits / 8);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i)
    if (vec::active(c, d, i))
      vec::put(c, vd, i, v.sewb, Signed ? static_cast<std::uint64_t>(sext(in[i], src_bits)) : in[i]);
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, src_group) | (vec::unmasked(d) ? 0 : 1u), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

/// Mask-register logic: vd.mask[i] = f(vs2.mask[i], vs1.mask[i]) for i < vl.
template <class X, class F>
std::uint64_t mask_logic(Core& c, const Insn& d, std::uint64_t pc, F f) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i)
    vec::set_mask_bit(c, vd, i, f(vec::mask_bit(c, vs2, i), vec::mask_bit(c, vs1, i)));
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, (v.vl + 7) / 8), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, 1) | vec::regs(vs1, 1), vec::regs(vd, 1));
  vec::finish(c);
  return NEXT;
}
}  // namespace

#define V_ARITH(name, F, ...)                                                                   \
  RV_EXEC(name) { return vec::binop<X>(c, d, pc, __VA_ARGS__, F{}, Core::VUnit::alu); }         \
  RV_INSTANTIATE(name)
#define V_CMP(name, F, src)                                                    \
  RV_EXEC(name) { return compare<X>(c, d, pc, src, F{}); }                      \
  RV_INSTANTIATE(name)

V_ARITH(vadd_vv, Add, Operand::vv) V_ARITH(vadd_vx, Add, Operand::vx) V_ARITH(vadd_vi, Add, Operand::vi)
V_ARITH(vsub_vv, Sub, Operand::vv) V_ARITH(vsub_vx, Sub, Operand::vx)
V_ARITH(vrsub_vx, Rsub, Operand::vx) V_ARITH(vrsub_vi, Rsub, Operand::vi)
V_ARITH(vminu_vv, Minu, Operand::vv) V_ARITH(vminu_vx, Minu, Operand::vx)
V_ARITH(vmin_vv, Min, Operand::vv) V_ARITH(vmin_vx, Min, Operand::vx)
V_ARITH(vmaxu_vv, Maxu, Operand::vv) V_ARITH(vmaxu_vx, Maxu, Operand::vx)
V_ARITH(vmax_vv, Max, Operand::vv) V_ARITH(vmax_vx, Max, Operand::vx)
V_ARITH(vand_vv, And, Operand::vv) V_ARITH(vand_vx, And, Operand::vx) V_ARITH(vand_vi, And, Operand::vi)
V_ARITH(vor_vv, Or, Operand::vv) V_ARITH(vor_vx, Or, Operand::vx) V_ARITH(vor_vi, Or, Operand::vi)
V_ARITH(vxor_vv, Xor, Operand::vv) V_ARITH(vxor_vx, Xor, Operand::vx) V_ARITH(vxor_vi, Xor, Operand::vi)
V_ARITH(vsll_vv, Sll, Operand::vv) V_ARITH(vsll_vx, Sll, Operand::vx) V_ARITH(vsll_vi, Sll, Operand::vi_u)
V_ARITH(vsrl_vv, Srl, Operand::vv) V_ARITH(vsrl_vx, Srl, Operand::vx) V_ARITH(vsrl_vi, Srl, Operand::vi_u)
V_ARITH(vsra_vv, Sra, Operand::vv) V_ARITH(vsra_vx, Sra, Operand::vx) V_ARITH(vsra_vi, Sra, Operand::vi_u)
V_ARITH(vmul_vv, Mul, Operand::vv) V_ARITH(vmul_vx, Mul, Operand::vx)
V_ARITH(vmulhu_vv, Mulhu, Operand::vv) V_ARITH(vmulhu_vx, Mulhu, Operand::vx)

V_CMP(vmseq_vv, Eq, Operand::vv) V_CMP(vmseq_vx, Eq, Operand::vx) V_CMP(vmseq_vi, Eq, Operand::vi)
V_CMP(vmsne_vv, Ne, Operand::vv) V_CMP(vmsne_vx, Ne, Operand::vx) V_CMP(vmsne_vi, Ne, Operand::vi)
V_CMP(vmsltu_vv, Ltu, Operand::vv) V_CMP(vmsltu_vx, Ltu, Operand::vx)
V_CMP(vmslt_vv, Lt, Operand::vv) V_CMP(vmslt_vx, Lt, Operand::vx)
V_CMP(vmsleu_vv, Leu, Operand::vv) V_CMP(vmsleu_vx, Leu, Operand::vx) V_CMP(vmsleu_vi, Leu, Operand::vi)
V_CMP(vmsle_vv, Le, Operand::vv) V_CMP(vmsle_vx, Le, Operand::vx) V_CMP(vmsle_vi, Le, Operand::vi)
V_CMP(vmsgtu_vx, Gtu, Operand::vx) V_CMP(vmsgtu_vi, Gtu, Operand::vi)
V_CMP(vmsgt_vx, Gt, Operand::vx) V_CMP(vmsgt_vi, Gt, Operand::vi)

RV_EXEC(vmerge_vvm) { return merge<X>(c, d, pc, Operand::vv); }
RV_EXEC(vmerge_vxm) { return merge<X>(c, d, pc, Operand::vx); }
RV_EXEC(vmerge_vim) { return merge<X>(c, d, pc, Operand::vi); }
RV_EXEC(vmv_v_v) { return merge<X>(c, d, pc, Operand::vv); }
RV_EXEC(vmv_v_x) { return merge<X>(c, d, pc, Operand::vx); }
RV_EXEC(vmv_v_i) { return merge<X>(c, d, pc, Operand::vi); }
RV_INSTANTIATE(vmerge_vvm) RV_INSTANTIATE(vmerge_vxm) RV_INSTANTIATE(vmerge_vim)
RV_INSTANTIATE(vmv_v_v) RV_INSTANTIATE(vmv_v_x) RV_INSTANTIATE(vmv_v_i)

RV_EXEC(vzext_vf2) { return extend<X, false>(c, d, pc, 2); }
RV_EXEC(vzext_vf4) { return extend<X, false>(c, d, pc, 4); }
RV_EXEC(vzext_vf8) { return extend<X, false>(c, d, pc, 8); }
RV_EXEC(vsext_vf2) { return extend<X, true>(c, d, pc, 2); }
RV_EXEC(vsext_vf4) { return extend<X, true>(c, d, pc, 4); }
RV_EXEC(vsext_vf8) { return extend<X, true>(c, d, pc, 8); }
RV_INSTANTIATE(vzext_vf2) RV_INSTANTIATE(vzext_vf4) RV_INSTANTIATE(vzext_vf8)
RV_INSTANTIATE(vsext_vf2) RV_INSTANTIATE(vsext_vf4) RV_INSTANTIATE(vsext_vf8)

RV_EXEC(vmandn_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a && !b; }); }
RV_EXEC(vmand_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a && b; }); }
RV_EXEC(vmor_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a || b; }); }
RV_EXEC(vmxor_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a != b; }); }
RV_EXEC(vmorn_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a || !b; }); }
RV_EXEC(vmnand_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return !(a && b); }); }
RV_EXEC(vmnor_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return !(a || b); }); }
RV_EXEC(vmxnor_mm) { return mask_logic<X>(c, d, pc, [](bool a, bool b) { return a == b; }); }
RV_INSTANTIATE(vmandn_mm) RV_INSTANTIATE(vmand_mm) RV_INSTANTIATE(vmor_mm) RV_INSTANTIATE(vmxor_mm)
RV_INSTANTIATE(vmorn_mm) RV_INSTANTIATE(vmnand_mm) RV_INSTANTIATE(vmnor_mm) RV_INSTANTIATE(vmxnor_mm)

/// vid.v: vd[i] = i.
RV_EXEC(vid_v) {
  V_BEGIN
  const unsigned vd = vec::vd(d);
  V_REQUIRE(vec::aligned(vd, v.group), "register group not aligned to LMUL");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0");
  for (std::uint64_t i = v.vstart; i < v.vl; ++i)
    if (vec::active(c, d, i)) vec::put(c, vd, i, v.sewb, i);
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           vec::unmasked(d) ? 0 : 1u, vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
/// viota.m: vd[i] = number of set vs2.mask bits of active elements below i.
RV_EXEC(viota_m) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  V_REQUIRE(v.vstart == 0, "viota.m with vstart != 0");
  V_REQUIRE(vec::aligned(vd, v.group) && !vec::overlap(vd, v.group, vs2, 1), "viota.m register constraints");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0");
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < v.vl; ++i) {
    if (!vec::active(c, d, i)) continue;
    vec::put(c, vd, i, v.sewb, sum);
    sum += vec::mask_bit(c, vs2, i);
  }
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, 1) | (vec::unmasked(d) ? 0 : 1u), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
/// vcpop.m rd, vs2: set bits among the active elements below vl.
RV_EXEC(vcpop_m) {
  V_BEGIN
  V_REQUIRE(v.vstart == 0, "vcpop.m with vstart != 0");
  const unsigned vs2 = vec::vs2(d);
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < v.vl; ++i) n += vec::active(c, d, i) && vec::mask_bit(c, vs2, i);
  SET_RD(n);
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, (v.vl + 7) / 8), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, 1) | (vec::unmasked(d) ? 0 : 1u), 0, /*scalar_result=*/true);
  vec::finish(c);
  return NEXT;
}
/// vfirst.m rd, vs2: index of the first set active bit, or -1.
RV_EXEC(vfirst_m) {
  V_BEGIN
  V_REQUIRE(v.vstart == 0, "vfirst.m with vstart != 0");
  const unsigned vs2 = vec::vs2(d);
  std::int64_t first = -1;
  for (std::uint64_t i = 0; i < v.vl && first < 0; ++i)
    if (vec::active(c, d, i) && vec::mask_bit(c, vs2, i)) first = static_cast<std::int64_t>(i);
  SET_RD(first);
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, (v.vl + 7) / 8), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, 1) | (vec::unmasked(d) ? 0 : 1u), 0, /*scalar_result=*/true);
  vec::finish(c);
  return NEXT;
}
RV_INSTANTIATE(vid_v) RV_INSTANTIATE(viota_m) RV_INSTANTIATE(vcpop_m) RV_INSTANTIATE(vfirst_m)

}  // namespace cryptaccel::rv
