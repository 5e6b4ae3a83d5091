// Zvkg semantics (vector crypto spec v1.0, "Zvkg"): vghsh.vv (vd = (vd ^ vs1) · vs2) and vgmul.vv
// (vd = vd · vs2) in GCM's GF(2^128); EGS = 4, SEW = 32. Element-group bytes are GCM block bytes in memory order,
// so the product is algo/ghash.hpp's gf128_mul on the loaded blocks (the spec's brev8 steps are that bit order).
#include "algo/ghash.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
template <class X>
std::uint64_t ghash(Core& c, const Insn& d, std::uint64_t pc, bool with_x) {
  V_EG_BEGIN(4, false, false, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g) {
    std::uint8_t* y = vec::eg_ptr(c, vd, g, 16);
    algo::Gf128 acc = algo::gf128_load(y);
    if (with_x) {
      const algo::Gf128 x = algo::gf128_load(vec::eg_ptr(c, vs1, g, 16));
      acc.hi ^= x.hi, acc.lo ^= x.lo;
    }
    algo::gf128_store(algo::gf128_mul(acc, algo::gf128_load(vec::eg_ptr(c, vs2, g, 16))), y);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vd, v.group) | vec::regs(vs2, v.group) | (with_x ? vec::regs(vs1, v.group) : 0),
                 vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vghsh_vv) { return ghash<X>(c, d, pc, true); }
RV_EXEC(vgmul_vv) { return ghash<X>(c, d, pc, false); }
RV_INSTANTIATE(vghsh_vv) RV_INSTANTIATE(vgmul_vv)

}  // namespace cryptaccel::rv
