// xkeccak: seed 004's ten custom Keccak vector instructions (docs/isa-lab.md, "Custom Keccak vector instructions").
// A vector register holds one row (plane y) of SN = floor(EleNum / 5) Keccak states, EleNum = VLEN/SEW: element
// 5i + x is lane (x, y) of state i, elements 5*SN.. are padding that no instruction here reads or writes. Element e
// of a register group is position p = e mod EleNum of the group's register r = e / EleNum (the seed's lmul_cnt).
// SEW 64: one element is a lane. SEW 32: bit-interleaved lanes, the even bits in one register set (E), the odd
// bits in another (O); the v32* instructions take (vs2, vs1) = (O, E).
// Timing: beats = ceil(vl / EleNum) (a register of elements a cycle), the result keccak-latency cycles after the
// last beat (vpi: keccak-pi-latency); slides mod 5 and vpi on the slide/permute unit, the rest on the ALU.
#include <string>

#include "algo/bit_interleave.hpp"
#include "algo/keccak.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {

enum class Kind { slidedown, slideup, rotup, rho64, pi, iota, lrotup32, hrotup32, lrho32, hrho32 };

/// What the checks of one instruction established.
struct Ctx {
  vec::Cfg v;
  std::uint64_t ele_num = 0;  ///< elements of one register (VLEN/SEW)
  std::uint64_t body = 0;     ///< 5*SN: positions holding lanes
  int row = 0;                ///< the row named by simm / funct6[2:0] (0..4), or -1: the register's place r
  std::uint64_t rc = 0;       ///< viota: the (half of the) round constant
  unsigned src_regs = 1;      ///< vpi: registers of vs2 it reads
};

bool is_v32(Kind k) { return k == Kind::lrotup32 || k == Kind::hrotup32 || k == Kind::lrho32 || k == Kind::hrho32; }
/// Instructions that read other elements than their own (vd may not overlap the source).
bool reads_across(Kind k) { return k == Kind::slidedown || k == Kind::slideup || k == Kind::pi; }
/// Instructions with a row operand (simm5 in [19:15], or funct6[2:0] for the v32 rho forms).
bool has_row(Kind k) { return k == Kind::rho64 || k == Kind::pi || k == Kind::lrho32 || k == Kind::hrho32; }

/// The legality rules of docs/isa-lab.md; a violation raises an illegal-instruction exception naming the rule
/// (false, `next` = the pc to hand back).
template <class X>
bool begin(Core& c, const Insn& d, std::uint64_t pc, Kind k, Ctx& x, std::uint64_t& next) {
  if (!vec::begin(c, d, pc, x.v, next)) return false;
  const std::string name = kOpInfo[d.op].mnemonic;
  const auto fail = [&](const std::string& why) {
    next = vec::illegal(c, d, pc, name + ": " + why);
    return false;
  };
  const vec::Cfg& v = x.v;
  const unsigned sews = is_v32(k) ? 32 : (k == Kind::rotup || k == Kind::rho64) ? 64 : (32 | 64);
  if ((v.sew & sews) == 0)
    return fail("SEW must be " + std::string(sews == 32 ? "32" : sews == 64 ? "64" : "32 or 64") + " (is " +
                std::to_string(v.sew) + ")");
  x.ele_num = c.vlen / v.sew;
  x.body = x.ele_num / 5 * 5;
  if (x.body == 0)
    return fail("VLEN/SEW = " + std::to_string(x.ele_num) + " elements a register hold no Keccak state (SN = 0)");
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  if (!vec::aligned(vd, v.group) || !vec::aligned(vs2, v.group) || (is_v32(k) && !vec::aligned(vs1, v.group)))
    return fail("register group not aligned to LMUL " + std::to_string(v.group));
  if (!vec::unmasked(d) && k == Kind::pi) return fail("vpi has no masked form (vm = 0)");
  if (!vec::unmasked(d) && vd == 0) return fail("masked instruction writing v0 (the mask register)");
  // Registers the elements [0, vl) cover (at least one).
  const std::uint64_t regs_used = v.vl == 0 ? 1 : (v.vl + x.ele_num - 1) / x.ele_num;
  if (has_row(k)) {
    const int row = (k == Kind::lrho32 || k == Kind::hrho32) ? static_cast<int>((d.raw >> 26) & 7)
                                                              : static_cast<int>(vec::simm5(d));
    if (k == Kind::lrho32 || k == Kind::hrho32) {
      if (row == 5 || row == 6) return fail("funct6[2:0] = " + std::to_string(row) + " is reserved (rows 0..4, 7 = all)");
      x.row = row == 7 ? -1 : row;
    } else {
      if (row < -1 || row > 4) return fail("simm = " + std::to_string(row) + " is not a row (0..4) or -1 (all rows)");
      x.row = row;
    }
    if (x.row == -1 && regs_used > 5)
      return fail("vl = " + std::to_string(v.vl) + " reaches register " + std::to_string(regs_used - 1) +
                  " of the group, but the rows are 0..4 (all rows: vl <= 5*EleNum = " + std::to_string(5 * x.ele_num) + ")");
  }
  if (k == Kind::pi) {
    if (x.row >= 0 && regs_used > 1)
      return fail("vl = " + std::to_string(v.vl) + " exceeds EleNum = " + std::to_string(x.ele_num) +
                  ": simm = " + std::to_string(x.row) + " names one row (one register)");
    x.src_regs = static_cast<unsigned>(x.row >= 0 ? 1 : regs_used);
    if (vd + 5 > 32) return fail("destination registers v" + std::to_string(vd) + "..v" + std::to_string(vd + 4) + " pass v31");
    if (vec::overlap(vd, 5, vs2, x.src_regs))
      return fail("destination registers v" + std::to_string(vd) + "..v" + std::to_string(vd + 4) +
                  " overlap the source registers v" + std::to_string(vs2) + "..v" + std::to_string(vs2 + x.src_regs - 1));
  } else if (reads_across(k) && vec::overlap(vd, v.group, vs2, v.group)) {
    return fail("vd overlaps vs2 (the instruction reads other elements of the source)");
  }
  if (k == Kind::iota) {
    const std::uint64_t s = static_cast<X>(c.x[d.rs1]);
    const unsigned round = static_cast<unsigned>(s & 31);
    if (round >= 24) return fail("x[rs1] & 31 = " + std::to_string(round) + " is not a round index (0..23)");
    const std::uint64_t rc = CA_TABLE(algo::kKeccakRc)[round];
    if (v.sew == 64) {
      x.rc = rc;
    } else {
      const algo::InterleavedLane il = algo::interleave_lane(rc);
      x.rc = (s >> 5) & 1 ? il.odd : il.even;
    }
  }
  return true;
}

/// Lane (E, O) = (even, odd) rotated left by n, as the word `odd_half` asks for.
std::uint32_t rotated_half(std::uint32_t even, std::uint32_t odd, unsigned n, bool odd_half) {
  const algo::InterleavedLane r = algo::interleave_lane(algo::rotl64(algo::deinterleave_lane(even, odd), n));
  return odd_half ? r.odd : r.even;
}

template <class X>
std::uint64_t keccak_op(Core& c, const Insn& d, std::uint64_t pc, Kind k) {
  Ctx x;
  {
    std::uint64_t next_;
    if (!begin<X>(c, d, pc, k, x, next_)) return next_;
  }
  const vec::Cfg& v = x.v;
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d), sewb = v.sewb;
  const unsigned imm = vec::uimm5(d);
  const auto rho = [](unsigned lane, unsigned y) { return static_cast<unsigned>(CA_TABLE(algo::kKeccakRho)[lane + 5 * y]); };
  for (std::uint64_t e = v.vstart; e < v.vl; ++e) {
    const std::uint64_t r = e / x.ele_num, p = e % x.ele_num;
    if (p >= x.body || !vec::active(c, d, e)) continue;
    const std::uint64_t base = r * x.ele_num + p / 5 * 5;  // element 0 of this state's row
    const unsigned lane = static_cast<unsigned>(p % 5);
    const unsigned y = x.row >= 0 ? static_cast<unsigned>(x.row) : static_cast<unsigned>(r);
    const std::uint64_t a = vec::get(c, vs2, e, sewb);
    switch (k) {
      case Kind::slidedown: vec::put(c, vd, e, sewb, vec::get(c, vs2, base + (lane + imm) % 5, sewb)); break;
      case Kind::slideup: vec::put(c, vd, e, sewb, vec::get(c, vs2, base + (lane + 5 - imm % 5) % 5, sewb)); break;
      case Kind::rotup: vec::put(c, vd, e, sewb, algo::rotl64(a, imm)); break;
      case Kind::rho64: vec::put(c, vd, e, sewb, algo::rotl64(a, rho(lane, y))); break;
      case Kind::iota: vec::put(c, vd, e, sewb, lane == 0 && r == 0 ? a ^ x.rc : a); break;  // lane (0, 0): row 0
      case Kind::pi:
        // Lane (x, t) of E moves to (x', y') = (t, 2(x - t) mod 5) of F = pi(E): register vd + y', position 5i + t.
        vec::put(c, vd + (2 * (lane + 5 - y)) % 5, p / 5 * 5 + y, sewb, a);
        break;
      case Kind::lrotup32:
      case Kind::hrotup32:
      case Kind::lrho32:
      case Kind::hrho32: {
        const unsigned n = (k == Kind::lrotup32 || k == Kind::hrotup32) ? 1 : rho(lane, y);
        const bool odd_half = k == Kind::hrotup32 || k == Kind::hrho32;
        const auto even = static_cast<std::uint32_t>(vec::get(c, vs1, e, sewb)), odd = static_cast<std::uint32_t>(a);
        vec::put(c, vd, e, sewb, rotated_half(even, odd, n, odd_half));
        break;
      }
    }
  }
  const auto& t = c.cfg.cycle_model.vector;
  const std::uint64_t beats = (v.vl + x.ele_num - 1) / x.ele_num;
  const std::uint32_t reads = vec::regs(vs2, k == Kind::pi ? x.src_regs : v.group) |
                              (is_v32(k) ? vec::regs(vs1, v.group) : 0) | (vec::unmasked(d) ? 0 : 1u);
  const std::uint32_t writes = vec::regs(vd, k == Kind::pi ? 5 : v.group);
  c.vissue(reads_across(k) ? Core::VUnit::permute : Core::VUnit::alu, beats,
           k == Kind::pi ? t.keccak_pi_latency : t.keccak_latency, reads, writes);
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vslidedownm_vi) { return keccak_op<X>(c, d, pc, Kind::slidedown); }
RV_EXEC(vslideupm_vi) { return keccak_op<X>(c, d, pc, Kind::slideup); }
RV_EXEC(vrotup_vi) { return keccak_op<X>(c, d, pc, Kind::rotup); }
RV_EXEC(v64rho_vi) { return keccak_op<X>(c, d, pc, Kind::rho64); }
RV_EXEC(vpi_vi) { return keccak_op<X>(c, d, pc, Kind::pi); }
RV_EXEC(viota_vx) { return keccak_op<X>(c, d, pc, Kind::iota); }
RV_EXEC(v32lrotup_vi) { return keccak_op<X>(c, d, pc, Kind::lrotup32); }
RV_EXEC(v32hrotup_vi) { return keccak_op<X>(c, d, pc, Kind::hrotup32); }
RV_EXEC(v32lrho_vi) { return keccak_op<X>(c, d, pc, Kind::lrho32); }
RV_EXEC(v32hrho_vi) { return keccak_op<X>(c, d, pc, Kind::hrho32); }

RV_INSTANTIATE(vslidedownm_vi) RV_INSTANTIATE(vslideupm_vi) RV_INSTANTIATE(vrotup_vi) RV_INSTANTIATE(v64rho_vi)
RV_INSTANTIATE(vpi_vi) RV_INSTANTIATE(viota_vx) RV_INSTANTIATE(v32lrotup_vi) RV_INSTANTIATE(v32hrotup_vi)
RV_INSTANTIATE(v32lrho_vi) RV_INSTANTIATE(v32hrho_vi)

}  // namespace cryptaccel::rv
