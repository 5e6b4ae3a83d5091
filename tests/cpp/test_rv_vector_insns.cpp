// Per-instruction tests of the simulator's RVV 1.0 subset against the spec's rules, written out here: vsetvl*
// (VLMAX, AVL, vill), loads/stores, masks and tails (undisturbed), compares, slides and gathers, the mstatus.VS and
// vill checks, and the ISA-string side (zvl<N>b, Zvk shorthands). Crypto instructions: test_rv_vector_crypto.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "cryptaccel/rv.hpp"
#include "rv_vector_test_util.hpp"

namespace cryptaccel::test {
namespace {

using namespace rvv;
using rv::StopReason;

constexpr unsigned kVtype = 0xC21, kVl = 0xC20, kVlenb = 0xC22;

/// x1 = vsetvli(AVL = x2), x3 = vtype, x4 = vl.
struct VsetResult {
  std::uint64_t rd, vtype, vl;
};
VsetResult vset(VecMachine& m, std::uint32_t insn, std::uint64_t avl) {
  m.machine().set_reg(2, avl);
  m.run_ok({insn, csrr(3, kVtype), csrr(4, kVl)});
  return {m.machine().reg(1), m.machine().reg(3), m.machine().reg(4)};
}

TEST(RvVector, VsetvliComputesVlmaxAndVl) {
  VecMachine m(128);
  // VLMAX = LMUL * VLEN / SEW.
  EXPECT_EQ(vset(m, vsetvli(1, 2, vtypei(16, 0)), 37).rd, 8u);
  EXPECT_EQ(vset(m, vsetvli(1, 2, vtypei(16, 0)), 5).rd, 5u) << "AVL < VLMAX: vl = AVL";
  EXPECT_EQ(vset(m, vsetvli(1, 0, vtypei(32, 2)), 3).rd, 16u) << "rs1 = x0, rd != x0: vl = VLMAX";
  EXPECT_EQ(vset(m, vsetvli(1, 2, vtypei(8, 3)), 1000).rd, 128u);
  EXPECT_EQ(vset(m, vsetvli(1, 2, vtypei(8, -3)), 1000).rd, 2u) << "LMUL 1/8";
  const VsetResult r = vset(m, vsetvli(1, 2, vtypei(64, 1, true, true)), 3);
  EXPECT_EQ(r.vtype, vtypei(64, 1, true, true));
  EXPECT_EQ(r.vl, 3u);
  // rs1 = rd = x0 keeps vl (capped at the new VLMAX).
  m.machine().set_reg(2, 7);
  m.run_ok({vsetvli(1, 2, vtypei(8, 0)), vsetvli(0, 0, vtypei(16, 0)), csrr(4, kVl)});
  EXPECT_EQ(m.machine().reg(4), 7u);
  m.run_ok({vsetvli(1, 2, vtypei(8, 0)), vsetvli(0, 0, vtypei(64, 0)), csrr(4, kVl)});
  EXPECT_EQ(m.machine().reg(4), 2u);
  // vsetivli: the AVL is the 5-bit immediate.
  m.run_ok({vsetivli(1, 17, vtypei(64, 3)), csrr(4, kVl)});
  EXPECT_EQ(m.machine().reg(1), 16u);
  m.run_ok({vsetivli(1, 3, vtypei(8, 0))});
  EXPECT_EQ(m.machine().reg(1), 3u);
  // vsetvl takes vtype from rs2.
  m.machine().set_reg(2, 100);
  m.machine().set_reg(6, vtypei(32, 0));
  m.run_ok({vsetvl(1, 2, 6)});
  EXPECT_EQ(m.machine().reg(1), 4u);
  m.run_ok({csrr(7, kVlenb)});
  EXPECT_EQ(m.machine().reg(7), 16u);
}

TEST(RvVector, VlmaxScalesWithVlen) {
  for (unsigned vlen : {128u, 256u, 512u, 1024u, 4096u}) {
    VecMachine m(vlen);
    EXPECT_EQ(vset(m, vsetvli(1, 0, vtypei(32, 0)), 0).rd, vlen / 32) << vlen;
    EXPECT_EQ(vset(m, vsetvli(1, 0, vtypei(8, 3)), 0).rd, vlen) << vlen;
  }
  EXPECT_THROW(VecMachine(96), std::invalid_argument);
  EXPECT_THROW(VecMachine(8192), std::invalid_argument);
  EXPECT_EQ(VecMachine(128, "rv64imcv_zvl512b").machine().vlen(), 512u) << "zvl<N>b raises VLEN";
}

TEST(RvVector, IllegalVtypeSetsVill) {
  VecMachine m(128);
  const std::uint64_t vill = std::uint64_t{1} << 63;
  // SEW 64 at LMUL 1/2 with ELEN 64: SEW > LMUL * ELEN.
  VsetResult r = vset(m, vsetvli(1, 2, vtypei(64, -1)), 10);
  EXPECT_EQ(r.vtype, vill);
  EXPECT_EQ(r.rd, 0u);
  EXPECT_EQ(r.vl, 0u);
  EXPECT_EQ(vset(m, vsetvli(1, 2, 4u << 3), 10).vtype, vill) << "SEW 128 (vsew = 4) is reserved";
  EXPECT_EQ(vset(m, vsetvli(1, 2, 4u), 10).vtype, vill) << "vlmul = 4 is reserved";
  EXPECT_EQ(vset(m, vsetvli(1, 2, 1u << 8), 10).vtype, vill) << "reserved vtype bits";
  // A vector instruction under vill is illegal.
  EXPECT_EQ(m.run({vsetvli(1, 2, 4u), vadd_vv(1, 2, 3)}), StopReason::illegal_instruction);
  EXPECT_NE(m.machine().last_message().find("vill"), std::string::npos) << m.machine().last_message();
  // Zve32x: ELEN 32, so SEW 64 is illegal; with ELEN 32 configured too.
  VecMachine z(128, "rv64imc_zve32x");
  EXPECT_EQ(vset(z, vsetvli(1, 2, vtypei(64, 0)), 10).vtype, vill);
  EXPECT_EQ(vset(z, vsetvli(1, 2, vtypei(32, 0)), 10).rd, 4u);
}

TEST(RvVector, VectorStateMustBeOnAndConfigured) {
  VecMachine m(128);
  EXPECT_EQ(m.run({vsetvli(1, 0, vtypei(32, 0))}, /*enable_vs=*/false), StopReason::illegal_instruction);
  EXPECT_NE(m.machine().last_message().find("mstatus.VS"), std::string::npos) << m.machine().last_message();
  VecMachine fresh(128);
  EXPECT_EQ(fresh.run({vadd_vv(1, 2, 3)}), StopReason::illegal_instruction) << "vtype starts with vill set";
  // Without a vector extension the instruction does not decode for this machine.
  VecMachine scalar(128, "rv64imc");
  EXPECT_EQ(scalar.run({vadd_vv(1, 2, 3)}, false), StopReason::disabled_extension);
  EXPECT_NE(scalar.machine().last_message().find("requires extension"), std::string::npos);
}

TEST(RvVector, IsaStrings) {
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvkn").has("zvknhb"));
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvkn").has("zvkb"));
  EXPECT_FALSE(rv::parse_isa("rv64gcv_zvkn").has("zvkg"));
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvkng").has("zvkg"));
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvks").has("zvksh"));
  EXPECT_TRUE(rv::parse_isa("rv64gcv_zvbb").has("zvkb"));
  EXPECT_EQ(rv::parse_isa("rv64gcv_zvl1024b").min_vlen, 1024u);
  EXPECT_EQ(rv::parse_isa("rv64gcv").max_elen, 64u);
  EXPECT_EQ(rv::parse_isa("rv32imc_zve32x").max_elen, 32u);
  EXPECT_THROW(rv::parse_isa("rv64imc_zvkned"), std::invalid_argument) << "Zvk without a vector base";
  EXPECT_THROW(rv::parse_isa("rv64gcv_zvl100b"), std::invalid_argument);
}

TEST(RvVector, UnitStrideAndStridedLoadsStoresWithMasksAndTails) {
  VecMachine m(128);
  std::vector<std::uint32_t> data(16);
  std::iota(data.begin(), data.end(), 0x11110000u);
  m.poke(kData, le_words(data));
  m.machine().set_reg(10, kData);
  m.machine().set_reg(2, 3);
  m.machine().set_reg(11, 8);  // stride: every other word
  m.set_vreg(1, le_words({0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC, 0xDDDDDDDD}));
  m.set_vreg(4, le_words({0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC, 0xDDDDDDDD}));
  m.set_vreg(0, {0x05});  // mask: elements 0 and 2
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), vle(32, 1, 10), vlse(32, 4, 10, 11)});
  EXPECT_EQ(m.vword(1, 0), data[0]);
  EXPECT_EQ(m.vword(1, 2), data[2]);
  EXPECT_EQ(m.vword(1, 3), 0xDDDDDDDDu) << "tail element undisturbed";
  EXPECT_EQ(m.vword(4, 1), data[2]);
  EXPECT_EQ(m.vword(4, 2), data[4]);
  // Masked load: element 1 undisturbed.
  m.set_vreg(2, le_words({1, 2, 3, 4}));
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), vle(32, 2, 10, /*vm=*/false)});
  EXPECT_EQ(m.vword(2, 0), data[0]);
  EXPECT_EQ(m.vword(2, 1), 2u) << "masked-off element undisturbed";
  EXPECT_EQ(m.vword(2, 2), data[2]);
  EXPECT_EQ(m.vword(2, 3), 4u);
  // Masked store writes only active elements.
  m.set_vreg(3, le_words({7, 8, 9, 10}));
  m.machine().set_reg(12, kData + 0x100);
  m.poke(kData + 0x100, std::vector<std::uint8_t>(16, 0xEE));
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), vse(32, 3, 12, false)});
  const auto out = m.peek(kData + 0x100, 16);
  std::uint32_t w[4];
  std::memcpy(w, out.data(), 16);
  EXPECT_EQ(w[0], 7u);
  EXPECT_EQ(w[1], 0xEEEEEEEEu);
  EXPECT_EQ(w[2], 9u);
  EXPECT_EQ(w[3], 0xEEEEEEEEu) << "element 3 is past vl";
  // A load outside RAM faults and leaves vstart at the element.
  m.machine().set_reg(10, kBase + (1u << 20) - 8);
  EXPECT_EQ(m.run({vsetvli(1, 2, vtypei(32, 0)), vle(32, 1, 10), csrr(5, 0x008)}), StopReason::memory_fault);
}

TEST(RvVector, ArithmeticCompareMergeAndMaskedExecution) {
  VecMachine m(128);
  m.set_vreg(1, le_words({10, 0xFFFFFFFF, 30, 40}));
  m.set_vreg(2, le_words({1, 1, 2, 2}));
  m.set_vreg(3, le_words({100, 100, 100, 100}));
  m.set_vreg(0, {0x0A});  // elements 1 and 3
  m.machine().set_reg(2, 4);
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), vadd_vv(3, 1, 2, /*vm=*/false)});
  EXPECT_EQ(m.vword(3, 0), 100u);
  EXPECT_EQ(m.vword(3, 1), 0u) << "wraps modulo 2^SEW";
  EXPECT_EQ(m.vword(3, 2), 100u);
  EXPECT_EQ(m.vword(3, 3), 42u);
  // vmslt.vx v4, v1, x6 (signed): only 0xFFFFFFFF = -1 is below 5.
  m.machine().set_reg(6, 5);
  m.set_vreg(4, {0xF0});
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), opv(0x1b, IVX, 4, 1, 6)});
  EXPECT_EQ(m.vreg(4)[0], 0xF2) << "bit 1 set (-1 < 5), bits 0/2/3 clear, bits 4..7 (past vl) undisturbed";
  // vmerge.vvm v5, v1, v2, v0: v0 ? v2 : v1.
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), vmerge_vvm(5, 1, 2)});
  EXPECT_EQ(m.vword(5, 0), 10u);
  EXPECT_EQ(m.vword(5, 1), 1u);
  EXPECT_EQ(m.vword(5, 3), 2u);
  // vadd.vi with a negative immediate, SEW 8, LMUL 2 (two registers).
  m.set_vreg(8, std::vector<std::uint8_t>(16, 5));
  m.set_vreg(9, std::vector<std::uint8_t>(16, 6));
  m.machine().set_reg(2, 20);
  m.run_ok({vsetvli(1, 2, vtypei(8, 1)), vadd_vi(10, 8, -7)});
  EXPECT_EQ(m.vreg(10)[0], 0xFE);
  EXPECT_EQ(m.vreg(11)[3], 0xFF);
  // Misaligned register group (LMUL 2, odd register): illegal.
  EXPECT_EQ(m.run({vsetvli(1, 2, vtypei(8, 1)), vadd_vi(9, 8, 1)}), StopReason::illegal_instruction);
  // Masked instruction writing v0: illegal.
  EXPECT_EQ(m.run({vsetvli(1, 2, vtypei(8, 0)), vadd_vi(0, 8, 1, false)}), StopReason::illegal_instruction);
}

TEST(RvVector, ShiftsUseLowBitsOfTheAmount) {
  VecMachine m(128);
  m.set_vreg(1, le_words({0x80000001u, 1, 0x12345678, 0xF0000000u}));
  m.set_vreg(2, le_words({33, 31, 4, 4}));
  m.machine().set_reg(2, 4);
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), opv(0x25, IVV, 3, 1, 2), opv(0x29, IVV, 4, 1, 2)});
  EXPECT_EQ(m.vword(3, 0), 2u) << "vsll: 33 & 31 = 1";
  EXPECT_EQ(m.vword(3, 1), 0x80000000u);
  EXPECT_EQ(m.vword(4, 3), 0xFF000000u) << "vsra keeps the sign";
  EXPECT_EQ(m.vword(4, 2), 0x01234567u);
}

TEST(RvVector, SlidesAndGathers) {
  VecMachine m(128);
  m.set_vreg(1, le_words({1, 2, 3, 4}));
  m.set_vreg(2, le_words({3, 0, 9, 1}));
  m.set_vreg(5, le_words({50, 51, 52, 53}));
  m.machine().set_reg(2, 4);
  m.machine().set_reg(7, 0x77);
  // vslideup.vi v5, v1, 1: v5[0] undisturbed; vslidedown.vi v6, v1, 1: v6[3] = 0 (past VLMAX).
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), opv(0x0e, IVI, 5, 1, 1), opv(0x0f, IVI, 6, 1, 1), opv(0x0e, MVX, 8, 1, 7),
            opv(0x0f, MVX, 9, 1, 7), opv(0x0c, IVV, 10, 1, 2), opv(0x0c, IVI, 11, 1, 2)});
  EXPECT_EQ(m.vreg(5), le_words({50, 1, 2, 3}));
  EXPECT_EQ(m.vreg(6), le_words({2, 3, 4, 0}));
  EXPECT_EQ(m.vreg(8), le_words({0x77, 1, 2, 3})) << "vslide1up";
  EXPECT_EQ(m.vreg(9), le_words({2, 3, 4, 0x77})) << "vslide1down";
  EXPECT_EQ(m.vreg(10), le_words({4, 1, 0, 2})) << "vrgather.vv: index 9 >= VLMAX gives 0";
  EXPECT_EQ(m.vreg(11), le_words({3, 3, 3, 3})) << "vrgather.vi 2";
  // vslideup with vd == vs2 is reserved.
  EXPECT_EQ(m.run({vsetvli(1, 2, vtypei(32, 0)), opv(0x0e, IVI, 1, 1, 1)}), StopReason::illegal_instruction);
  // vmv.x.s sign-extends element 0; vid.v.
  m.set_vreg(12, le_words({0x80000000u, 0, 0, 0}));
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), opv(0x10, MVV, 13, 12, 0), opv(0x14, MVV, 14, 0, 0x11)});
  EXPECT_EQ(m.machine().reg(13), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(m.vreg(14), le_words({0, 1, 2, 3}));
}

TEST(RvVector, ZvbbRotatesAndReverses) {
  VecMachine m(128);
  m.set_vreg(1, le_words({0x12345678, 0x80000001u, 0x0000F000, 0}));
  m.machine().set_reg(2, 4);
  m.machine().set_reg(6, 4);
  m.run_ok({vsetvli(1, 2, vtypei(32, 0)), opv(0x14, IVX, 3, 1, 6) /* vror.vx 4 */, vrev8_v(4, 1),
            opv(0x12, MVV, 5, 1, 0x08) /* vbrev8 */, opv(0x12, MVV, 7, 1, 0x0c) /* vclz */,
            opv(0x14, IVI, 8, 1, 1) | 1u << 26 /* vror.vi 33 = 1 (mod 32) */});
  EXPECT_EQ(m.vword(3, 0), 0x81234567u);
  EXPECT_EQ(m.vword(3, 1), 0x18000000u);
  EXPECT_EQ(m.vword(4, 0), 0x78563412u);
  EXPECT_EQ(m.vword(5, 0), 0x482C6A1Eu);
  EXPECT_EQ(m.vword(7, 2), 16u);
  EXPECT_EQ(m.vword(7, 3), 32u) << "vclz of 0 is SEW";
  EXPECT_EQ(m.vword(8, 1), 0xC0000000u);
}

TEST(RvVector, ZvbcCarrylessMultiply) {
  VecMachine m(128);
  m.set_vreg(1, le_words64({3, 0x8000000000000000ull}));
  m.set_vreg(2, le_words64({3, 6}));
  m.machine().set_reg(2, 2);
  m.run_ok({vsetvli(1, 2, vtypei(64, 0)), opv(0x0c, MVV, 3, 1, 2), opv(0x0d, MVV, 4, 1, 2)});
  EXPECT_EQ(m.vreg(3), le_words64({5, 0})) << "(x+1)^2 = x^2+1; x^63 * (x^2+x) low half is 0";
  EXPECT_EQ(m.vreg(4), le_words64({0, 3})) << "x^63 * (x^2+x) = x^65 + x^64";
  // SEW 32 is reserved for vclmul.
  EXPECT_EQ(m.run({vsetvli(1, 2, vtypei(32, 0)), opv(0x0c, MVV, 3, 1, 2)}), StopReason::illegal_instruction);
}

TEST(RvVector, CycleModelKeysAndVectorStalls) {
  rv::CycleModel cm;
  cm.parse("vector-lanes = 8\nvector_crypto_stages: 5\n{\"vector-alu\": 2}");
  EXPECT_EQ(cm.vector.lanes, 8u);
  EXPECT_EQ(cm.vector.crypto_stages, 5u);
  EXPECT_EQ(cm.latency[static_cast<std::size_t>(rv::InsnClass::vector_alu)], 2u);
  EXPECT_THROW(cm.parse("vector-bogus = 1"), std::invalid_argument);
  EXPECT_THROW(cm.parse("vector-crypto-lanes-per-eg = 0"), std::invalid_argument);
  EXPECT_THROW(cm.parse("vector-blocking = 2"), std::invalid_argument);
  cm.parse("vector-lanes = 0");  // a whole register per beat (seed 004's preset; test_rv_xkeccak.cpp)
  EXPECT_EQ(cm.vector.lanes, 0u);
  EXPECT_EQ(rv::class_name(rv::InsnClass::vector_crypto_aes), "vector-crypto-aes");
}

/// mcycle after a chain of `n` dependent AES rounds on `groups` element groups and a vmv.x.s that waits for it.
std::uint64_t chain_cycles(const std::string& model, unsigned n, unsigned groups) {
  VecMachine m(128, kIsa, model);
  std::vector<std::uint32_t> p = {vsetivli(0, 4 * groups, vtypei(32, 2))};
  for (unsigned i = 0; i < n; ++i) p.push_back(vaesem_vs(8, 1));
  p.insert(p.end(), {opv(0x10, MVV, 5, 8, 0) /* vmv.x.s x5, v8 */, csrr(6, 0xB00) /* mcycle */});
  m.run_ok(p);
  return m.machine().reg(6);
}

TEST(RvVector, TimingModelOnADependentCryptoChain) {
  // Each round waits for the previous one: the chain costs n * (beats + crypto-stages - 1) on the vector unit, and
  // vmv.x.s makes the scalar core wait for it, so mcycle grows by n per extra pipeline stage.
  const std::uint64_t base = chain_cycles("", 10, 1);
  EXPECT_EQ(chain_cycles("vector-crypto-stages = 12", 10, 1) - base, 10u * 9);
  // 4 groups at 2 group slots a cycle (4 lanes, 2 lanes per group): one more beat per round than 1 group...
  EXPECT_EQ(chain_cycles("", 10, 4) - base, 10u * 1);
  // ... and 8 lanes bring it back to one beat.
  EXPECT_EQ(chain_cycles("vector-lanes = 8", 10, 4), base);
  // Without the scalar result the core does not wait: the chain runs behind it.
  VecMachine m(128);
  std::vector<std::uint32_t> p = {vsetivli(0, 4, vtypei(32, 2))};
  for (unsigned i = 0; i < 10; ++i) p.push_back(vaesem_vs(8, 1));
  p.push_back(csrr(6, 0xB00));
  m.run_ok(p);
  EXPECT_LT(m.machine().reg(6), base);
}

}  // namespace
}  // namespace cryptaccel::test
