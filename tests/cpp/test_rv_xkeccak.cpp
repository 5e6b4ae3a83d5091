// Seed 004's custom Keccak vector instructions (ISA extension xkeccak; docs/isa-lab.md, "Custom Keccak vector
// instructions") against a reading of the spec written out here: a plain 5x5 Keccak state model (FIPS 202 steps with
// the rho offsets and round constants derived from the standard's algorithms, bit interleaving by bit loops), the
// register layout (element 5i + x of row register y = lane (x, y) of state i, padding untouched), whole rounds from
// the instructions vs algo::keccak_round, every illegal case, the encodings vs rv/kernels/common/keccak_insn.h, the
// non-power-of-two VLENs, and the timing keys and the seed004 preset (exact mcycle deltas).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "algo/bit_interleave.hpp"
#include "algo/keccak.hpp"
#include "cryptaccel/rv.hpp"
#include "rv_vector_test_util.hpp"

namespace cryptaccel::test {
namespace {

using namespace rvv;
using rv::StopReason;

constexpr const char* kIsa64 = "rv64imcv_xkeccak";
constexpr const char* kIsa32 = "rv32imc_zve32x_xkeccak";  // seed 004's 32-bit architecture: ELEN 32

// ---- encodings (spec table: custom-2 0x5B, OP-V fields) ---------------------------------------------------------
constexpr std::uint32_t kop(unsigned f6, unsigned f3, unsigned vd, unsigned vs2, unsigned field, bool vm = true) {
  return 0x5Bu | f3 << 12 | vd << 7 | (field & 31) << 15 | vs2 << 20 | (vm ? 1u : 0u) << 25 | f6 << 26;
}
constexpr std::uint32_t vslidedownm(unsigned vd, unsigned vs2, unsigned u, bool vm = true) { return kop(0, 3, vd, vs2, u, vm); }
constexpr std::uint32_t vslideupm(unsigned vd, unsigned vs2, unsigned u, bool vm = true) { return kop(1, 3, vd, vs2, u, vm); }
constexpr std::uint32_t vrotup(unsigned vd, unsigned vs2, unsigned u, bool vm = true) { return kop(2, 3, vd, vs2, u, vm); }
constexpr std::uint32_t v64rho(unsigned vd, unsigned vs2, int simm, bool vm = true) {
  return kop(3, 3, vd, vs2, static_cast<unsigned>(simm), vm);
}
constexpr std::uint32_t vpi(unsigned vd, unsigned vs2, int simm, bool vm = true) {
  return kop(4, 3, vd, vs2, static_cast<unsigned>(simm), vm);
}
constexpr std::uint32_t viota(unsigned vd, unsigned vs2, unsigned rs1, bool vm = true) { return kop(5, 4, vd, vs2, rs1, vm); }
constexpr std::uint32_t v32lrotup(unsigned vd, unsigned vs2, unsigned vs1, bool vm = true) { return kop(8, 0, vd, vs2, vs1, vm); }
constexpr std::uint32_t v32hrotup(unsigned vd, unsigned vs2, unsigned vs1, bool vm = true) { return kop(9, 0, vd, vs2, vs1, vm); }
constexpr std::uint32_t v32lrho(unsigned vd, unsigned vs2, unsigned vs1, int row, bool vm = true) {
  return kop(0x10 | (row < 0 ? 7u : static_cast<unsigned>(row)), 0, vd, vs2, vs1, vm);
}
constexpr std::uint32_t v32hrho(unsigned vd, unsigned vs2, unsigned vs1, int row, bool vm = true) {
  return kop(0x18 | (row < 0 ? 7u : static_cast<unsigned>(row)), 0, vd, vs2, vs1, vm);
}
// Standard RVV used around them.
constexpr std::uint32_t vxor_vv(unsigned vd, unsigned vs2, unsigned vs1) { return opv(0x0b, IVV, vd, vs2, vs1); }
constexpr std::uint32_t vnot(unsigned vd, unsigned vs2) { return opv(0x0b, IVI, vd, vs2, 31); }  // vxor.vi -1
constexpr std::uint32_t vand_vv(unsigned vd, unsigned vs2, unsigned vs1) { return opv(0x09, IVV, vd, vs2, vs1); }
constexpr unsigned kMcycle = 0xB00;

// ---- an independent Keccak model (FIPS 202 §3.2, §3.3) ------------------------------------------------------
using Lanes = std::array<std::uint64_t, 25>;  // lane (x, y) at x + 5y

/// rho offsets by FIPS 202 Algorithm 2: (x, y) = (1, 0), offset (t+1)(t+2)/2, (x, y) <- (y, 2x + 3y).
std::array<unsigned, 25> model_rho() {
  std::array<unsigned, 25> r{};
  unsigned x = 1, y = 0;
  for (unsigned t = 0; t < 24; ++t) {
    r[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
    const unsigned nx = y, ny = (2 * x + 3 * y) % 5;
    x = nx, y = ny;
  }
  return r;
}
/// rc(t) of FIPS 202 Algorithm 5 (the LFSR), and RC of round i (Algorithm 6).
bool rc_bit(unsigned t) {
  unsigned r = 1;  // R[0] = 1, bit k = R[k]
  for (unsigned i = 1; i <= t % 255; ++i) {
    r <<= 1;
    const unsigned b8 = (r >> 8) & 1;
    r ^= b8 * (1u | 1u << 4 | 1u << 5 | 1u << 6);
    r &= 0xFF;
  }
  return r & 1;
}
std::uint64_t model_rc(unsigned round) {
  std::uint64_t rc = 0;
  for (unsigned j = 0; j <= 6; ++j)
    if (rc_bit(j + 7 * round)) rc |= std::uint64_t{1} << ((1u << j) - 1);
  return rc;
}
Lanes model_pi(const Lanes& a) {
  Lanes o{};
  for (unsigned x = 0; x < 5; ++x)
    for (unsigned y = 0; y < 5; ++y) o[x + 5 * y] = a[(x + 3 * y) % 5 + 5 * x];
  return o;
}
Lanes model_round(Lanes a, unsigned round) {
  static const auto rho = model_rho();
  std::array<std::uint64_t, 5> c{};
  for (unsigned x = 0; x < 5; ++x)
    for (unsigned y = 0; y < 5; ++y) c[x] ^= a[x + 5 * y];
  for (unsigned x = 0; x < 5; ++x)
    for (unsigned y = 0; y < 5; ++y) a[x + 5 * y] ^= c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
  for (unsigned i = 0; i < 25; ++i) a[i] = std::rotl(a[i], static_cast<int>(rho[i]));
  a = model_pi(a);
  Lanes o{};
  for (unsigned x = 0; x < 5; ++x)
    for (unsigned y = 0; y < 5; ++y) o[x + 5 * y] = a[x + 5 * y] ^ (~a[(x + 1) % 5 + 5 * y] & a[(x + 2) % 5 + 5 * y]);
  o[0] ^= model_rc(round);
  return o;
}
/// Bit interleaving by bit loops: even[j] = L[2j], odd[j] = L[2j + 1].
std::pair<std::uint32_t, std::uint32_t> split_bits(std::uint64_t l) {
  std::uint32_t e = 0, o = 0;
  for (unsigned j = 0; j < 32; ++j) {
    e |= static_cast<std::uint32_t>((l >> (2 * j)) & 1) << j;
    o |= static_cast<std::uint32_t>((l >> (2 * j + 1)) & 1) << j;
  }
  return {e, o};
}
std::uint64_t join_bits(std::uint32_t e, std::uint32_t o) {
  std::uint64_t l = 0;
  for (unsigned j = 0; j < 32; ++j) l |= std::uint64_t{(e >> j) & 1} << (2 * j) | std::uint64_t{(o >> j) & 1} << (2 * j + 1);
  return l;
}

// ---- the register file as the test sees it --------------------------------------------------------------------
/// 32 registers of VLEN/8 bytes; element k of the group at register `reg` (crossing registers as RVV does).
struct RegFile {
  unsigned vlenb = 0;
  std::vector<std::vector<std::uint8_t>> r;
  explicit RegFile(unsigned vlen) : vlenb(vlen / 8), r(32, std::vector<std::uint8_t>(vlen / 8)) {}
  std::uint64_t get(unsigned reg, std::uint64_t k, unsigned sewb) const {
    const std::uint64_t off = k * sewb;
    std::uint64_t v = 0;
    std::memcpy(&v, r.at(reg + off / vlenb).data() + off % vlenb, sewb);
    return v;
  }
  void put(unsigned reg, std::uint64_t k, unsigned sewb, std::uint64_t v) {
    const std::uint64_t off = k * sewb;
    std::memcpy(r.at(reg + off / vlenb).data() + off % vlenb, &v, sewb);
  }
  void randomize(std::mt19937_64& rng) {
    for (auto& reg : r)
      for (auto& b : reg) b = static_cast<std::uint8_t>(rng());
  }
};

/// A machine with an xkeccak ISA; run() loads a register file, runs a sequence, and reads the registers back.
class KMachine {
 public:
  KMachine(unsigned vlen, const char* isa, const std::string& model = {}) : vlen_(vlen), m_(vlen, isa, model) {}
  /// x2 = AVL of the sequence's vsetvli (x5 is the prologue's scratch register: sequences set it themselves).
  RegFile run(const RegFile& in, const std::vector<std::uint32_t>& body, std::uint64_t x2 = 0) {
    for (unsigned i = 0; i < 32; ++i) m_.set_vreg(i, in.r[i]);
    m_.machine().set_reg(2, x2);
    m_.run_ok(body);
    RegFile out(vlen_);
    for (unsigned i = 0; i < 32; ++i) out.r[i] = m_.vreg(i);
    return out;
  }
  StopReason run_stop(const std::vector<std::uint32_t>& body, std::uint64_t x2 = 0, std::uint64_t x7 = 0) {
    m_.machine().set_reg(2, x2);
    m_.machine().set_reg(7, x7);
    return m_.run(body);
  }
  std::string message() { return m_.machine().last_message(); }
  rv::Machine& machine() { return m_.machine(); }

 private:
  unsigned vlen_;
  VecMachine m_;
};

void expect_same(const RegFile& got, const RegFile& want, const std::string& what) {
  for (unsigned i = 0; i < 32; ++i)
    for (unsigned b = 0; b < want.vlenb; ++b)
      if (got.r[i][b] != want.r[i][b]) {
        ADD_FAILURE() << what << ": v" << i << " byte " << b << " is 0x" << std::hex << unsigned{got.r[i][b]} << ", expected 0x"
                      << unsigned{want.r[i][b]};
        return;
      }
}

/// The configurations of the seed (EleNum = 5*SN) and power-of-two VLENs with padding elements.
struct Geo {
  unsigned vlen, sew;
  unsigned ele() const { return vlen / sew; }
  unsigned sn() const { return ele() / 5; }
  unsigned sewb() const { return sew / 8; }
  std::string name() const { return "VLEN " + std::to_string(vlen) + " SEW " + std::to_string(sew); }
};
const std::vector<Geo> kGeos64 = {{320, 64}, {960, 64}, {1920, 64}, {512, 64}, {1024, 64}};
const std::vector<Geo> kGeos32 = {{160, 32}, {480, 32}, {960, 32}, {256, 32}};

/// The x2 = AVL, vsetvli x1, x2, e<sew>, m<2^lmul_log2> prefix.
std::uint32_t setvl(const Geo& g, int lmul_log2) { return vsetvli(1, 2, vtypei(g.sew, lmul_log2)); }

// ---- ISA string, VLEN, standard instructions at non-power-of-two VLEN ----------------------------------------------

TEST(RvXkeccak, IsaStringAndVlenRules) {
  EXPECT_TRUE(rv::parse_isa(kIsa64).has("xkeccak"));
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvkb_xkeccak").has("zvkb"));
  EXPECT_FALSE(rv::parse_isa("rv64gcv").has("xkeccak"));
  EXPECT_THROW(rv::parse_isa("rv64imc_xkeccak"), std::invalid_argument) << "xkeccak without a vector base";
  // Any multiple of ELEN from 128 to 4096 with xkeccak; powers of two only without it.
  for (unsigned vlen : {320u, 960u, 1920u, 192u, 4032u}) EXPECT_EQ(VecMachine(vlen, kIsa64).machine().vlen(), vlen);
  for (unsigned vlen : {160u, 480u, 960u}) EXPECT_EQ(VecMachine(vlen, kIsa32).machine().vlen(), vlen);
  EXPECT_THROW(VecMachine(320, "rv64imcv"), std::invalid_argument);
  EXPECT_THROW(VecMachine(160, kIsa64), std::invalid_argument) << "not a multiple of ELEN 64";
  EXPECT_THROW(VecMachine(4096 + 64, kIsa64), std::invalid_argument);
  EXPECT_THROW(VecMachine(96, kIsa32), std::invalid_argument);
  try {
    VecMachine bad(320, "rv64imcv");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("need xkeccak"), std::string::npos) << e.what();
  }
  EXPECT_EQ(VecMachine(320, "rv64imcv_zvl256b_xkeccak").machine().vlen(), 320u) << "zvl<N>b below VLEN keeps VLEN";
}

TEST(RvXkeccak, StandardInstructionsAtNonPowerOfTwoVlen) {
  // vsetvli: VLMAX = LMUL * VLEN / SEW (an integer: VLEN is a multiple of ELEN, and SEW <= LMUL * ELEN).
  struct Case {
    unsigned vlen;
    const char* isa;
    unsigned sew;
    int lmul_log2;
    std::uint64_t vlmax;
  };
  for (const Case& k : {Case{320, kIsa64, 64, 0, 5}, Case{320, kIsa64, 8, 3, 320}, Case{320, kIsa64, 64, 3, 40},
                        Case{320, kIsa64, 32, -1, 5}, Case{320, kIsa64, 16, -2, 5}, Case{960, kIsa64, 64, 0, 15},
                        Case{1920, kIsa64, 64, 3, 240}, Case{160, kIsa32, 32, 0, 5}, Case{160, kIsa32, 8, -2, 5},
                        Case{480, kIsa32, 32, 3, 120}}) {
    VecMachine m(k.vlen, k.isa);
    m.run_ok({vsetvli(1, 0, vtypei(k.sew, k.lmul_log2)), csrr(3, 0xC22) /* vlenb */});
    EXPECT_EQ(m.machine().reg(1), k.vlmax) << k.vlen << " e" << k.sew << " lmul 2^" << k.lmul_log2;
    EXPECT_EQ(m.machine().reg(3), k.vlen / 8u);
  }
  // Loads, arithmetic across register boundaries (40 elements in v8..v15 at LMUL 8), a slide across registers,
  // whole-register moves, and stores at VLEN 320.
  VecMachine m(320, kIsa64);
  std::vector<std::uint64_t> a(40), b(40);
  for (unsigned i = 0; i < 40; ++i) a[i] = 0x1000 + i, b[i] = std::uint64_t{7} << (i % 60);
  m.poke(kData, le_words64(a));
  m.poke(kData + 320, le_words64(b));
  m.machine().set_reg(10, kData);
  m.machine().set_reg(11, kData + 320);
  m.machine().set_reg(12, kData + 640);
  m.machine().set_reg(13, kData + 960);
  m.run_ok({vsetvli(1, 0, vtypei(64, 3)), vle(64, 8, 10), vle(64, 16, 11), vadd_vv(24, 8, 16), vse(64, 24, 12),
            vsetvli(1, 0, vtypei(64, 1)), opv(0x0f, IVI, 0, 8, 3) /* vslidedown.vi v0, v8, 3 */,
            vse(64, 0, 13)});
  const auto sum = m.peek(kData + 640, 320), slid = m.peek(kData + 960, 80);
  for (unsigned i = 0; i < 40; ++i) {
    std::uint64_t s, d;
    std::memcpy(&s, sum.data() + 8 * i, 8);
    EXPECT_EQ(s, a[i] + b[i]) << i;
    if (i < 10) {
      std::memcpy(&d, slid.data() + 8 * i, 8);
      EXPECT_EQ(d, i + 3 < 10 ? a[i + 3] : 0) << "vslidedown at LMUL 2 (10 elements of 2 registers), element " << i;
    }
  }
  // vstart keeps enough bits for VLEN - 1 (WARL), here 9 bits.
  m.run_ok({addi(5, 0, 0x3FF), 0x00801073u | 5u << 15 /* csrw vstart, x5 */, csrr(6, 0x008)});
  EXPECT_EQ(m.machine().reg(6), 0x1FFu);
}

// ---- the instructions one by one -------------------------------------------------------------------------------

TEST(RvXkeccak, SlidesModuloFiveKeepEachStateApart) {
  std::mt19937_64 rng(1);
  for (const bool is32 : {false, true})
    for (const Geo& g : is32 ? kGeos32 : kGeos64)
      for (const unsigned u : {1u, 2u, 4u, 7u})
        for (const int lmul_log2 : {0, 3})
          for (const bool masked : {false, true}) {
            KMachine m(g.vlen, is32 ? kIsa32 : kIsa64);
            RegFile in(g.vlen);
            in.randomize(rng);
            // LMUL 1: one row of SN states, vl = 5*SN. LMUL 8: the whole group, vl = VLMAX (rows 5..7 slide too).
            const std::uint64_t vl = lmul_log2 == 0 ? 5 * g.sn() : 8 * g.ele();
            const RegFile out = m.run(in, {setvl(g, lmul_log2), vslidedownm(8, 16, u, !masked), vslideupm(24, 16, u, !masked)}, vl);
            RegFile want = in;
            for (std::uint64_t e = 0; e < vl; ++e) {
              const std::uint64_t r = e / g.ele(), p = e % g.ele(), i = p / 5, x = p % 5;
              if (p >= 5 * g.sn() || (masked && !((in.r[0][e / 8] >> (e % 8)) & 1))) continue;
              // Lane x of state i takes lane x + u (down) / x - u (up), modulo 5, of the same state and row.
              want.put(8, e, g.sewb(), in.get(16, r * g.ele() + 5 * i + (x + u) % 5, g.sewb()));
              want.put(24, e, g.sewb(), in.get(16, r * g.ele() + 5 * i + (x + 5 - u % 5) % 5, g.sewb()));
            }
            expect_same(out, want, g.name() + " uimm " + std::to_string(u) + " LMUL 2^" + std::to_string(lmul_log2) +
                                       (masked ? " masked" : ""));
          }
}

TEST(RvXkeccak, RotateAndRho64) {
  std::mt19937_64 rng(2);
  const auto rho = model_rho();
  for (const Geo& g : kGeos64) {
    KMachine m(g.vlen, kIsa64);
    RegFile in(g.vlen);
    in.randomize(rng);
    const std::uint64_t vl = 5 * g.sn();
    // vrotup by 0, 1, 13, 31; in place too (an element-wise instruction may overwrite its source).
    for (const unsigned u : {0u, 1u, 13u, 31u}) {
      const RegFile out = m.run(in, {setvl(g, 0), vrotup(8, 16, u), vrotup(17, 17, u)}, vl);
      RegFile want = in;
      for (std::uint64_t p = 0; p < vl; ++p) {
        want.put(8, p, 8, std::rotl(in.get(16, p, 8), static_cast<int>(u)));
        want.put(17, p, 8, std::rotl(in.get(17, p, 8), static_cast<int>(u)));
      }
      expect_same(out, want, g.name() + " vrotup " + std::to_string(u));
    }
    // v64rho at LMUL 1: row y in v16+y with simm = y; simm = -1 at LMUL 1 is row 0 (lmul_cnt = 0); masked.
    std::vector<std::uint32_t> prog = {setvl(g, 0)};
    for (int y = 0; y < 5; ++y) prog.push_back(v64rho(8 + y, 16 + y, y));
    prog.push_back(v64rho(13, 21, -1));
    prog.push_back(v64rho(14, 22, 3, /*vm=*/false));
    const RegFile out = m.run(in, prog, vl);
    RegFile want = in;
    for (std::uint64_t p = 0; p < vl; ++p) {
      const unsigned x = p % 5;
      for (unsigned y = 0; y < 5; ++y) want.put(8 + y, p, 8, std::rotl(in.get(16 + y, p, 8), static_cast<int>(rho[x + 5 * y])));
      want.put(13, p, 8, std::rotl(in.get(21, p, 8), static_cast<int>(rho[x])));
      if ((in.r[0][p / 8] >> (p % 8)) & 1) want.put(14, p, 8, std::rotl(in.get(22, p, 8), static_cast<int>(rho[x + 15])));
    }
    expect_same(out, want, g.name() + " v64rho LMUL 1");
    // LMUL 8: simm = -1 walks the rows (register r of the group is row r); simm = 2 applies row 2 everywhere.
    const std::uint64_t vl8 = 5 * g.ele();
    const RegFile out8 = m.run(in, {setvl(g, 3), v64rho(8, 16, -1), v64rho(24, 16, 2)}, vl8);
    RegFile want8 = in;
    for (std::uint64_t e = 0; e < vl8; ++e) {
      const std::uint64_t r = e / g.ele(), p = e % g.ele();
      if (p >= 5 * g.sn()) continue;
      want8.put(8, e, 8, std::rotl(in.get(16, e, 8), static_cast<int>(rho[p % 5 + 5 * r])));
      want8.put(24, e, 8, std::rotl(in.get(16, e, 8), static_cast<int>(rho[p % 5 + 10])));
    }
    expect_same(out8, want8, g.name() + " v64rho LMUL 8");
  }
}

/// Loads SN random states as rows (row y of every state in register base + y) and returns them.
std::vector<Lanes> put_states(RegFile& f, const Geo& g, unsigned base, std::mt19937_64& rng) {
  std::vector<Lanes> s(g.sn());
  for (unsigned i = 0; i < g.sn(); ++i)
    for (unsigned l = 0; l < 25; ++l) {
      s[i][l] = rng();
      f.put(base + l / 5, 5 * i + l % 5, 8, s[i][l]);
    }
  return s;
}

TEST(RvXkeccak, PiReproducesFips202AtLmul1AndLmul8) {
  std::mt19937_64 rng(3);
  for (const Geo& g : kGeos64) {
    KMachine m(g.vlen, kIsa64);
    RegFile in(g.vlen);
    in.randomize(rng);
    const std::vector<Lanes> states = put_states(in, g, 16, rng);
    // LMUL 1: one row a time, vpi v8, v16+t, t writes column t of v8..v12.
    std::vector<std::uint32_t> prog = {setvl(g, 0)};
    for (int t = 0; t < 5; ++t) prog.push_back(vpi(8, 16 + t, t));
    const RegFile out1 = m.run(in, prog, 5 * g.sn());
    // LMUL 8: vpi v8, v16, -1 with vl = 5*EleNum (all rows).
    const RegFile out8 = m.run(in, {setvl(g, 3), vpi(8, 16, -1)}, 5 * g.ele());
    RegFile want = in;
    for (unsigned i = 0; i < g.sn(); ++i) {
      const Lanes f = model_pi(states[i]);
      for (unsigned l = 0; l < 25; ++l) want.put(8 + l / 5, 5 * i + l % 5, 8, f[l]);
    }
    expect_same(out1, want, g.name() + " vpi LMUL 1");
    expect_same(out8, want, g.name() + " vpi LMUL 8");
    // vl short of the group: source lanes at elements >= vl do not move (F[x', y'] = E[(x' + 3y') mod 5, x']).
    const std::uint64_t vl = 5 * g.ele() - 2;
    const RegFile part = m.run(in, {setvl(g, 3), vpi(8, 16, -1)}, vl);
    RegFile want_part = in;
    for (unsigned i = 0; i < g.sn(); ++i)
      for (unsigned x = 0; x < 5; ++x)
        for (unsigned y = 0; y < 5; ++y) {
          const unsigned sx = (x + 3 * y) % 5, sy = x;
          if (sy * g.ele() + 5 * i + sx < vl) want_part.put(8 + y, 5 * i + x, 8, states[i][sx + 5 * sy]);
        }
    expect_same(part, want_part, g.name() + " vpi vl = 5*EleNum - 2");
  }
  // SEW 32: the same permutation on words.
  for (const Geo& g : kGeos32) {
    KMachine m(g.vlen, kIsa32);
    RegFile in(g.vlen);
    in.randomize(rng);
    const RegFile out = m.run(in, {setvl(g, 3), vpi(8, 0, -1)}, 5 * g.ele());
    RegFile want = in;
    for (unsigned i = 0; i < g.sn(); ++i)
      for (unsigned x = 0; x < 5; ++x)
        for (unsigned y = 0; y < 5; ++y) want.put(8 + y, 5 * i + x, 4, in.get(0 + x, 5 * i + (x + 3 * y) % 5, 4));
    expect_same(out, want, g.name() + " vpi SEW 32");
  }
}

TEST(RvXkeccak, IotaXorsTheRoundConstantIntoLaneZeroZero) {
  std::mt19937_64 rng(4);
  for (const Geo& g : {kGeos64[0], kGeos64[2], kGeos64[3]}) {
    KMachine m(g.vlen, kIsa64);
    for (unsigned round = 0; round < 24; ++round) {
      RegFile in(g.vlen);
      in.randomize(rng);
      // x5 carries the round in bits 4..0; higher bits (bit 5 and up) are ignored at SEW 64. Unmasked and masked,
      // LMUL 1 (one row) and LMUL 8 (row 0 only gets RC; the other rows are copied).
      const std::uint64_t x5 = round | (std::uint64_t{round & 3} << 5);
      const RegFile out = m.run(in, {setvl(g, 0), addi(5, 0, static_cast<int>(x5)), viota(8, 16, 5), viota(9, 17, 5, false),
                                     setvl(g, 3), viota(24, 16, 5)},
                                5 * g.sn());
      RegFile want = in;
      for (unsigned p = 0; p < 5 * g.sn(); ++p) {
        const std::uint64_t rc = p % 5 == 0 ? model_rc(round) : 0;
        want.put(8, p, 8, in.get(16, p, 8) ^ rc);
        if ((in.r[0][p / 8] >> (p % 8)) & 1) want.put(9, p, 8, in.get(17, p, 8) ^ rc);
      }
      // The LMUL 8 run kept vl = 5*SN (one row) after vsetvli with the same AVL.
      for (unsigned p = 0; p < 5 * g.sn(); ++p) want.put(24, p, 8, in.get(16, p, 8) ^ (p % 5 == 0 ? model_rc(round) : 0));
      expect_same(out, want, g.name() + " viota round " + std::to_string(round));
      const RegFile all = m.run(in, {setvl(g, 3), addi(5, 0, static_cast<int>(round)), viota(24, 16, 5)}, 5 * g.ele());
      RegFile want_all = in;
      for (std::uint64_t e = 0; e < 5 * g.ele(); ++e) {
        const std::uint64_t p = e % g.ele();
        if (p >= 5 * g.sn()) continue;
        want_all.put(24, e, 8, in.get(16, e, 8) ^ (e < g.ele() && p % 5 == 0 ? model_rc(round) : 0));
      }
      expect_same(all, want_all, g.name() + " viota LMUL 8 round " + std::to_string(round));
    }
  }
  // SEW 32: bit 5 of x[rs1] picks the odd word of the bit-interleaved constant.
  for (const Geo& g : kGeos32) {
    KMachine m(g.vlen, kIsa32);
    for (unsigned round : {0u, 1u, 7u, 23u}) {
      RegFile in(g.vlen);
      in.randomize(rng);
      const auto [even, odd] = split_bits(model_rc(round));
      const RegFile out = m.run(in, {setvl(g, 0), addi(5, 0, static_cast<int>(round)), addi(6, 0, static_cast<int>(round | 32)),
                                     viota(8, 16, 5), viota(9, 17, 6)},
                                5 * g.sn());
      RegFile want = in;
      for (unsigned p = 0; p < 5 * g.sn(); ++p) {
        want.put(8, p, 4, in.get(16, p, 4) ^ (p % 5 == 0 ? even : 0));
        want.put(9, p, 4, in.get(17, p, 4) ^ (p % 5 == 0 ? odd : 0));
      }
      expect_same(out, want, g.name() + " viota SEW 32 round " + std::to_string(round));
    }
  }
}

TEST(RvXkeccak, BitInterleavedRotatesAndRho) {
  std::mt19937_64 rng(5);
  const auto rho = model_rho();
  // The library's helpers against the bit loops.
  for (int t = 0; t < 1000; ++t) {
    const std::uint64_t l = rng();
    const auto [e, o] = split_bits(l);
    const algo::InterleavedLane il = algo::interleave_lane(l);
    ASSERT_EQ(il.even, e);
    ASSERT_EQ(il.odd, o);
    ASSERT_EQ(algo::deinterleave_lane(e, o), l);
    ASSERT_EQ(join_bits(e, o), l);
  }
  for (const bool rv64 : {false, true})
    for (const Geo& g : kGeos32) {
      if (rv64 && g.vlen % 64 != 0) continue;
      KMachine m(g.vlen, rv64 ? "rv64imcv_xkeccak" : kIsa32);
      RegFile in(g.vlen);
      in.randomize(rng);
      // (vs2, vs1) = (O, E): O rows in v8.., E rows in v0.. (row y of the lane layout in register + y).
      std::vector<std::uint32_t> prog = {setvl(g, 0), v32lrotup(16, 8, 0), v32hrotup(17, 8, 0),
                                         v32lrotup(18, 9, 1, /*vm=*/false)};
      for (int y = 0; y < 5; ++y) prog.insert(prog.end(), {v32lrho(20 + y, 8 + y, 0 + y, y), v32hrho(25 + y, 8 + y, 0 + y, y)});
      const std::uint64_t vl = 5 * g.sn();
      const RegFile out = m.run(in, prog, vl);
      RegFile want = in;
      const auto lane = [&](unsigned y, std::uint64_t p) {
        return join_bits(static_cast<std::uint32_t>(in.get(0 + y, p, 4)), static_cast<std::uint32_t>(in.get(8 + y, p, 4)));
      };
      for (std::uint64_t p = 0; p < vl; ++p) {
        const auto [e1, o1] = split_bits(std::rotl(lane(0, p), 1));
        want.put(16, p, 4, e1);
        want.put(17, p, 4, o1);
        if ((in.r[0][p / 8] >> (p % 8)) & 1) want.put(18, p, 4, split_bits(std::rotl(lane(1, p), 1)).first);
        for (unsigned y = 0; y < 5; ++y) {
          const auto [er, orr] = split_bits(std::rotl(lane(y, p), static_cast<int>(rho[p % 5 + 5 * y])));
          want.put(20 + y, p, 4, er);
          want.put(25 + y, p, 4, orr);
        }
      }
      expect_same(out, want, g.name() + (rv64 ? " RV64" : " RV32") + " v32*rotup / v32*rho");
      // LMUL 8, all rows: E in v0..v4, O in v8..v12.
      const RegFile out8 = m.run(in, {setvl(g, 3), v32lrho(16, 8, 0, -1), v32hrho(24, 8, 0, -1)}, 5 * g.ele());
      RegFile want8 = in;
      for (std::uint64_t e = 0; e < 5 * g.ele(); ++e) {
        const std::uint64_t r = e / g.ele(), p = e % g.ele();
        if (p >= 5 * g.sn()) continue;
        const auto [er, orr] = split_bits(std::rotl(lane(static_cast<unsigned>(r), p), static_cast<int>(rho[p % 5 + 5 * r])));
        want8.put(16, e, 4, er);
        want8.put(24, e, 4, orr);
      }
      expect_same(out8, want8, g.name() + " v32*rho LMUL 8");
    }
}

// ---- whole rounds ---------------------------------------------------------------------------------------------

/// One Keccak-f[1600] round, 64-bit lanes, LMUL 1: rows A in v0..v4, round index in x5 (set by the caller).
std::vector<std::uint32_t> round64_lmul1(const Geo& g) {
  std::vector<std::uint32_t> p = {setvl(g, 0)};
  // theta: C = xor of the rows (v5); D = C[x-1] ^ rotl(C[x+1], 1) (v6); A ^= D.
  p.insert(p.end(), {vxor_vv(5, 0, 1), vxor_vv(5, 5, 2), vxor_vv(5, 5, 3), vxor_vv(5, 5, 4), vslideupm(6, 5, 1),
                     vslidedownm(7, 5, 1), vrotup(7, 7, 1), vxor_vv(6, 6, 7)});
  for (unsigned y = 0; y < 5; ++y) p.push_back(vxor_vv(y, y, 6));
  // rho into v10..v14, pi into v15..v19 (column t from row t).
  for (int y = 0; y < 5; ++y) p.push_back(v64rho(10 + y, y, y));
  for (int t = 0; t < 5; ++t) p.push_back(vpi(15, 10 + t, t));
  // chi: A_y = F_y ^ (~F_y[x+1] & F_y[x+2]); iota on row 0.
  for (unsigned y = 0; y < 5; ++y)
    p.insert(p.end(), {vslidedownm(20, 15 + y, 1), vslidedownm(21, 15 + y, 2), vnot(20, 20), vand_vv(20, 20, 21),
                       vxor_vv(y, 15 + y, 20)});
  p.push_back(viota(0, 0, 5));
  return p;
}

/// The same with LMUL 8 for rho, pi, chi and iota (rows A in v0..v4 of the group v0..v7).
std::vector<std::uint32_t> round64_lmul8(const Geo& g) {
  std::vector<std::uint32_t> p = {setvl(g, 0), vxor_vv(8, 0, 1), vxor_vv(8, 8, 2), vxor_vv(8, 8, 3), vxor_vv(8, 8, 4),
                                  vslideupm(9, 8, 1), vslidedownm(10, 8, 1), vrotup(11, 10, 1), vxor_vv(12, 9, 11)};
  for (unsigned y = 0; y < 5; ++y) p.push_back(vxor_vv(y, y, 12));
  // x3 = 5 * EleNum: every row of the group.
  p.insert(p.end(), {vsetvli(1, 3, vtypei(64, 3)), v64rho(8, 0, -1), vpi(16, 8, -1), vslidedownm(24, 16, 1),
                     vslidedownm(0, 16, 2), vnot(24, 24), vand_vv(24, 24, 0), vxor_vv(0, 16, 24), viota(0, 0, 5)});
  return p;
}

TEST(RvXkeccak, WholeRounds64BitEqualTheLibrary) {
  std::mt19937_64 rng(6);
  for (const Geo& g : kGeos64)
    for (const bool lmul8 : {false, true}) {
      KMachine m(g.vlen, kIsa64);
      RegFile in(g.vlen);
      in.randomize(rng);
      std::vector<Lanes> states = put_states(in, g, 0, rng);
      std::vector<std::uint32_t> prog = lmul8 ? round64_lmul8(g) : round64_lmul1(g);
      for (unsigned round : {0u, 5u, 23u}) {
        m.machine().set_reg(3, 5 * g.ele());
        std::vector<std::uint32_t> body = {addi(5, 0, static_cast<int>(round))};
        body.insert(body.end(), prog.begin(), prog.end());
        in = m.run(in, body, 5 * g.sn());
        for (unsigned i = 0; i < g.sn(); ++i) {
          Lanes lib = states[i];
          algo::keccak_round(lib.data(), algo::kKeccakRc_host[round]);
          states[i] = model_round(states[i], round);
          ASSERT_EQ(states[i], lib) << "the test's model and the library disagree";
          for (unsigned l = 0; l < 25; ++l)
            ASSERT_EQ(in.get(l / 5, 5 * i + l % 5, 8), states[i][l])
                << g.name() << (lmul8 ? " LMUL 8" : " LMUL 1") << " round " << round << " state " << i << " lane " << l;
        }
      }
    }
}

TEST(RvXkeccak, WholeRounds32BitInterleavedEqualTheLibrary) {
  std::mt19937_64 rng(7);
  for (const Geo& g : kGeos32) {
    KMachine m(g.vlen, kIsa32);
    RegFile in(g.vlen);
    in.randomize(rng);
    // E rows in v0..v4, O rows in v8..v12.
    std::vector<Lanes> states(g.sn());
    for (unsigned i = 0; i < g.sn(); ++i)
      for (unsigned l = 0; l < 25; ++l) {
        states[i][l] = rng();
        const auto [e, o] = split_bits(states[i][l]);
        in.put(0 + l / 5, 5 * i + l % 5, 4, e);
        in.put(8 + l / 5, 5 * i + l % 5, 4, o);
      }
    std::vector<std::uint32_t> p = {setvl(g, 0)};
    // theta on both halves: C_E v16, C_O v17; C[x+1] rotated by 1 from (O, E) = (v19, v18); C[x-1] in v22/v23.
    p.insert(p.end(), {vxor_vv(16, 0, 1), vxor_vv(16, 16, 2), vxor_vv(16, 16, 3), vxor_vv(16, 16, 4), vxor_vv(17, 8, 9),
                       vxor_vv(17, 17, 10), vxor_vv(17, 17, 11), vxor_vv(17, 17, 12), vslidedownm(18, 16, 1),
                       vslidedownm(19, 17, 1), v32lrotup(20, 19, 18), v32hrotup(21, 19, 18), vslideupm(22, 16, 1),
                       vslideupm(23, 17, 1), vxor_vv(24, 22, 20), vxor_vv(25, 23, 21)});
    for (unsigned y = 0; y < 5; ++y) p.insert(p.end(), {vxor_vv(y, y, 24), vxor_vv(8 + y, 8 + y, 25)});
    // rho (E' v16.., O' v24..), pi back into v0.. / v8.., chi on each half, iota (x5: even word, x6: odd word).
    p.insert(p.end(), {vsetvli(1, 3, vtypei(32, 3)), v32lrho(16, 8, 0, -1), v32hrho(24, 8, 0, -1), vpi(0, 16, -1),
                       vpi(8, 24, -1)});
    for (unsigned h : {0u, 8u})
      p.insert(p.end(), {vslidedownm(16, h, 1), vslidedownm(24, h, 2), vnot(16, 16), vand_vv(16, 16, 24), vxor_vv(h, h, 16)});
    p.insert(p.end(), {viota(0, 0, 5), viota(8, 8, 6)});
    for (unsigned round : {0u, 3u, 23u}) {
      m.machine().set_reg(3, 5 * g.ele());
      std::vector<std::uint32_t> body = {addi(5, 0, static_cast<int>(round)), addi(6, 0, static_cast<int>(round | 32))};
      body.insert(body.end(), p.begin(), p.end());
      in = m.run(in, body, 5 * g.sn());
      for (unsigned i = 0; i < g.sn(); ++i) {
        algo::keccak_round(states[i].data(), algo::kKeccakRc_host[round]);
        for (unsigned l = 0; l < 25; ++l)
          ASSERT_EQ(join_bits(static_cast<std::uint32_t>(in.get(l / 5, 5 * i + l % 5, 4)),
                              static_cast<std::uint32_t>(in.get(8 + l / 5, 5 * i + l % 5, 4))),
                    states[i][l])
              << g.name() << " round " << round << " state " << i << " lane " << l;
      }
    }
  }
}

// ---- legality ----------------------------------------------------------------------------------------------------

TEST(RvXkeccak, EveryIllegalCaseStopsWithItsRule) {
  struct Case {
    const char* isa;
    unsigned vlen;
    std::uint32_t vtype;
    std::uint64_t avl;  // x2 (0: VLMAX)
    std::uint32_t insn;
    std::uint64_t x7;
    const char* needle;
  };
  const std::vector<Case> cases = {
      {kIsa64, 320, vtypei(32, 0), 5, vrotup(8, 16, 1), 0, "vrotup.vi: SEW must be 64 (is 32)"},
      {kIsa64, 320, vtypei(32, 0), 5, v64rho(8, 16, 1), 0, "v64rho.vi: SEW must be 64"},
      {kIsa64, 320, vtypei(64, 0), 5, v32lrotup(8, 16, 24), 0, "v32lrotup.vi: SEW must be 32 (is 64)"},
      {kIsa64, 320, vtypei(64, 0), 5, v32hrho(8, 16, 24, 1), 0, "v32hrho.vi: SEW must be 32"},
      {kIsa64, 320, vtypei(16, 0), 5, vslidedownm(8, 16, 1), 0, "vslidedownm.vi: SEW must be 32 or 64 (is 16)"},
      {kIsa64, 320, vtypei(8, 0), 5, viota(8, 16, 7), 0, "SEW must be 32 or 64"},
      {kIsa64, 128, vtypei(64, 0), 2, vslideupm(8, 16, 1), 0, "hold no Keccak state (SN = 0)"},
      {kIsa64, 320, vtypei(64, 1), 10, vslidedownm(9, 16, 1), 0, "register group not aligned to LMUL 2"},
      {kIsa64, 320, vtypei(64, 1), 10, vrotup(8, 17, 1), 0, "register group not aligned to LMUL 2"},
      {kIsa32, 160, vtypei(32, 1), 10, v32lrho(8, 16, 3, 0), 0, "register group not aligned to LMUL 2"},
      {kIsa64, 320, vtypei(64, 0), 5, vpi(8, 16, 0, /*vm=*/false), 0, "vpi.vi: vpi has no masked form (vm = 0)"},
      {kIsa64, 320, vtypei(64, 0), 5, vpi(28, 16, 0), 0, "destination registers v28..v32 pass v31"},
      {kIsa64, 320, vtypei(64, 0), 5, vpi(14, 16, 2), 0, "destination registers v14..v18 overlap the source registers v16..v16"},
      {kIsa64, 320, vtypei(64, 3), 25, vpi(8, 0, -1), 0, ""},  // legal: v8..v12 and v0..v4 are disjoint
      {kIsa64, 320, vtypei(64, 3), 25, vpi(0, 0, -1), 0, "overlap the source registers v0..v4"},
      {kIsa64, 320, vtypei(64, 1), 10, vpi(8, 16, 1), 0, "vl = 10 exceeds EleNum = 5: simm = 1 names one row"},
      {kIsa64, 320, vtypei(64, 3), 30, v64rho(8, 16, -1), 0, "vl = 30 reaches register 5 of the group, but the rows are 0..4"},
      {kIsa64, 320, vtypei(64, 3), 30, vpi(8, 16, -1), 0, "but the rows are 0..4 (all rows: vl <= 5*EleNum = 25)"},
      {kIsa32, 160, vtypei(32, 3), 26, v32lrho(16, 8, 0, -1), 0, "reaches register 5"},
      {kIsa64, 320, vtypei(64, 0), 5, v64rho(8, 16, 5), 0, "v64rho.vi: simm = 5 is not a row (0..4) or -1 (all rows)"},
      {kIsa64, 320, vtypei(64, 0), 5, v64rho(8, 16, -2), 0, "simm = -2 is not a row"},
      {kIsa64, 320, vtypei(64, 0), 5, vpi(8, 16, 9), 0, "vpi.vi: simm = 9 is not a row"},
      {kIsa32, 160, vtypei(32, 0), 5, v32lrho(8, 16, 24, 5), 0, "v32lrho.vi: funct6[2:0] = 5 is reserved"},
      {kIsa32, 160, vtypei(32, 0), 5, v32hrho(8, 16, 24, 6), 0, "v32hrho.vi: funct6[2:0] = 6 is reserved"},
      {kIsa64, 320, vtypei(64, 0), 5, viota(8, 16, 7), 24, "viota.vx: x[rs1] & 31 = 24 is not a round index (0..23)"},
      {kIsa64, 320, vtypei(64, 0), 5, viota(8, 16, 7), 63, "x[rs1] & 31 = 31 is not a round index"},
      {kIsa64, 320, vtypei(64, 0), 5, vslidedownm(16, 16, 1), 0, "vslidedownm.vi: vd overlaps vs2"},
      {kIsa64, 320, vtypei(64, 3), 25, vslideupm(8, 8, 1), 0, "vslideupm.vi: vd overlaps vs2"},
      {kIsa64, 320, vtypei(64, 0), 5, vrotup(0, 16, 1, /*vm=*/false), 0, "masked instruction writing v0"},
      {kIsa64, 320, vtypei(64, 0), 5, viota(0, 16, 7, false), 3, "masked instruction writing v0"},
  };
  for (const Case& k : cases) {
    KMachine m(k.vlen, k.isa);
    const StopReason r = m.run_stop({vsetvli(1, 2, k.vtype), k.insn}, k.avl, k.x7);
    if (*k.needle == 0) {
      EXPECT_EQ(r, StopReason::instruction_limit) << m.message();
      continue;
    }
    EXPECT_EQ(r, StopReason::illegal_instruction) << k.needle;
    EXPECT_NE(m.message().find(k.needle), std::string::npos) << m.message();
    EXPECT_EQ(m.message().rfind("stopped at pc 0x", 0), 0u) << m.message();
  }
  // vtype not set, mstatus.VS off.
  KMachine fresh(320, kIsa64);
  EXPECT_EQ(fresh.run_stop({vrotup(8, 16, 1)}), StopReason::illegal_instruction);
  EXPECT_NE(fresh.message().find("vill"), std::string::npos) << fresh.message();
  VecMachine off(320, kIsa64);
  EXPECT_EQ(off.run({vrotup(8, 16, 1)}, /*enable_vs=*/false), StopReason::illegal_instruction);
  EXPECT_NE(off.machine().last_message().find("mstatus.VS"), std::string::npos);
  // The rest of the custom-2 space is not an instruction.
  for (const std::uint32_t w : {kop(6, 3, 8, 16, 1), kop(0, 0, 8, 16, 1), kop(5, 3, 8, 16, 1), kop(0x20, 0, 8, 16, 1),
                                kop(0, 7, 8, 16, 1)}) {
    KMachine m(320, kIsa64);
    EXPECT_EQ(m.run_stop({vsetvli(1, 0, vtypei(64, 0)), w}), StopReason::illegal_instruction);
    EXPECT_NE(m.message().find("unknown instruction"), std::string::npos) << m.message();
  }
}

TEST(RvXkeccak, DisabledWithoutXkeccak) {
  VecMachine m(256, "rv64imcv");
  EXPECT_EQ(m.run({vsetvli(1, 0, vtypei(64, 0)), vpi(8, 16, 0)}), StopReason::disabled_extension);
  EXPECT_NE(m.machine().last_message().find("instruction vpi.vi requires extension xkeccak (not in the ISA string)"),
            std::string::npos)
      << m.machine().last_message();
  EXPECT_EQ(rv::decode_mnemonic(vpi(8, 16, 0), "rv64imcv"), "");
  EXPECT_EQ(rv::decode_mnemonic(vpi(8, 16, 0), "rv64imcv_xkeccak"), "vpi.vi");
}

// ---- encodings vs the spec table and vs keccak_insn.h ---------------------------------------------------------------

struct Enc {
  const char* mnemonic;
  std::uint32_t word;  // vd = v8, vs2 = v16, [19:15] as given
  const char* asm_line;  // the header macro (assembler form) producing it
};
const std::vector<Enc> kEncs = {
    {"vslidedownm.vi", vslidedownm(8, 16, 1), "KECCAK_VSLIDEDOWNM v8, v16, 1"},
    {"vslideupm.vi", vslideupm(8, 16, 4), "KECCAK_VSLIDEUPM v8, v16, 4"},
    {"vrotup.vi", vrotup(8, 16, 31), "KECCAK_VROTUP v8, v16, 31"},
    {"v64rho.vi", v64rho(8, 16, 3), "KECCAK_V64RHO v8, v16, 3"},
    {"v64rho.vi", v64rho(8, 16, -1), "KECCAK_V64RHO v8, v16, KECCAK_ALL_ROWS"},
    {"vpi.vi", vpi(8, 16, 2), "KECCAK_VPI v8, v16, 2"},
    {"vpi.vi", vpi(8, 16, -1), "KECCAK_VPI v8, v16, KECCAK_ALL_ROWS"},
    {"viota.vx", viota(8, 16, 5), "KECCAK_VIOTA v8, v16, t0"},
    {"v32lrotup.vi", v32lrotup(8, 16, 24), "KECCAK_V32LROTUP v8, v16, v24"},
    {"v32hrotup.vi", v32hrotup(8, 16, 24), "KECCAK_V32HROTUP v8, v16, v24"},
    {"v32lrho.vi", v32lrho(8, 16, 24, 0), "KECCAK_V32LRHO v8, v16, v24, 0"},
    {"v32lrho.vi", v32lrho(8, 16, 24, 4), "KECCAK_V32LRHO v8, v16, v24, 4"},
    {"v32lrho.vi", v32lrho(8, 16, 24, -1), "KECCAK_V32LRHO v8, v16, v24, KECCAK_ALL_ROWS"},
    {"v32hrho.vi", v32hrho(8, 16, 24, 2), "KECCAK_V32HRHO v8, v16, v24, 2"},
    {"v32hrho.vi", v32hrho(8, 16, 24, -1), "KECCAK_V32HRHO v8, v16, v24, KECCAK_ALL_ROWS"},
};

TEST(RvXkeccak, EncodingsFollowTheSpecTable) {
  // Field by field: opcode custom-2, funct6/funct3 of the table, vm = 1 (unmasked), vd/vs2/[19:15] in place.
  struct Row {
    const char* mnemonic;
    unsigned funct6, funct3;
  };
  for (const Row& row : {Row{"vslidedownm.vi", 0b000000, 0b011}, Row{"vslideupm.vi", 0b000001, 0b011},
                         Row{"vrotup.vi", 0b000010, 0b011}, Row{"v64rho.vi", 0b000011, 0b011}, Row{"vpi.vi", 0b000100, 0b011},
                         Row{"viota.vx", 0b000101, 0b100}, Row{"v32lrotup.vi", 0b001000, 0b000},
                         Row{"v32hrotup.vi", 0b001001, 0b000}, Row{"v32lrho.vi", 0b010000, 0b000},
                         Row{"v32hrho.vi", 0b011000, 0b000}}) {
    const std::uint32_t w = 0x5Bu | row.funct3 << 12 | 8u << 7 | 24u << 15 | 16u << 20 | 1u << 25 | row.funct6 << 26;
    EXPECT_EQ(rv::decode_mnemonic(w, kIsa64), row.mnemonic);
  }
  for (const Enc& e : kEncs) {
    EXPECT_EQ(e.word & 0x7F, 0x5Bu);
    EXPECT_EQ((e.word >> 7) & 31, 8u);
    EXPECT_EQ((e.word >> 20) & 31, 16u);
    EXPECT_EQ((e.word >> 25) & 1, 1u);
    EXPECT_EQ(rv::decode_mnemonic(e.word, kIsa64), e.mnemonic) << e.asm_line;
    EXPECT_EQ(rv::decode_mnemonic(e.word, kIsa32), e.mnemonic) << e.asm_line;
  }
  // The masked forms decode to the same instruction.
  EXPECT_EQ(rv::decode_mnemonic(vrotup(8, 16, 1, false), kIsa64), "vrotup.vi");
  EXPECT_EQ(rv::decode_mnemonic(v32hrho(8, 16, 24, 3, false), kIsa64), "v32hrho.vi");
}

#if defined(CRYPTACCEL_RV_CLANG_BIN) && defined(CRYPTACCEL_RV_LLVM_MC)
constexpr const char* kClang = CRYPTACCEL_RV_CLANG_BIN;
constexpr const char* kMc = CRYPTACCEL_RV_LLVM_MC;
#else
constexpr const char* kClang = nullptr;
constexpr const char* kMc = nullptr;
#endif

/// Words llvm-mc-19 assembles from `text` (assembly after clang-19's preprocessor or compiler).
std::vector<std::uint32_t> assemble(const std::string& dir, const std::string& text) {
  const std::string src = dir + "/k.s", out = dir + "/k.txt";
  std::ofstream(src) << text;
  const std::string cmd = std::string("'") + kMc + "' --triple=riscv64 -mattr=+v --show-encoding '" + src + "' > '" + out + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::stringstream ss;
  ss << std::ifstream(out).rdbuf();
  const std::string t = ss.str();
  const std::regex enc(R"(encoding: \[0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2})\])");
  std::vector<std::uint32_t> words;
  for (auto it = std::sregex_iterator(t.begin(), t.end(), enc); it != std::sregex_iterator(); ++it) {
    std::uint32_t w = 0;
    for (int b = 0; b < 4; ++b) w |= static_cast<std::uint32_t>(std::stoul((*it)[b + 1].str(), nullptr, 16)) << (8 * b);
    words.push_back(w);
  }
  return words;
}

std::string run_capture(const std::string& cmd) {
  std::string text;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    EXPECT_EQ(pclose(p), 0) << cmd;
  }
  return text;
}

TEST(RvXkeccak, KernelHeaderEmitsTheSameWords) {
  if (!kClang || !kMc) GTEST_SKIP() << "clang-19 or llvm-mc-19 was not found at configure time: keccak_insn.h not checked";
  const std::string include = std::string(CRYPTACCEL_RV_PROJECT_DIR) + "/rv/kernels/common";
  char dir_template[] = "/tmp/cryptaccel_xkeccak_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  // Assembler form: the .macro definitions through the C preprocessor.
  {
    std::ofstream s(std::string(dir) + "/k.S");
    s << "#include \"keccak_insn.h\"\n";
    for (const Enc& e : kEncs) s << e.asm_line << "\n";
  }
  const std::string pre = run_capture(std::string("'") + kClang + "' --target=riscv64-unknown-elf -march=rv64gcv -E -P -I'" +
                                      include + "' '" + dir + "/k.S'");
  const std::vector<std::uint32_t> words = assemble(dir, pre);
  ASSERT_EQ(words.size(), kEncs.size()) << pre.substr(0, 3000);
  for (std::size_t i = 0; i < kEncs.size(); ++i)
    EXPECT_EQ(words[i], kEncs[i].word) << kEncs[i].asm_line << ": header 0x" << std::hex << words[i] << ", spec 0x" << kEncs[i].word;
  // C form: the string macros in inline assembly, through the compiler.
  {
    std::ofstream c(std::string(dir) + "/k.c");
    c << "#include \"keccak_insn.h\"\n__asm__(\n";
    for (const Enc& e : kEncs) {
      // "KECCAK_X v8, v16, 1" -> KECCAK_X("v8", "v16", 1); register operands quoted, immediates bare.
      std::string line = e.asm_line, name = line.substr(0, line.find(' ')), args = line.substr(line.find(' ') + 1), call;
      std::stringstream as(args);
      for (std::string a; std::getline(as, a, ',');) {
        a.erase(0, a.find_first_not_of(' '));
        const bool reg = a[0] == 'v' || a == "t0";
        call += (call.empty() ? "" : ", ") + (reg ? "\"" + a + "\"" : a);
      }
      c << "  " << name << "(" << call << ")\n";
    }
    c << ");\n";
  }
  const std::string cs = run_capture(std::string("'") + kClang + "' --target=riscv64-unknown-elf -march=rv64gcv -S -o - -I'" +
                                     include + "' '" + dir + "/k.c'");
  const std::vector<std::uint32_t> cwords = assemble(dir, cs);
  ASSERT_EQ(cwords.size(), kEncs.size()) << cs.substr(0, 3000);
  for (std::size_t i = 0; i < kEncs.size(); ++i) EXPECT_EQ(cwords[i], kEncs[i].word) << kEncs[i].asm_line << " (C form)";
  for (const char* f : {"k.S", "k.c", "k.s", "k.txt"}) std::remove((std::string(dir) + "/" + f).c_str());
  rmdir(dir);
}

// ---- timing ---------------------------------------------------------------------------------------------------------

std::string preset() {
  std::stringstream ss;
  ss << std::ifstream(std::string(CRYPTACCEL_RV_PROJECT_DIR) + "/rv/timing/seed004.json").rdbuf();
  return ss.str();
}

/// mcycle delta over `n` copies of `insn` after vsetvli(AVL = avl, vtype): (csrr; n x insn; csrr).
std::uint64_t chain(const std::string& model, unsigned vlen, const char* isa, std::uint32_t vtype, std::uint64_t avl,
                    std::uint32_t insn, unsigned n) {
  VecMachine m(vlen, isa, model);
  m.machine().set_reg(2, avl);
  m.machine().set_reg(10, kData);
  std::vector<std::uint32_t> p = {vsetvli(1, 2, vtype), csrr(6, kMcycle)};
  for (unsigned i = 0; i < n; ++i) p.push_back(insn);
  p.push_back(csrr(7, kMcycle));
  m.run_ok(p);
  return m.machine().reg(7) - m.machine().reg(6);
}

TEST(RvXkeccak, Seed004PresetGivesTableOneLatencies) {
  const std::string model = preset();
  ASSERT_FALSE(model.empty()) << "rv/timing/seed004.json not found";
  rv::CycleModel cm = rv::CycleModel::defaults();
  cm.parse(model);
  EXPECT_EQ(cm.vector.lanes, 0u);
  EXPECT_EQ(cm.vector.blocking, 1u);
  constexpr unsigned n = 10;
  // Each instruction of a dependent chain: 1 + ceil(vl / EleNum) (vpi: 2 + ...), the scalar issue included; the
  // first csrr costs 1.
  struct Case {
    unsigned vlen;
    const char* isa;
    std::uint32_t vtype;
    std::uint64_t vl;
    std::uint32_t insn;
    unsigned lat;
  };
  for (const Case& k : {
           Case{320, kIsa64, vtypei(64, 0), 5, vrotup(8, 8, 1), 1},          // EleNum 5: 1 beat
           Case{960, kIsa64, vtypei(64, 0), 15, v64rho(8, 8, 2), 1},         // EleNum 15
           Case{1920, kIsa64, vtypei(64, 3), 150, v64rho(8, 8, -1), 1},      // 5 rows of EleNum 30: 5 beats
           Case{320, kIsa64, vtypei(64, 3), 23, vslidedownm(8, 16, 1), 1},   // ceil(23 / 5) = 5
           Case{320, kIsa64, vtypei(64, 3), 25, vpi(8, 16, -1), 2},          // vpi: 2 + 5
           Case{320, kIsa64, vtypei(64, 0), 5, vpi(8, 16, 0), 2},            // vpi: 2 + 1
           Case{512, kIsa64, vtypei(64, 3), 40, viota(8, 8, 0), 1},          // EleNum 8: 5 beats
           Case{480, kIsa32, vtypei(32, 3), 75, v32lrho(16, 8, 0, -1), 1},   // EleNum 15 (ELEN 32)
           Case{320, kIsa64, vtypei(64, 0), 5, vxor_vv(8, 8, 9), 1},          // standard instructions: a register a beat
           Case{320, kIsa64, vtypei(64, 3), 40, vxor_vv(8, 8, 16), 1},        // 8 registers: 8 beats
           Case{960, kIsa64, vtypei(64, 1), 17, opv(0x0f, IVI, 8, 16, 1), 1},  // vslidedown.vi: ceil(17 / 15) = 2
           Case{320, kIsa64, vtypei(64, 0), 0, vrotup(8, 8, 1), 1},           // vl = 0: 1 + 0
       }) {
    const std::uint64_t ele = k.vlen / (8u << ((k.vtype >> 3) & 7));
    const std::uint64_t each = k.lat + (k.vl + ele - 1) / ele;
    EXPECT_EQ(chain(model, k.vlen, k.isa, k.vtype, k.vl, k.insn, n), 1 + n * each)
        << "VLEN " << k.vlen << " vl " << k.vl << " insn 0x" << std::hex << k.insn;
  }
  // Memory: a load chain at VLEN 320, 40 elements (8 registers) each: 1 + 8.
  EXPECT_EQ(chain(model, 320, kIsa64, vtypei(64, 3), 40, vle(64, 8, 10), n), 1 + n * 9u);
  // Overridden latencies and issue cost in the preset.
  EXPECT_EQ(chain(model + "\nvector-keccak-latency = 3", 320, kIsa64, vtypei(64, 0), 5, vrotup(8, 8, 1), n), 1 + n * 4u);
  EXPECT_EQ(chain(model + "\nvector-keccak-pi-latency = 6", 320, kIsa64, vtypei(64, 3), 25, vpi(8, 16, -1), n), 1 + n * 11u);
  EXPECT_EQ(chain(model + "\nvector-keccak = 9", 320, kIsa64, vtypei(64, 0), 5, vrotup(8, 8, 1), n), 1 + n * 9u)
      << "an issue cost above beats + latency is the instruction's cost";
}

TEST(RvXkeccak, LatencyKeysInTheDefaultModel) {
  // Default (Ara-style, non-blocking) model: a dependent chain drains at ceil(vl/EleNum) + latency per instruction
  // however many lanes there are; a vmv.x.s at the end waits for it.
  const auto with_wait = [](const std::string& model, std::uint32_t vtype, std::uint64_t vl, std::uint32_t insn) {
    VecMachine m(320, kIsa64, model);
    m.machine().set_reg(2, vl);
    std::vector<std::uint32_t> p = {vsetvli(1, 2, vtype), csrr(6, kMcycle)};
    for (int i = 0; i < 10; ++i) p.push_back(insn);
    p.insert(p.end(), {opv(0x10, MVV, 5, 8, 0) /* vmv.x.s x5, v8 */, csrr(7, kMcycle)});
    m.run_ok(p);
    return m.machine().reg(7) - m.machine().reg(6);
  };
  const rv::CycleModel d = rv::CycleModel::defaults();
  EXPECT_EQ(d.vector.keccak_latency, 1u);
  EXPECT_EQ(d.vector.keccak_pi_latency, 2u);
  EXPECT_EQ(d.vector.blocking, 0u);
  EXPECT_EQ(d.latency[static_cast<std::size_t>(rv::InsnClass::vector_keccak)], 1u);
  EXPECT_EQ(rv::class_name(rv::InsnClass::vector_keccak), "vector-keccak");
  const std::uint64_t base = with_wait("", vtypei(64, 0), 5, vrotup(8, 8, 1));
  EXPECT_EQ(with_wait("vector-keccak-latency = 4", vtypei(64, 0), 5, vrotup(8, 8, 1)) - base, 10u * 3);
  EXPECT_EQ(with_wait("vector-lanes = 1", vtypei(64, 0), 5, vrotup(8, 8, 1)), base) << "custom beats ignore lanes";
  // 5 beats at LMUL 8 (vl 25) instead of 1: 4 more per instruction.
  EXPECT_EQ(with_wait("", vtypei(64, 3), 25, vrotup(8, 8, 1)) - base, 10u * 4);
  const std::uint64_t pi = with_wait("", vtypei(64, 3), 25, vpi(8, 16, -1));
  EXPECT_EQ(with_wait("vector-keccak-pi-latency = 7", vtypei(64, 3), 25, vpi(8, 16, -1)) - pi, 10u * 5)
      << "each vpi waits for the previous one's writes of v8..v12";
}

}  // namespace
}  // namespace cryptaccel::test
