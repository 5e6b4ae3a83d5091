// Zvknha / Zvknhb semantics (vector crypto spec v1.0, "Zvknh[ab]"): vsha2ms (message schedule: 4 new words),
// vsha2ch / vsha2cl (two compression rounds with the high / low two words of vs1 as W+K). EGS = 4; SEW 32 is
// SHA-256 (Zvknha), SEW 64 SHA-512 (Zvknhb only). σ/Σ are algo/sha256.hpp's and algo/sha512.hpp's. Element k of
// a group is word k: vs2 = {a, b, e, f} as elements {3, 2, 1, 0}, vd = {c, d, g, h} likewise.
#include "algo/sha256.hpp"
#include "algo/sha512.hpp"
#include "rv/vector.hpp"

namespace cryptaccel::rv {

namespace {
struct Sha256 {
  using T = std::uint32_t;
  static T s0(T x) { return algo::sha256_ssig0(x); }
  static T s1(T x) { return algo::sha256_ssig1(x); }
  static T S0(T x) { return algo::sha256_bsig0(x); }
  static T S1(T x) { return algo::sha256_bsig1(x); }
};
struct Sha512 {
  using T = std::uint64_t;
  static T s0(T x) { return algo::sha512_ssig0(x); }
  static T s1(T x) { return algo::sha512_ssig1(x); }
  static T S0(T x) { return algo::sha512_bsig0(x); }
  static T S1(T x) { return algo::sha512_bsig1(x); }
};

template <class H>
typename H::T word(const std::uint8_t* eg, unsigned k) {
  typename H::T w;
  std::memcpy(&w, eg + k * sizeof w, sizeof w);
  return w;
}
template <class H>
void set_word(std::uint8_t* eg, unsigned k, typename H::T w) { std::memcpy(eg + k * sizeof w, &w, sizeof w); }

template <class H>
void ms(std::uint8_t* vd, const std::uint8_t* vs2, const std::uint8_t* vs1) {
  using T = typename H::T;
  T w[20] = {};  // w[5..8] are not inputs (and not used)
  for (unsigned k = 0; k < 4; ++k) w[k] = word<H>(vd, k);
  w[4] = word<H>(vs2, 0), w[9] = word<H>(vs2, 1), w[10] = word<H>(vs2, 2), w[11] = word<H>(vs2, 3);
  w[12] = word<H>(vs1, 0), w[13] = word<H>(vs1, 1), w[14] = word<H>(vs1, 2), w[15] = word<H>(vs1, 3);
  for (unsigned t = 16; t < 20; ++t) w[t] = H::s1(w[t - 2]) + w[t - 7] + H::s0(w[t - 15]) + w[t - 16];
  for (unsigned k = 0; k < 4; ++k) set_word<H>(vd, k, w[16 + k]);
}

template <class H>
void compress(std::uint8_t* vd, const std::uint8_t* vs2, const std::uint8_t* vs1, bool high) {
  using T = typename H::T;
  T a = word<H>(vs2, 3), b = word<H>(vs2, 2), e = word<H>(vs2, 1), f = word<H>(vs2, 0);
  T c = word<H>(vd, 3), d = word<H>(vd, 2), g = word<H>(vd, 1), h = word<H>(vd, 0);
  for (unsigned r = 0; r < 2; ++r) {
    const T wk = word<H>(vs1, (high ? 2 : 0) + r);
    const T t1 = h + H::S1(e) + ((e & f) ^ (~e & g)) + wk;
    const T t2 = H::S0(a) + ((a & b) ^ (a & c) ^ (b & c));
    h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  set_word<H>(vd, 3, a), set_word<H>(vd, 2, b), set_word<H>(vd, 1, e), set_word<H>(vd, 0, f);
}

enum class Kind { ms, ch, cl };

template <class X>
std::uint64_t sha2(Core& c, const Insn& d, std::uint64_t pc, Kind kind) {
  V_EG_BEGIN(4, false, true, true, 32 | 64)
  const std::string name = kOpInfo[d.op].mnemonic;
  V_REQUIRE(v.sew == 32 || (c.isa.extensions & EXT(zvknhb)),
            name + ": SEW 64 (SHA-512) needs Zvknhb; the ISA has only Zvknha");
  const unsigned vd = vec::vd(d), vs2 = vec::vs2(d), vs1 = vec::vs1(d);
  const unsigned egb = 4 * v.sewb;
  for (std::uint64_t g = v.vstart / 4; g < v.vl / 4; ++g) {
    std::uint8_t* out = vec::eg_ptr(c, vd, g, egb);
    const std::uint8_t* a = vec::eg_ptr(c, vs2, g, egb);
    const std::uint8_t* b = vec::eg_ptr(c, vs1, g, egb);
    if (kind == Kind::ms) v.sew == 32 ? ms<Sha256>(out, a, b) : ms<Sha512>(out, a, b);
    else v.sew == 32 ? compress<Sha256>(out, a, b, kind == Kind::ch) : compress<Sha512>(out, a, b, kind == Kind::ch);
  }
  vec::eg_timing(c, d, v, rules, vec::regs(vd, v.group) | vec::regs(vs2, v.group) | vec::regs(vs1, v.group),
                 vec::regs(vd, v.group));
  vec::finish(c);
  return NEXT;
}
}  // namespace

RV_EXEC(vsha2ms_vv) { return sha2<X>(c, d, pc, Kind::ms); }
RV_EXEC(vsha2ch_vv) { return sha2<X>(c, d, pc, Kind::ch); }
RV_EXEC(vsha2cl_vv) { return sha2<X>(c, d, pc, Kind::cl); }
RV_INSTANTIATE(vsha2ms_vv) RV_INSTANTIATE(vsha2ch_vv) RV_INSTANTIATE(vsha2cl_vv)

}  // namespace cryptaccel::rv
