// Shared vocabulary of the vector semantics files (exec_v_*.cpp, exec_zv*.cpp): instruction fields, vtype,
// element and mask access, the legality checks every vector instruction makes, and the element-group loop of the
// vector crypto extensions. Register groups are contiguous in Core::vregs, so element i of the group starting at
// register r lives at byte i * SEW/8 of vreg_ptr(r).
//
// Tail and mask policy: elements past vl and masked-off elements are left undisturbed whatever vta/vma say
// (agnostic allows it; Spike does the same), so results compare equal with Spike's.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "rv/exec_common.hpp"

namespace cryptaccel::rv::vec {

// ---- fields (read from the raw word: the pre-decoded rd is redirected to a sink for x0) -----------------------
inline unsigned vd(const Insn& d) { return (d.raw >> 7) & 31; }
inline unsigned vs1(const Insn& d) { return (d.raw >> 15) & 31; }
inline unsigned vs2(const Insn& d) { return (d.raw >> 20) & 31; }
inline bool unmasked(const Insn& d) { return (d.raw >> 25) & 1; }
inline std::int64_t simm5(const Insn& d) { return static_cast<std::int64_t>(static_cast<std::int32_t>(d.raw << 12) >> 27); }
inline unsigned uimm5(const Insn& d) { return (d.raw >> 15) & 31; }

// ---- vtype -------------------------------------------------------------------------------------------------
/// The current vector configuration, decoded.
struct Cfg {
  unsigned sew = 8;        ///< bits
  unsigned sewb = 1;       ///< bytes
  int lmul_log2 = 0;       ///< -3..3
  unsigned group = 1;      ///< registers per group (1 for fractional LMUL)
  std::uint64_t vl = 0, vstart = 0, vlmax = 0;
};

/// Decodes c.vtype (call only when vill is clear).
inline Cfg config(const Core& c) {
  Cfg v;
  v.sew = 8u << ((c.vtype >> 3) & 7);
  v.sewb = v.sew / 8;
  v.lmul_log2 = static_cast<int>(static_cast<std::int8_t>((c.vtype & 7) << 5) >> 5);
  v.group = v.lmul_log2 > 0 ? 1u << v.lmul_log2 : 1u;
  v.vl = c.vl;
  v.vstart = c.vstart;
  v.vlmax = v.lmul_log2 >= 0 ? (std::uint64_t{c.vlen} << v.lmul_log2) / v.sew : (c.vlen >> -v.lmul_log2) / v.sew;
  return v;
}
inline bool vill(const Core& c) { return (c.vtype >> (c.isa.xlen - 1)) & 1; }

// ---- elements ----------------------------------------------------------------------------------------------
/// Element `i` (zero-extended) of width `sewb` bytes of the group starting at register `reg`.
inline std::uint64_t get(const Core& c, unsigned reg, std::uint64_t i, unsigned sewb) {
  std::uint64_t v = 0;
  std::memcpy(&v, c.vreg_ptr(reg) + i * sewb, sewb);  // little-endian host (x86-64, AArch64)
  return v;
}
inline void put(Core& c, unsigned reg, std::uint64_t i, unsigned sewb, std::uint64_t v) {
  std::memcpy(c.vreg_ptr(reg) + i * sewb, &v, sewb);
}
inline bool mask_bit(const Core& c, unsigned reg, std::uint64_t i) { return (c.vreg_ptr(reg)[i >> 3] >> (i & 7)) & 1; }
inline void set_mask_bit(Core& c, unsigned reg, std::uint64_t i, bool b) {
  std::uint8_t& byte = c.vreg_ptr(reg)[i >> 3];
  byte = static_cast<std::uint8_t>((byte & ~(1u << (i & 7))) | (unsigned{b} << (i & 7)));
}
/// Whether element i is active (unmasked instruction, or v0.mask[i] set).
inline bool active(const Core& c, const Insn& d, std::uint64_t i) { return unmasked(d) || mask_bit(c, 0, i); }
/// Sign-extends the low `bits` bits.
inline std::int64_t sext(std::uint64_t v, unsigned bits) {
  return bits >= 64 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
}
inline std::uint64_t trunc(std::uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }
/// Mask of vector registers [reg, reg + n).
inline std::uint32_t regs(unsigned reg, unsigned n) {
  const std::uint64_t m = ((std::uint64_t{1} << n) - 1) << reg;
  return static_cast<std::uint32_t>(m);
}
/// Registers a group of `bytes` bytes starting at `reg` covers (at least 1).
inline unsigned regs_for_bytes(const Core& c, std::uint64_t bytes) {
  return bytes <= c.vlenb ? 1u : static_cast<unsigned>((bytes + c.vlenb - 1) / c.vlenb);
}

// ---- legality (vector.cpp) ---------------------------------------------------------------------------------
/// Raises an illegal-instruction exception for `d`, the reason in words (returns the pc to hand back).
std::uint64_t illegal(Core& c, const Insn& d, std::uint64_t pc, const std::string& why);
/// Checks common to every vector instruction but vset*: mstatus.VS on; with `needs_vtype`, vtype valid.
/// Fills `v` and returns true, or raises the exception, sets `next` and returns false.
bool begin(Core& c, const Insn& d, std::uint64_t pc, Cfg& v, std::uint64_t& next, bool needs_vtype = true);
/// After an instruction completed: vstart = 0, mstatus.VS dirty.
inline void finish(Core& c) {
  c.vstart = 0;
  c.mstatus |= kMstatusVs;
}
/// Whether `reg` is a legal base for a group of `group` registers (aligned, inside v0..v31).
inline bool aligned(unsigned reg, unsigned group) { return reg % group == 0 && reg + group <= 32; }
/// Whether register ranges [a, a+na) and [b, b+nb) overlap.
inline bool overlap(unsigned a, unsigned na, unsigned b, unsigned nb) { return a < b + nb && b < a + na; }

#define V_BEGIN                                                      \
  ::cryptaccel::rv::vec::Cfg v;                                      \
  {                                                                  \
    std::uint64_t next_;                                             \
    if (!::cryptaccel::rv::vec::begin(c, d, pc, v, next_)) return next_; \
  }
#define V_REQUIRE(cond, why) \
  if (!(cond)) return ::cryptaccel::rv::vec::illegal(c, d, pc, why)

// ---- element groups (vector crypto spec v1.0 "Element Groups" and each instruction's constraints) -------------
/// What an element-group instruction requires besides SEW and EGS.
struct EgRules {
  unsigned egs = 4;             ///< elements per group
  bool vs2_scalar = false;      ///< .vs form: vs2's element group 0 serves every group of vd
  bool vd_vs2_disjoint = false; ///< vd may not overlap vs2
  bool vd_vs1_disjoint = false; ///< vd may not overlap vs1
  unsigned sews = 32;           ///< the legal SEWs as a mask of their values (32, or 32 | 64 for vsha2*)
};
/// Checks of an element-group instruction: VS on, vtype valid, SEW legal, LMUL*VLEN >= EGW, vl and vstart
/// multiples of EGS, aligned and (where required) disjoint registers. Illegal configurations raise an
/// illegal-instruction exception naming the rule (returns false, `next` = the pc to hand back).
bool eg_begin(Core& c, const Insn& d, std::uint64_t pc, Cfg& v, std::uint64_t& next, const EgRules& rules);
/// Byte pointer to element group `g` (of `egb` bytes) of the group starting at register `reg`.
inline std::uint8_t* eg_ptr(Core& c, unsigned reg, std::uint64_t g, unsigned egb) { return c.vreg_ptr(reg) + g * egb; }
inline std::uint32_t eg_word(const std::uint8_t* eg, unsigned k) {
  std::uint32_t w;
  std::memcpy(&w, eg + 4 * k, 4);
  return w;
}
inline void set_eg_word(std::uint8_t* eg, unsigned k, std::uint32_t w) { std::memcpy(eg + 4 * k, &w, 4); }
/// Timing of an element-group instruction over groups [vstart/EGS, vl/EGS) on the crypto unit.
void eg_timing(Core& c, const Insn& d, const Cfg& v, const EgRules& rules, std::uint32_t reads, std::uint32_t writes);

#define V_EG_BEGIN(...)                                                           \
  ::cryptaccel::rv::vec::Cfg v;                                                   \
  const ::cryptaccel::rv::vec::EgRules rules{__VA_ARGS__};                       \
  {                                                                               \
    std::uint64_t next_;                                                          \
    if (!::cryptaccel::rv::vec::eg_begin(c, d, pc, v, next_, rules)) return next_; \
  }

/// Bytes the lanes move a cycle: VectorTiming::lanes * 8, or a whole register (VLEN/8) with lanes = 0.
std::uint64_t beat_bytes(const Core& c);
/// Beats (cycles of occupancy) of `bytes` bytes through the lanes.
std::uint64_t beats_for_bytes(const Core& c, std::uint64_t bytes);

}  // namespace cryptaccel::rv::vec
