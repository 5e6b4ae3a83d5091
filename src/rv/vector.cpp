// The legality checks shared by all vector instructions (vector.hpp).
#include <algorithm>
#include <string>

#include "rv/vector.hpp"

namespace cryptaccel::rv::vec {

std::uint64_t illegal(Core& c, const Insn& d, std::uint64_t pc, const std::string& why) {
  return c.fault(pc, d, StopReason::illegal_instruction, why, kCauseIllegal, d.raw);
}

bool begin(Core& c, const Insn& d, std::uint64_t pc, Cfg& v, std::uint64_t& next, bool needs_vtype) {
  if ((c.mstatus & kMstatusVs) == 0) {
    next = illegal(c, d, pc, "vector instruction with mstatus.VS off (set mstatus.VS first, as on Spike)");
    return false;
  }
  if (needs_vtype && vill(c)) {
    next = illegal(c, d, pc, "vector instruction with vtype.vill set (no valid vsetvl* before it)");
    return false;
  }
  if (!vill(c)) v = config(c);
  c.vcur_op = d.op;
  return true;
}

std::uint64_t beat_bytes(const Core& c) {
  const std::uint32_t lanes = c.cfg.cycle_model.vector.lanes;
  return lanes == 0 ? c.vlenb : std::uint64_t{lanes} * 8;
}

std::uint64_t beats_for_bytes(const Core& c, std::uint64_t bytes) {
  const std::uint64_t per_beat = beat_bytes(c);
  return bytes == 0 ? 0 : (bytes + per_beat - 1) / per_beat;
}

bool eg_begin(Core& c, const Insn& d, std::uint64_t pc, Cfg& v, std::uint64_t& next, const EgRules& r) {
  if (!begin(c, d, pc, v, next)) return false;
  const std::string name = kOpInfo[d.op].mnemonic;
  auto fail = [&](const std::string& why) {
    next = illegal(c, d, pc, name + ": " + why);
    return false;
  };
  if ((v.sew & r.sews) == 0)
    return fail(std::string("SEW must be ") + (r.sews == 32 ? "32" : "32 or 64") + " (is " + std::to_string(v.sew) + ")");
  const unsigned egw = r.egs * v.sew;
  const std::uint64_t group_bits =
      v.lmul_log2 >= 0 ? std::uint64_t{c.vlen} << v.lmul_log2 : std::uint64_t{c.vlen} >> -v.lmul_log2;
  if (group_bits < egw)
    return fail("LMUL*VLEN = " + std::to_string(group_bits) + " bits is less than EGW = " + std::to_string(egw));
  if (v.vl % r.egs != 0)
    return fail("vl = " + std::to_string(v.vl) + " is not a multiple of EGS = " + std::to_string(r.egs));
  if (v.vstart % r.egs != 0)
    return fail("vstart = " + std::to_string(v.vstart) + " is not a multiple of EGS = " + std::to_string(r.egs));
  const unsigned vd_ = vd(d), vs1_ = vs1(d), vs2_ = vs2(d);
  if (!aligned(vd_, v.group) || (!r.vs2_scalar && !aligned(vs2_, v.group)))
    return fail("register group not aligned to LMUL " + std::to_string(v.group));
  const unsigned vs2_regs = r.vs2_scalar ? regs_for_bytes(c, egw / 8) : v.group;
  if (r.vd_vs2_disjoint && overlap(vd_, v.group, vs2_, vs2_regs)) return fail("vd overlaps vs2");
  if (r.vd_vs1_disjoint && overlap(vd_, v.group, vs1_, v.group)) return fail("vd overlaps vs1");
  return true;
}

void eg_timing(Core& c, const Insn& d, const Cfg& v, const EgRules& r, std::uint32_t reads, std::uint32_t writes) {
  const auto& t = c.cfg.cycle_model.vector;
  const unsigned egw = r.egs * v.sew;
  // Element-group slots per cycle: one per crypto_lanes_per_eg lanes for 128-bit groups, half that for 256-bit.
  const std::uint64_t lanes_per_group = std::uint64_t{t.crypto_lanes_per_eg} * std::max(1u, egw / 128);
  const std::uint64_t per_cycle = std::max<std::uint64_t>(1, beat_bytes(c) / 8 / lanes_per_group);
  const std::uint64_t groups = (v.vl - v.vstart) / r.egs;
  (void)d;
  // Pipelined: the last group leaves the unit crypto_stages - 1 cycles after its beat.
  c.vissue(Core::VUnit::crypto, (groups + per_cycle - 1) / per_cycle, t.crypto_stages ? t.crypto_stages - 1 : 0, reads,
           writes);
}

}  // namespace cryptaccel::rv::vec
