// RVV 1.0 loads and stores (spec §7): unit-stride vle/vse<EEW>.v, strided vlse/vsse<EEW>.v, whole-register
// vl<NF>re<EEW>.v / vs<NF>r.v, and the mask forms vlm.v / vsm.v; EEW 8..64. Segment (NF > 1 unit-stride/strided),
// indexed and fault-only-first forms are not implemented (they do not decode). A faulting element leaves vstart at
// its index, as the spec requires; masked-off and tail elements are undisturbed.
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
using vec::Cfg;

bool load_bytes(const Core& c, std::uint64_t addr, unsigned n, std::uint64_t& out) {
  switch (n) {
    case 1: { std::uint8_t v; if (!c.load(addr, v)) return false; out = v; return true; }
    case 2: { std::uint16_t v; if (!c.load(addr, v)) return false; out = v; return true; }
    case 4: { std::uint32_t v; if (!c.load(addr, v)) return false; out = v; return true; }
    default: return c.load(addr, out);
  }
}
bool store_bytes(Core& c, std::uint64_t addr, unsigned n, std::uint64_t v) {
  switch (n) {
    case 1: return c.store(addr, static_cast<std::uint8_t>(v));
    case 2: return c.store(addr, static_cast<std::uint16_t>(v));
    case 4: return c.store(addr, static_cast<std::uint32_t>(v));
    default: return c.store(addr, v);
  }
}

/// Unit-stride (stride = EEW/8) and strided accesses of EEW `eew` bits.
template <class X, bool Store>
std::uint64_t strided(Core& c, const Insn& d, std::uint64_t pc, unsigned eew, bool has_stride) {
  V_BEGIN
  const unsigned eewb = eew / 8;
  V_REQUIRE(eew <= c.elen, "EEW " + std::to_string(eew) + " exceeds ELEN " + std::to_string(c.elen));
  // EMUL = EEW / SEW * LMUL must lie in 1/8..8.
  const int emul_log2 = std::countr_zero(eew) - std::countr_zero(v.sew) + v.lmul_log2;
  V_REQUIRE(emul_log2 >= -3 && emul_log2 <= 3, "EMUL = EEW/SEW*LMUL outside 1/8..8");
  const unsigned group = emul_log2 > 0 ? 1u << emul_log2 : 1u;
  const unsigned reg = vec::vd(d);
  V_REQUIRE(vec::aligned(reg, group), "v" + std::to_string(reg) + " is not aligned to EMUL " + std::to_string(group));
  V_REQUIRE(Store || vec::unmasked(d) || reg != 0, "masked load into v0");
  const std::uint64_t base = static_cast<X>(c.x[d.rs1]);
  const std::int64_t stride = has_stride ? vec::sext(static_cast<X>(c.x[d.rs2]), sizeof(X) * 8) : eewb;
  for (std::uint64_t i = v.vstart; i < v.vl; ++i) {
    if (!vec::active(c, d, i)) continue;
    const std::uint64_t addr = static_cast<X>(base + static_cast<std::uint64_t>(stride) * i);
    if constexpr (Store) {
      if (!store_bytes(c, addr, eewb, vec::get(c, reg, i, eewb))) {
        c.vstart = i;
        return c.store_fault(pc, d, addr, eewb);
      }
    } else {
      std::uint64_t value;
      if (!load_bytes(c, addr, eewb, value)) {
        c.vstart = i;
        return c.load_fault(pc, d, addr, eewb);
      }
      vec::put(c, reg, i, eewb, value);
    }
  }
  const std::uint32_t mask = vec::unmasked(d) ? 0 : 1u;
  c.vissue(Core::VUnit::mem, vec::beats_for_bytes(c, v.vl * eewb), c.cfg.cycle_model.vector.mem_latency,
           (Store ? vec::regs(reg, group) : 0) | mask, Store ? 0 : vec::regs(reg, group));
  vec::finish(c);
  return NEXT;
}

/// Whole-register (nregs registers) and mask (ceil(vl/8) bytes) accesses: byte-wise, unmasked.
template <class X, bool Store>
std::uint64_t bytes_access(Core& c, const Insn& d, std::uint64_t pc, unsigned nregs, unsigned eew, bool mask_form) {
  vec::Cfg v;
  {
    std::uint64_t next_;
    if (!vec::begin(c, d, pc, v, next_, /*needs_vtype=*/mask_form)) return next_;
  }
  const unsigned reg = vec::vd(d);
  V_REQUIRE(eew <= c.elen, "EEW " + std::to_string(eew) + " exceeds ELEN " + std::to_string(c.elen));
  V_REQUIRE(vec::aligned(reg, nregs), "v" + std::to_string(reg) + " is not aligned to " + std::to_string(nregs) + " registers");
  const unsigned eewb = eew / 8;
  const std::uint64_t total = mask_form ? (v.vl + 7) / 8 : std::uint64_t{nregs} * c.vlenb;  // bytes
  const std::uint64_t base = static_cast<X>(c.x[d.rs1]);
  for (std::uint64_t e = c.vstart; e < total / eewb; ++e) {
    const std::uint64_t addr = static_cast<X>(base + e * eewb);
    if constexpr (Store) {
      if (!store_bytes(c, addr, eewb, vec::get(c, reg, e, eewb))) {
        c.vstart = e;
        return c.store_fault(pc, d, addr, eewb);
      }
    } else {
      std::uint64_t value;
      if (!load_bytes(c, addr, eewb, value)) {
        c.vstart = e;
        return c.load_fault(pc, d, addr, eewb);
      }
      vec::put(c, reg, e, eewb, value);
    }
  }
  c.vissue(Core::VUnit::mem, vec::beats_for_bytes(c, total), c.cfg.cycle_model.vector.mem_latency,
           Store ? vec::regs(reg, nregs) : 0, Store ? 0 : vec::regs(reg, nregs));
  vec::finish(c);
  return NEXT;
}
}  // namespace

#define V_UNIT(e)                                                                             \
  RV_EXEC(vle##e##_v) { return strided<X, false>(c, d, pc, e, false); }                       \
  RV_EXEC(vse##e##_v) { return strided<X, true>(c, d, pc, e, false); }                        \
  RV_EXEC(vlse##e##_v) { return strided<X, false>(c, d, pc, e, true); }                       \
  RV_EXEC(vsse##e##_v) { return strided<X, true>(c, d, pc, e, true); }                        \
  RV_EXEC(vl1re##e##_v) { return bytes_access<X, false>(c, d, pc, 1, e, false); }            \
  RV_EXEC(vl2re##e##_v) { return bytes_access<X, false>(c, d, pc, 2, e, false); }            \
  RV_EXEC(vl4re##e##_v) { return bytes_access<X, false>(c, d, pc, 4, e, false); }            \
  RV_EXEC(vl8re##e##_v) { return bytes_access<X, false>(c, d, pc, 8, e, false); }            \
  RV_INSTANTIATE(vle##e##_v) RV_INSTANTIATE(vse##e##_v) RV_INSTANTIATE(vlse##e##_v) RV_INSTANTIATE(vsse##e##_v) \
  RV_INSTANTIATE(vl1re##e##_v) RV_INSTANTIATE(vl2re##e##_v) RV_INSTANTIATE(vl4re##e##_v) RV_INSTANTIATE(vl8re##e##_v)
V_UNIT(8)
V_UNIT(16)
V_UNIT(32)
V_UNIT(64)
#undef V_UNIT

RV_EXEC(vs1r_v) { return bytes_access<X, true>(c, d, pc, 1, 8, false); }
RV_EXEC(vs2r_v) { return bytes_access<X, true>(c, d, pc, 2, 8, false); }
RV_EXEC(vs4r_v) { return bytes_access<X, true>(c, d, pc, 4, 8, false); }
RV_EXEC(vs8r_v) { return bytes_access<X, true>(c, d, pc, 8, 8, false); }
RV_EXEC(vlm_v) { return bytes_access<X, false>(c, d, pc, 1, 8, true); }
RV_EXEC(vsm_v) { return bytes_access<X, true>(c, d, pc, 1, 8, true); }
RV_INSTANTIATE(vs1r_v) RV_INSTANTIATE(vs2r_v) RV_INSTANTIATE(vs4r_v) RV_INSTANTIATE(vs8r_v)
RV_INSTANTIATE(vlm_v) RV_INSTANTIATE(vsm_v)

}  // namespace cryptaccel::rv
