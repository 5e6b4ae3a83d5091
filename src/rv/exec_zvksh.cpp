// Zvksh semantics (vector crypto spec v1.0, "Zvksh"): vsm3me.vv (message expansion: 8 new words) and vsm3c.vi
// (two compression rounds, 2*uimm and 2*uimm+1); EGS = 8 (EGW 256), SEW = 32. SM3 is big-endian: the
// instructions byte-swap their input and output words, so kernels load message and state with plain vle32.v.
// P0/P1 are algo/sm3.hpp's.
#include "algo/bits.hpp"
#include "algo/sm3.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
std::uint32_t be(const std::uint8_t* eg, unsigned k) { return __builtin_bswap32(vec::eg_word(eg, k)); }
void set_be(std::uint8_t* eg, unsigned k, std::uint32_t w) { vec::set_eg_word(eg, k, __builtin_bswap32(w)); }

template <class X>
std::uint64_t sm3me(Core& c, const Insn& d, std::uint64_t pc) {
  V_EG_BEGIN(8, false, true, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  for (std::uint64_t g = v.vstart / 8; g < v.vl / 8; ++g) {
    std::uint32_t w[24];
    for (unsigned k = 0; k < 8; ++k) w[k] = be(vec::eg_ptr(c, vs1, g, 32), k), w[8 + k] = be(vec::eg_ptr(c, vs2, g, 32), k);
    for (unsigned j = 16; j < 24; ++j)
      w[j] = algo::sm3_p1(w[j - 16] ^ w[j - 9] ^ algo::rotl32(w[j - 3], 15)) ^ algo::rotl32(w[j - 13], 7) ^ w[j - 6];
    for (unsigned k = 0; k < 8; ++k) set_be(vec::eg_ptr(c, vd, g, 32), k, w[16 + k]);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vs2, v.group) | vec::regs(vs1, v.group), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

template <class X>
std::uint64_t sm3c(Core& c, const Insn& d, std::uint64_t pc) {
  V_EG_BEGIN(8, false, true, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), rnds = vec::uimm5(d);
  for (std::uint64_t g = v.vstart / 8; g < v.vl / 8; ++g) {
    std::uint8_t* st = vec::eg_ptr(c, vd, g, 32);
    const std::uint8_t* msg = vec::eg_ptr(c, vs2, g, 32);
    // {H, G, F, E, D, C, B, A} = elements {7, ..., 0}.
    std::uint32_t A = be(st, 0), B = be(st, 1), C = be(st, 2), D = be(st, 3), E = be(st, 4), F = be(st, 5),
                  G = be(st, 6), H = be(st, 7);
    for (unsigned r = 0; r < 2; ++r) {
      const unsigned j = 2 * rnds + r;
      const std::uint32_t wj = be(msg, r), wj4 = be(msg, r + 4);
      const std::uint32_t tj = j < 16 ? 0x79CC4519u : 0x7A879D8Au;
      const std::uint32_t ss1 = algo::rotl32(algo::rotl32(A, 12) + E + algo::rotl32(tj, j % 32), 7);
      const std::uint32_t ss2 = ss1 ^ algo::rotl32(A, 12);
      const std::uint32_t ff = j < 16 ? (A ^ B ^ C) : ((A & B) | (A & C) | (B & C));
      const std::uint32_t gg = j < 16 ? (E ^ F ^ G) : ((E & F) | (~E & G));
      const std::uint32_t tt1 = ff + D + ss2 + (wj ^ wj4);
      const std::uint32_t tt2 = gg + H + ss1 + wj;
      D = C, C = algo::rotl32(B, 9), B = A, A = tt1;
      H = G, G = algo::rotl32(F, 19), F = E, E = algo::sm3_p0(tt2);
    }
    const std::uint32_t out[8] = {A, B, C, D, E, F, G, H};
    for (unsigned k = 0; k < 8; ++k) set_be(st, k, out[k]);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vd, v.group) | vec::regs(vs2, v.group), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vsm3me_vv) { return sm3me<X>(c, d, pc); }
RV_EXEC(vsm3c_vi) { return sm3c<X>(c, d, pc); }
RV_INSTANTIATE(vsm3me_vv) RV_INSTANTIATE(vsm3c_vi)

}  // namespace cryptaccel::rv
