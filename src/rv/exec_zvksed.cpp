// Zvksed semantics (vector crypto spec v1.0, "Zvksed"): vsm4k.vi (four SM4 round keys), vsm4r.vv/.vs (four SM4
// rounds); EGS = 4, SEW = 32. Words are element values (no byte swap: kernels load big-endian data with a
// vrev8). τ is algo/sm4.hpp's; CK_i's byte j is (4i + j) * 7 mod 256, as in algo::sm4_expand_key.
#include "algo/bits.hpp"
#include "algo/sm4.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
std::uint32_t tau(std::uint32_t x) {
  algo::sm4_tau_words<1>(&x);
  return x;
}
std::uint32_t ck(unsigned i) {
  std::uint32_t v = 0;
  for (unsigned j = 0; j < 4; ++j) v = (v << 8) | (((4 * i + j) * 7) & 0xFF);
  return v;
}

template <class X>
std::uint64_t sm4k(Core& c, const Insn& d, std::uint64_t pc) {
  V_EG_BEGIN(4, false, false, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), rnd = vec::uimm5(d) & 7;
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g) {
    const std::uint8_t* in = vec::eg_ptr(c, vs2, g, 16);
    std::uint32_t k[8];
    for (unsigned i = 0; i < 4; ++i) k[i] = vec::eg_word(in, i);
    for (unsigned i = 0; i < 4; ++i) {
      const std::uint32_t s = tau(k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ ck(4 * rnd + i));
      k[i + 4] = k[i] ^ s ^ algo::rotl32(s, 13) ^ algo::rotl32(s, 23);
    }
    std::uint8_t* out = vec::eg_ptr(c, vd, g, 16);
    for (unsigned i = 0; i < 4; ++i) vec::set_eg_word(out, i, k[i + 4]);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vs2, v.group), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}

template <class X>
std::uint64_t sm4r(Core& c, const Insn& d, std::uint64_t pc, bool vs_form) {
  V_EG_BEGIN(4, vs_form, vs_form, false)
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d);
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g) {
    const std::uint8_t* key = vec::eg_ptr(c, vs2, vs_form ? 0 : g, 16);
    std::uint8_t* state = vec::eg_ptr(c, vd, g, 16);
    std::uint32_t x[8];
    for (unsigned i = 0; i < 4; ++i) x[i] = vec::eg_word(state, i);
    for (unsigned i = 0; i < 4; ++i) {
      const std::uint32_t s = tau(x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ vec::eg_word(key, i));
      x[i + 4] = x[i] ^ s ^ algo::rotl32(s, 2) ^ algo::rotl32(s, 10) ^ algo::rotl32(s, 18) ^ algo::rotl32(s, 24);
    }
    for (unsigned i = 0; i < 4; ++i) vec::set_eg_word(state, i, x[i + 4]);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vd, v.group) | vec::regs(vs2, vs_form ? 1 : v.group), vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vsm4k_vi) { return sm4k<X>(c, d, pc); }
RV_EXEC(vsm4r_vv) { return sm4r<X>(c, d, pc, false); }
RV_EXEC(vsm4r_vs) { return sm4r<X>(c, d, pc, true); }
RV_INSTANTIATE(vsm4k_vi) RV_INSTANTIATE(vsm4r_vv) RV_INSTANTIATE(vsm4r_vs)

}  // namespace cryptaccel::rv
