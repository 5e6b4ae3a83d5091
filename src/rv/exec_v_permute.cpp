// RVV 1.0 permutations (spec §16): scalar moves vmv.x.s / vmv.s.x, whole-register moves vmv<NR>r.v, slides
// (vslideup/vslidedown .vx/.vi, vslide1up/vslide1down .vx) and gathers (vrgather .vv/.vx/.vi, vrgatherei16.vv).
// The destination may not overlap the sources of slides up and gathers (reserved: an illegal instruction here).
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
using vec::sext;
using vec::trunc;

void permute_timing(Core& c, const vec::Cfg& v, std::uint32_t reads, std::uint32_t writes) {
  c.vissue(Core::VUnit::permute, vec::beats_for_bytes(c, v.vl * v.sewb), c.cfg.cycle_model.vector.permute_latency,
           reads, writes);
}

enum class Slide { up, down, up1, down1 };

template <class X>
std::uint64_t slide(Core& c, const Insn& d, std::uint64_t pc, Slide kind, bool imm) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  V_REQUIRE(vec::aligned(vd, v.group) && vec::aligned(vs2, v.group), "register group not aligned to LMUL");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0 (the mask register)");
  V_REQUIRE((kind != Slide::up && kind != Slide::up1) || !vec::overlap(vd, v.group, vs2, v.group),
            "vslideup/vslide1up destination overlaps the source");
  const std::uint64_t xval = static_cast<std::uint64_t>(sext(c.x[d.rs1], sizeof(X) * 8));
  const std::uint64_t offset = kind == Slide::up1 || kind == Slide::down1 ? 1 : imm ? vec::uimm5(d) : static_cast<X>(xval);
  if (kind == Slide::up || kind == Slide::up1) {
    for (std::uint64_t i = std::max(v.vstart, offset); i < v.vl; ++i)
      if (vec::active(c, d, i)) vec::put(c, vd, i, v.sewb, vec::get(c, vs2, i - offset, v.sewb));
    if (kind == Slide::up1 && v.vstart == 0 && v.vl > 0 && vec::active(c, d, 0)) vec::put(c, vd, 0, v.sewb, trunc(xval, v.sew));
  } else {
    // Read the source first: vd may equal vs2 for slides down.
    std::vector<std::uint64_t> src(v.vlmax);
    for (std::uint64_t i = 0; i < v.vlmax; ++i) src[i] = vec::get(c, vs2, i, v.sewb);
    for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
      if (!vec::active(c, d, i)) continue;
      std::uint64_t value;
      if (kind == Slide::down1 && i == v.vl - 1) value = trunc(xval, v.sew);
      else value = offset < v.vlmax && i + offset < v.vlmax ? src[i + offset] : 0;
      vec::put(c, vd, i, v.sewb, value);
    }
  }
  permute_timing(c, v, vec::regs(vs2, v.group) | (vec::unmasked(d) ? 0 : 1u), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

enum class Gather { vv, vx, vi, ei16 };

template <class X>
std::uint64_t gather(Core& c, const Insn& d, std::uint64_t pc, Gather kind) {
  V_BEGIN
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  unsigned idx_bytes = v.sewb, idx_group = v.group;
  if (kind == Gather::ei16) {
    idx_bytes = 2;
    const int emul_log2 = 4 - std::countr_zero(v.sew) + v.lmul_log2;
    V_REQUIRE(emul_log2 >= -3 && emul_log2 <= 3, "vrgatherei16 index EMUL outside 1/8..8");
    idx_group = emul_log2 > 0 ? 1u << emul_log2 : 1u;
  }
  const bool vector_index = kind == Gather::vv || kind == Gather::ei16;
  V_REQUIRE(vec::aligned(vd, v.group) && vec::aligned(vs2, v.group) && (!vector_index || vec::aligned(vs1, idx_group)),
            "register group not aligned");
  V_REQUIRE(!vec::overlap(vd, v.group, vs2, v.group) && (!vector_index || !vec::overlap(vd, v.group, vs1, idx_group)),
            "vrgather destination overlaps a source");
  V_REQUIRE(vec::unmasked(d) || vd != 0, "masked instruction writing v0 (the mask register)");
  const std::uint64_t scalar = kind == Gather::vi ? vec::uimm5(d) : static_cast<X>(c.x[d.rs1]);
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    if (!vec::active(c, d, i)) continue;
    const std::uint64_t index = vector_index ? vec::get(c, vs1, i, idx_bytes) : scalar;
    vec::put(c, vd, i, v.sewb, index < v.vlmax ? vec::get(c, vs2, index, v.sewb) : 0);
  }
  permute_timing(c, v, vec::regs(vs2, v.group) | (vector_index ? vec::regs(vs1, idx_group) : 0) | (vec::unmasked(d) ? 0 : 1u),
                 vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

template <class X>
std::uint64_t move_whole(Core& c, const Insn& d, std::uint64_t pc, unsigned nregs) {
  vec::Cfg v;
  {
    std::uint64_t next_;
    if (!vec::begin(c, d, pc, v, next_, /*needs_vtype=*/false)) return next_;
  }
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  V_REQUIRE(vec::aligned(vd, nregs) && vec::aligned(vs2, nregs), "vmv<nr>r.v registers not aligned to NR");
  if (vd != vs2) std::memmove(c.vreg_ptr(vd), c.vreg_ptr(vs2), std::size_t{nregs} * c.vlenb);
  c.vissue(Core::VUnit::alu, vec::beats_for_bytes(c, std::uint64_t{nregs} * c.vlenb), c.cfg.cycle_model.vector.alu_latency,
           vec::regs(vs2, nregs), vec::regs(vd, nregs));
  vec::finish(c);
  return NEXT;
}
}  // namespace

/// vmv.x.s rd, vs2: rd = sign-extended vs2[0] (whatever vl is).
RV_EXEC(vmv_x_s) {
  V_BEGIN
  const unsigned vs2 = vec::vs2(d);
  SET_RD(static_cast<X>(sext(vec::get(c, vs2, 0, v.sewb), v.sew)));
  c.vissue(Core::VUnit::permute, 1, c.cfg.cycle_model.vector.permute_latency, vec::regs(vs2, 1), 0, /*scalar_result=*/true);
  vec::finish(c);
  return NEXT;
}
/// vmv.s.x vd, rs1: vd[0] = rs1 when vl > 0 (and vstart < vl).
RV_EXEC(vmv_s_x) {
  V_BEGIN
  const unsigned vd = vec::vd(d);
  if (v.vstart < v.vl) vec::put(c, vd, 0, v.sewb, trunc(static_cast<std::uint64_t>(sext(c.x[d.rs1], sizeof(X) * 8)), v.sew));
  c.vissue(Core::VUnit::permute, 1, c.cfg.cycle_model.vector.permute_latency, 0, vec::regs(vd, 1));
  vec::finish(c);
  return NEXT;
}
RV_EXEC(vmv1r_v) { return move_whole<X>(c, d, pc, 1); }
RV_EXEC(vmv2r_v) { return move_whole<X>(c, d, pc, 2); }
RV_EXEC(vmv4r_v) { return move_whole<X>(c, d, pc, 4); }
RV_EXEC(vmv8r_v) { return move_whole<X>(c, d, pc, 8); }
RV_EXEC(vslideup_vx) { return slide<X>(c, d, pc, Slide::up, false); }
RV_EXEC(vslideup_vi) { return slide<X>(c, d, pc, Slide::up, true); }
RV_EXEC(vslidedown_vx) { return slide<X>(c, d, pc, Slide::down, false); }
RV_EXEC(vslidedown_vi) { return slide<X>(c, d, pc, Slide::down, true); }
RV_EXEC(vslide1up_vx) { return slide<X>(c, d, pc, Slide::up1, false); }
RV_EXEC(vslide1down_vx) { return slide<X>(c, d, pc, Slide::down1, false); }
RV_EXEC(vrgather_vv) { return gather<X>(c, d, pc, Gather::vv); }
RV_EXEC(vrgather_vx) { return gather<X>(c, d, pc, Gather::vx); }
RV_EXEC(vrgather_vi) { return gather<X>(c, d, pc, Gather::vi); }
RV_EXEC(vrgatherei16_vv) { return gather<X>(c, d, pc, Gather::ei16); }

RV_INSTANTIATE(vmv_x_s) RV_INSTANTIATE(vmv_s_x)
RV_INSTANTIATE(vmv1r_v) RV_INSTANTIATE(vmv2r_v) RV_INSTANTIATE(vmv4r_v) RV_INSTANTIATE(vmv8r_v)
RV_INSTANTIATE(vslideup_vx) RV_INSTANTIATE(vslideup_vi) RV_INSTANTIATE(vslidedown_vx) RV_INSTANTIATE(vslidedown_vi)
RV_INSTANTIATE(vslide1up_vx) RV_INSTANTIATE(vslide1down_vx)
RV_INSTANTIATE(vrgather_vv) RV_INSTANTIATE(vrgather_vx) RV_INSTANTIATE(vrgather_vi) RV_INSTANTIATE(vrgatherei16_vv)

}  // namespace cryptaccel::rv
