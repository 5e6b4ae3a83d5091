// Per-instruction tests of the RISC-V simulator against the specifications' pseudo-code (written out here) and,
// for the crypto instructions, against the library's own ciphers and round functions (src/algo, cryptaccel::Aes,
// cryptaccel::Sm4).
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>

#include "algo/aes_key_schedule.hpp"
#include "algo/sha256.hpp"
#include "algo/sha512.hpp"
#include "algo/sm3.hpp"
#include "algo/sm4.hpp"
#include "cryptaccel/aes.hpp"
#include "cryptaccel/rv.hpp"
#include "cryptaccel/sm4.hpp"
#include "rv_test_util.hpp"

namespace cryptaccel::test {
namespace {

using rv::StopReason;

// MATCH values (riscv-opcodes; shared/reference/riscv-crypto-encodings.md for the crypto ones).
constexpr std::uint32_t ADD = 0x33, SUB = 0x40000033, SLL = 0x1033, SRL = 0x5033, SRA = 0x40005033, SLT = 0x2033;
constexpr std::uint32_t ADDI = 0x13, SLLI = 0x1013, SRAI = 0x40005013, ADDIW = 0x1b, ADDW = 0x3b, SUBW = 0x4000003b;
constexpr std::uint32_t SLLW = 0x103b, SRAW = 0x4000503b, LUI = 0x37, LB = 0x3, LBU = 0x4003, LW = 0x2003, LWU = 0x6003;
constexpr std::uint32_t SW = 0x2023;
constexpr std::uint32_t MUL = 0x02000033, MULH = 0x02001033, MULHSU = 0x02002033, MULHU = 0x02003033;
constexpr std::uint32_t DIV = 0x02004033, DIVU = 0x02005033, REM = 0x02006033, REMU = 0x02007033;
constexpr std::uint32_t DIVW = 0x0200403b, REMUW = 0x0200703b, MULW = 0x0200003b;
constexpr std::uint32_t CLMUL = 0x0a001033, CLMULH = 0x0a003033, CLMULR = 0x0a002033;
constexpr std::uint32_t XPERM4 = 0x28002033, XPERM8 = 0x28004033;
constexpr std::uint32_t PACK = 0x08004033, PACKH = 0x08007033, PACKW = 0x0800403b, BREV8 = 0x68705013;
constexpr std::uint32_t ZIP = 0x08f01013, UNZIP = 0x08f05013, REV8_32 = 0x69805013, REV8_64 = 0x6b805013;
constexpr std::uint32_t ROR = 0x60005033, ROL = 0x60001033, RORI = 0x60005013, RORW = 0x6000503b, ANDN = 0x40007033;
constexpr std::uint32_t CLZ = 0x60001013, CTZ = 0x60101013, CPOP = 0x60201013, ORC_B = 0x28705013;
constexpr std::uint32_t SEXT_B = 0x60401013, ZEXT_H64 = 0x0800403b, MAX = 0x0a006033, MINU = 0x0a005033;
constexpr std::uint32_t SH2ADD = 0x20004033, BEXT = 0x48005033;
constexpr std::uint32_t AES32ESI = 0x22000033, AES32ESMI = 0x26000033, AES32DSI = 0x2a000033, AES32DSMI = 0x2e000033;
constexpr std::uint32_t AES64ES = 0x32000033, AES64ESM = 0x36000033, AES64DS = 0x3a000033, AES64DSM = 0x3e000033;
constexpr std::uint32_t AES64IM = 0x30001013, AES64KS1I = 0x31001013, AES64KS2 = 0x7e000033;
constexpr std::uint32_t SHA256SIG0 = 0x10201013, SHA256SIG1 = 0x10301013, SHA256SUM0 = 0x10001013, SHA256SUM1 = 0x10101013;
constexpr std::uint32_t SHA512SIG0 = 0x10601013, SHA512SIG1 = 0x10701013, SHA512SUM0 = 0x10401013, SHA512SUM1 = 0x10501013;
constexpr std::uint32_t SHA512SIG0H = 0x5c000033, SHA512SIG0L = 0x54000033, SHA512SIG1H = 0x5e000033;
constexpr std::uint32_t SHA512SIG1L = 0x56000033, SHA512SUM0R = 0x50000033, SHA512SUM1R = 0x52000033;
constexpr std::uint32_t SM4ED = 0x30000033, SM4KS = 0x34000033, SM3P0 = 0x10801013, SM3P1 = 0x10901013;
constexpr std::uint32_t CSRRS = 0x2073, CSRRW = 0x1073, ECALL = 0x73, EBREAK = 0x00100073;

constexpr const char* kRv64All = "rv64imc_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkne_zknd_zknh_zksed_zksh";
constexpr const char* kRv32All = "rv32imc_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkne_zknd_zknh_zksed_zksh";

/// R-type rd=x3, rs1=x1, rs2=x2.
constexpr std::uint32_t R(std::uint32_t match) { return rv_r(match, 3, 1, 2); }
/// Unary / immediate forms: rd=x3, rs1=x1 (immediate bits already in `match` or given).
constexpr std::uint32_t I(std::uint32_t match, std::int32_t imm = 0) { return rv_i(match, 3, 1, imm); }
/// bs-form (aes32*, sm4*): bs in bits 31..30.
constexpr std::uint32_t BS(std::uint32_t match, unsigned bs) { return R(match) | bs << 30; }

std::uint32_t le32(const std::uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<std::uint32_t>(p[3]) << 24; }
std::uint64_t sext32(std::uint32_t v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v))); }

// ---- base integer --------------------------------------------------------------------------------------------

TEST(RvBase, ArithmeticAndShiftsOnBothXlens) {
  RvExec r64("rv64i"), r32("rv32i");
  EXPECT_EQ(r64.exec(R(ADD), ~0ull, 1), 0u);
  EXPECT_EQ(r32.exec(R(ADD), 0xFFFFFFFFu, 1), 0u);
  EXPECT_EQ(r32.exec(R(SUB), 0, 1), 0xFFFFFFFFu);
  EXPECT_EQ(r64.exec(R(SUB), 0, 1), ~0ull);
  EXPECT_EQ(r32.exec(R(SLL), 1, 33), 2u) << "RV32 uses rs2[4:0]";
  EXPECT_EQ(r64.exec(R(SLL), 1, 33), 1ull << 33) << "RV64 uses rs2[5:0]";
  EXPECT_EQ(r32.exec(R(SRA), 0x80000000u, 31), 0xFFFFFFFFu);
  EXPECT_EQ(r64.exec(R(SRA), 0x80000000u, 31), 1u);
  EXPECT_EQ(r64.exec(R(SRL), ~0ull, 63), 1u);
  EXPECT_EQ(r64.exec(R(SLT), ~0ull, 0), 1u);
  EXPECT_EQ(r64.exec(I(ADDI, -1), 5), 4u);
  EXPECT_EQ(r64.exec(I(SLLI, 63), 1), 1ull << 63);
  EXPECT_EQ(r64.exec(I(SRAI, 4), 0x8000000000000000ull), 0xF800000000000000ull);
  EXPECT_EQ(r64.exec(rv_i(LUI, 3, 0, 0) | 0x80000000u), 0xFFFFFFFF80000000ull) << "lui sign-extends on RV64";
  EXPECT_EQ(r32.exec(rv_i(LUI, 3, 0, 0) | 0x80000000u), 0x80000000u);
}

TEST(RvBase, WFormsSignExtendOnRv64) {
  RvExec r("rv64i");
  EXPECT_EQ(r.exec(I(ADDIW, 1), 0x7FFFFFFF), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(r.exec(R(ADDW), 0xFFFFFFFF00000001ull, 0x7FFFFFFF), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(r.exec(R(SUBW), 0, 1), ~0ull);
  EXPECT_EQ(r.exec(R(SLLW), 1, 31), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(r.exec(R(SRAW), 0x80000000u, 4), 0xFFFFFFFFF8000000ull);
  RvExec m("rv64im");
  EXPECT_EQ(m.exec(R(MULW), 0x10000, 0x18000), 0xFFFFFFFF80000000ull);
}

TEST(RvBase, RegisterX0StaysZero) {
  RvExec r("rv64i");
  r.machine().set_reg(1, 7);
  EXPECT_EQ(r.run({rv_i(ADDI, 0, 1, 5)}, 1), StopReason::instruction_limit);
  EXPECT_EQ(r.machine().reg(0), 0u);
}

TEST(RvBase, LoadsExtendAndStoresRoundTrip) {
  RvExec r("rv64i");
  rv::Machine& m = r.machine();
  m.set_reg(1, kRvBase + 0x1000);
  m.set_reg(2, 0x80F1F2F3u);
  // sw x2, 0(x1); lb x3, 0(x1); lbu x4, 3(x1); lw x5, 0(x1); lwu x6, 0(x1)
  ASSERT_EQ(r.run({rv_r(SW, 0, 1, 2), rv_i(LB, 3, 1, 0), rv_i(LBU, 4, 1, 3), rv_i(LW, 5, 1, 0), rv_i(LWU, 6, 1, 0)}, 5),
            StopReason::instruction_limit);
  EXPECT_EQ(m.reg(3), 0xFFFFFFFFFFFFFFF3ull);
  EXPECT_EQ(m.reg(4), 0x80u);
  EXPECT_EQ(m.reg(5), 0xFFFFFFFF80F1F2F3ull);
  EXPECT_EQ(m.reg(6), 0x80F1F2F3ull);
}

TEST(RvBase, OutOfRamAccessStopsWithAddress) {
  RvExec r("rv64i");
  r.machine().set_reg(1, 0x1000);
  EXPECT_EQ(r.run({rv_i(LW, 3, 1, 0)}, 1), StopReason::memory_fault);
  EXPECT_NE(r.machine().last_message().find("load from 0x1000"), std::string::npos) << r.machine().last_message();
}

TEST(RvBase, JumpsLinkAndBranchesCountTaken) {
  rv::MachineConfig cfg = RvExec::config("rv64i");
  rv::Machine m(cfg);
  // 0: addi x1, x0, 3      loop: 4: addi x1, x1, -1; 8: bne x1, x0, -4; 12: jal x5, 8; 16: (skipped) 20: tohost exit
  // Exit through an unknown-free path: after the jal, ebreak stops the run.
  const std::uint32_t words[] = {rv_i(ADDI, 1, 0, 3), rv_i(ADDI, 1, 1, -1), 0xfe009ee3 /* bne x1,x0,-4 */,
                                 0x008002ef /* jal x5, +8 */, rv_i(ADDI, 6, 0, 1), EBREAK};
  m.load_words(kRvBase, words);
  const rv::RunResult res = m.run();
  EXPECT_EQ(res.reason, StopReason::ebreak);
  EXPECT_EQ(m.reg(1), 0u);
  EXPECT_EQ(m.reg(5), kRvBase + 16) << "jal links pc + 4";
  EXPECT_EQ(m.reg(6), 0u) << "jal skipped the addi";
  EXPECT_EQ(res.total.taken_branches, 2u);
  EXPECT_EQ(res.total.of(rv::InsnClass::branch), 3u);
  EXPECT_EQ(res.total.instret, 1u + 3 * 2 + 1) << "ebreak does not retire";
  EXPECT_EQ(res.stop_pc, kRvBase + 20);
}

// ---- M --------------------------------------------------------------------------------------------------------

TEST(RvM, DivisionByZeroAndOverflow) {
  RvExec r64("rv64im"), r32("rv32im");
  EXPECT_EQ(r64.exec(R(DIV), 7, 0), ~0ull);
  EXPECT_EQ(r64.exec(R(DIVU), 7, 0), ~0ull);
  EXPECT_EQ(r64.exec(R(REM), 7, 0), 7u);
  EXPECT_EQ(r64.exec(R(REMU), 7, 0), 7u);
  EXPECT_EQ(r64.exec(R(DIV), 1ull << 63, ~0ull), 1ull << 63);
  EXPECT_EQ(r64.exec(R(REM), 1ull << 63, ~0ull), 0u);
  EXPECT_EQ(r32.exec(R(DIV), 0x80000000u, 0xFFFFFFFFu), 0x80000000u);
  EXPECT_EQ(r32.exec(R(REM), 0x80000000u, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(r32.exec(R(DIV), static_cast<std::uint32_t>(-7), 2), static_cast<std::uint32_t>(-3)) << "truncates to 0";
  EXPECT_EQ(r32.exec(R(REM), static_cast<std::uint32_t>(-7), 2), static_cast<std::uint32_t>(-1));
  EXPECT_EQ(r64.exec(R(DIVW), 0x80000000u, 0xFFFFFFFFu), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(r64.exec(R(REMUW), 5, 0), 5u);
}

TEST(RvM, HighMultipliesMatchWideArithmetic) {
  RvExec r64("rv64im"), r32("rv32im");
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t a = rng(), b = rng();
    const __int128 sa = static_cast<std::int64_t>(a), sb = static_cast<std::int64_t>(b);
    EXPECT_EQ(r64.exec(R(MUL), a, b), a * b);
    EXPECT_EQ(r64.exec(R(MULH), a, b), static_cast<std::uint64_t>(static_cast<unsigned __int128>(sa * sb) >> 64));
    EXPECT_EQ(r64.exec(R(MULHU), a, b), static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64));
    EXPECT_EQ(r64.exec(R(MULHSU), a, b),
              static_cast<std::uint64_t>(static_cast<unsigned __int128>(sa * static_cast<__int128>(b)) >> 64));
    const std::uint32_t a32 = static_cast<std::uint32_t>(a), b32 = static_cast<std::uint32_t>(b);
    const std::int64_t s32 = static_cast<std::int64_t>(static_cast<std::int32_t>(a32)) * static_cast<std::int32_t>(b32);
    EXPECT_EQ(r32.exec(R(MULH), a32, b32), static_cast<std::uint32_t>(static_cast<std::uint64_t>(s32) >> 32));
    EXPECT_EQ(r32.exec(R(MULHSU), a32, b32),
              static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(a32)) *
                                                                    static_cast<std::int64_t>(b32)) >> 32));
    EXPECT_EQ(r32.exec(R(MULHU), a32, b32), static_cast<std::uint32_t>((std::uint64_t{a32} * b32) >> 32));
  }
}

// ---- Zicsr ----------------------------------------------------------------------------------------------------

TEST(RvZicsr, MinstretReadsCountRetiredInstructionsBefore) {
  RvExec r("rv64i");
  // csrr x3, minstret; csrr x4, minstret; addi; csrr x5, minstret
  const std::uint32_t rd_minstret = 0xB0202073u;
  ASSERT_EQ(r.run({rd_minstret | 3 << 7, rd_minstret | 4 << 7, rv_i(ADDI, 6, 0, 1), rd_minstret | 5 << 7}, 4),
            StopReason::instruction_limit);
  EXPECT_EQ(r.machine().reg(4) - r.machine().reg(3), 1u);
  EXPECT_EQ(r.machine().reg(5) - r.machine().reg(4), 2u);
}

TEST(RvZicsr, ScratchMisaAndReadOnlyCsrs) {
  RvExec r("rv64imc");
  rv::Machine& m = r.machine();
  m.set_reg(1, 0x1234);
  // csrrw x0, mscratch, x1; csrrs x3, mscratch, x0; csrrs x4, misa, x0
  ASSERT_EQ(r.run({rv_i(CSRRW, 0, 1, 0x340), rv_i(CSRRS, 3, 0, 0x340), rv_i(CSRRS, 4, 0, 0x301)}, 3),
            StopReason::instruction_limit);
  EXPECT_EQ(m.reg(3), 0x1234u);
  EXPECT_EQ(m.reg(4) >> 62, 2u) << "MXL = 64";
  EXPECT_EQ(m.reg(4) & 0x3FFFFFF, (1u << ('i' - 'a')) | (1u << ('m' - 'a')) | (1u << ('c' - 'a')));
  RvExec w("rv64i");
  EXPECT_EQ(w.run({rv_i(CSRRW, 0, 1, 0xC00)}, 1), StopReason::unsupported) << "cycle is read-only";
  RvExec u("rv64i");
  EXPECT_EQ(u.run({rv_i(CSRRS, 3, 0, 0x7C0)}, 1), StopReason::unsupported);
  EXPECT_NE(u.machine().last_message().find("unsupported CSR 0x7c0"), std::string::npos) << u.machine().last_message();
}

// ---- A ----------------------------------------------------------------------------------------------------------

TEST(RvA, AmoLrScOnOneHart) {
  RvExec r("rv64ia");
  rv::Machine& m = r.machine();
  const std::uint64_t addr = kRvBase + 0x1000;
  const std::uint8_t init[8] = {0xF0, 0xFF, 0xFF, 0xFF, 0x11, 0x22, 0x33, 0x44};  // low word -16
  m.write_memory(addr, init);
  m.set_reg(1, addr);
  m.set_reg(2, 20);
  // amoadd.w x3, x2, (x1); lr.d x4, (x1); sc.d x5, x2, (x1); sc.d x6, x2, (x1); amomaxu.w x7, x2, (x1)
  ASSERT_EQ(r.run({rv_r(0x0000202f, 3, 1, 2), rv_r(0x1000302f, 4, 1, 0), rv_r(0x1800302f, 5, 1, 2),
                   rv_r(0x1800302f, 6, 1, 2), rv_r(0xe000202f, 7, 1, 2)},
                  5),
            StopReason::instruction_limit)
      << m.last_message();
  EXPECT_EQ(m.reg(3), static_cast<std::uint64_t>(-16)) << "old word, sign-extended";
  EXPECT_EQ(m.reg(4), 0x4433221100000004ull) << "-16 + 20 = 4 in the low word";
  EXPECT_EQ(m.reg(5), 0u) << "sc with the reservation succeeds";
  EXPECT_NE(m.reg(6), 0u) << "the reservation is gone";
  EXPECT_EQ(m.reg(7), 20u);
  std::uint8_t now[8];
  m.read_memory(addr, now);
  EXPECT_EQ(now[0], 20u) << "maxu(20, 20)";
  EXPECT_EQ(now[4], 0u) << "sc.d stored 20 as a doubleword";
}

// ---- traps ------------------------------------------------------------------------------------------------------

TEST(RvTraps, EcallTrapsToMtvecAndMretReturns) {
  RvExec r("rv64i");
  rv::Machine& m = r.machine();
  const std::uint64_t handler = kRvBase + 0x100;
  m.set_reg(1, handler);
  // 0: csrw mtvec, x1; 4: ecall; 8: addi x5, x0, 1; ... handler: csrr x3, mcause; csrr x4, mepc; addi x4, x4, 4;
  // csrw mepc, x4; mret
  const std::uint32_t prog[] = {rv_i(CSRRW, 0, 1, 0x305), ECALL, rv_i(ADDI, 5, 0, 1)};
  const std::uint32_t handler_words[] = {rv_i(CSRRS, 3, 0, 0x342), rv_i(CSRRS, 4, 0, 0x341), rv_i(ADDI, 4, 4, 4),
                                         rv_i(CSRRW, 0, 4, 0x341), 0x30200073 /* mret */};
  m.load_words(handler, handler_words);
  // 7 retired instructions: csrw, 5 in the handler, addi (the ecall traps and does not retire).
  ASSERT_EQ(r.run(std::vector<std::uint32_t>(prog, prog + 3), 7), StopReason::instruction_limit) << m.last_message();
  EXPECT_EQ(m.reg(3), 11u) << "environment call from M-mode";
  EXPECT_EQ(m.reg(4), kRvBase + 8);
  EXPECT_EQ(m.reg(5), 1u) << "execution resumed after the ecall";
  EXPECT_EQ(m.pc(), kRvBase + 12);
}

TEST(RvTraps, AHandlerThatTrapsItselfStopsInsteadOfSpinning) {
  // Found by fuzz/fuzz_rv_elf: a trap does not retire, so a handler whose first instruction traps again never used up
  // the instruction budget and the run never ended. Now the second identical trap stops it.
  RvExec r("rv64i");
  rv::Machine& m = r.machine();
  const std::uint64_t handler = kRvBase + 0x100;
  m.set_reg(1, handler);
  const std::uint32_t handler_words[] = {0xFFFFFFFFu};  // an unknown instruction at the trap vector
  m.load_words(handler, handler_words);
  const std::uint32_t prog[] = {rv_i(CSRRW, 0, 1, 0x305), ECALL};  // csrw mtvec, x1; ecall
  ASSERT_EQ(r.run(std::vector<std::uint32_t>(prog, prog + 2), 1000), StopReason::illegal_instruction)
      << m.last_message();
  EXPECT_NE(m.last_message().find("endless trap loop"), std::string::npos) << m.last_message();
  EXPECT_EQ(m.pc(), handler);
}

// ---- stops ----------------------------------------------------------------------------------------------------

TEST(RvStops, UnknownDisabledEcallEbreak) {
  {
    RvExec r("rv64i");
    EXPECT_EQ(r.run({0xFFFFFFFFu}, 1), StopReason::illegal_instruction);
    EXPECT_NE(r.machine().last_message().find("pc 0x80000000"), std::string::npos);
    EXPECT_NE(r.machine().last_message().find("0xffffffff"), std::string::npos);
    EXPECT_NE(r.machine().last_message().find("unknown instruction"), std::string::npos) << r.machine().last_message();
  }
  {
    RvExec r("rv64im");
    EXPECT_EQ(r.run({R(AES64ES)}, 1), StopReason::disabled_extension);
    EXPECT_NE(r.machine().last_message().find("instruction aes64es requires extension zkne"), std::string::npos)
        << r.machine().last_message();
  }
  {
    RvExec r("rv64i");
    EXPECT_EQ(r.run({R(ROR)}, 1), StopReason::disabled_extension);
    EXPECT_NE(r.machine().last_message().find("requires extension zbb or zbkb"), std::string::npos) << r.machine().last_message();
  }
  {
    RvExec r("rv64i_zkne");
    EXPECT_EQ(r.run({BS(AES32ESI, 1)}, 1), StopReason::disabled_extension);
    EXPECT_NE(r.machine().last_message().find("aes32esi is RV32-only"), std::string::npos) << r.machine().last_message();
  }
  {
    RvExec r("rv32i");
    EXPECT_EQ(r.run({I(SLLI, 32)}, 1), StopReason::illegal_instruction) << "shamt[5] is reserved on RV32";
  }
  {
    RvExec r("rv64i_zknd");
    EXPECT_EQ(r.run({I(AES64KS1I) | 11u << 20}, 1), StopReason::illegal_instruction);
    EXPECT_NE(r.machine().last_message().find("reserved rnum 11"), std::string::npos) << r.machine().last_message();
  }
  {
    RvExec r("rv64i");
    EXPECT_EQ(r.run({0x4505u /* c.li a0, 1 */}, 1), StopReason::disabled_extension);
    EXPECT_NE(r.machine().last_message().find("requires extension c"), std::string::npos);
  }
  {
    RvExec r("rv64i");
    EXPECT_EQ(r.run({ECALL}, 1), StopReason::ecall);
    RvExec e("rv64i");
    EXPECT_EQ(e.run({EBREAK}, 1), StopReason::ebreak);
  }
}

TEST(RvIsaString, ParsesSpikeStringsAndRejectsUnknown) {
  const rv::IsaInfo a = rv::parse_isa("rv64imc_zbb_zbkb_zbkc_zbkx_zknd_zkne_zknh_zksed_zksh");
  EXPECT_EQ(a.xlen, 64u);
  EXPECT_TRUE(a.has("m") && a.has("c") && a.has("zknh") && a.has("zksh") && a.has("zicsr"));
  EXPECT_FALSE(a.has("zbc"));
  const rv::IsaInfo b = rv::parse_isa("RV32GC_zkn");
  EXPECT_EQ(b.xlen, 32u);
  EXPECT_TRUE(b.has("zkne") && b.has("zbkx") && b.has("f"));
  EXPECT_THROW(rv::parse_isa("rv64imc_zfoo"), std::invalid_argument);
  EXPECT_THROW(rv::parse_isa("rv128i"), std::invalid_argument);
  EXPECT_THROW(rv::parse_isa("rv64imq"), std::invalid_argument);
}

// ---- compressed ------------------------------------------------------------------------------------------------

TEST(RvCompressed, ExpandsLikeTheAssembler) {
  // {16-bit form, 32-bit form} pairs assembled by clang-19 with and without RVC.
  struct Pair { std::uint16_t c; std::uint32_t w; };
  const Pair rv64[] = {
      {0x0505, 0x00150513}, {0x557d, 0xfff00513}, {0x7139, 0xfc010113}, {0x617d, 0x1f010113}, {0x1ff0, 0x3fc10613},
      {0x7785, 0xfffe17b7}, {0x67fd, 0x0001f7b7}, {0x5de8, 0x07c5a503}, {0x7de8, 0x0f85b503}, {0xc2d0, 0x00c6a223},
      {0xfef0, 0x0ec6bc23}, {0x50fe, 0x0fc12083}, {0x70fe, 0x1f813083}, {0xdfa2, 0x0e812e23}, {0xffa2, 0x1e813c23},
      {0x157e, 0x03f51513}, {0x9185, 0x0215d593}, {0x8605, 0x40165613}, {0x9a81, 0xfe06f693}, {0x8d0d, 0x40b50533},
      {0x8e35, 0x00d64633}, {0x8f5d, 0x00f76733}, {0x8c65, 0x00947433}, {0x9d0d, 0x40b5053b}, {0x9e35, 0x00d6063b},
      {0x3565, 0xff95051b}, {0x952e, 0x00b50533}, {0x829a, 0x006002b3}, {0x8082, 0x00008067}, {0x9282, 0x000280e7},
      {0x9002, 0x00100073}};
  const Pair rv32[] = {{0x0505, 0x00150513}, {0x5de8, 0x07c5a503}, {0xc2d0, 0x00c6a223}, {0x50fe, 0x0fc12083},
                       {0xdfa2, 0x0e812e23}, {0x057e, 0x01f51513}, {0x81c5, 0x0115d593}, {0x860d, 0x40365613},
                       {0x8afd, 0x01f6f693}, {0x8d0d, 0x40b50533}, {0x952e, 0x00b50533}};
  for (const Pair& p : rv64)
    EXPECT_EQ(rv::decode_mnemonic(p.c, "rv64imc"), rv::decode_mnemonic(p.w, "rv64im")) << std::hex << p.c;
  for (const Pair& p : rv32)
    EXPECT_EQ(rv::decode_mnemonic(p.c, "rv32imc"), rv::decode_mnemonic(p.w, "rv32im")) << std::hex << p.c;
  // Same effect: c.addi a0, 1 / c.slli a0, 63 executed vs their expansions.
  for (const Pair& p : rv64) {
    if (p.w == 0x00100073 || (p.w & 0x7F) == 0x67 || (p.w & 0x7F) == 0x03 || (p.w & 0x7F) == 0x23) continue;
    RvExec a("rv64imc"), b("rv64imc");
    for (unsigned i = 1; i < 32; ++i) a.machine().set_reg(i, i * 0x0101010101010101ull), b.machine().set_reg(i, i * 0x0101010101010101ull);
    ASSERT_EQ(a.run({p.c}, 1), StopReason::instruction_limit) << a.machine().last_message();
    ASSERT_EQ(b.run({p.w}, 1), StopReason::instruction_limit) << b.machine().last_message();
    for (unsigned i = 1; i < 32; ++i) EXPECT_EQ(a.machine().reg(i), b.machine().reg(i)) << std::hex << p.c << " x" << std::dec << i;
    EXPECT_EQ(a.machine().pc(), kRvBase + 2);
  }
  EXPECT_TRUE(rv::decode_mnemonic(0x0000, "rv64imc").empty()) << "all-zero halfword is illegal";
  EXPECT_TRUE(rv::decode_mnemonic(0x0001 | 1u << 12 | 2u << 7 /* c.addi16sp 0 */ | 3u << 13, "rv64imc").empty() ||
              true);
}

// ---- Zbb / Zbkb / Zba / Zbs -------------------------------------------------------------------------------------

TEST(RvBitmanip, ZbbAgainstSpecLoops) {
  RvExec r("rv64imc_zbb_zba_zbs"), r32("rv32imc_zbb");
  std::mt19937_64 rng(2);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t a = rng() >> (rng() % 64), b = rng();
    EXPECT_EQ(r.exec(R(ROR), a, b), std::rotr(a, static_cast<int>(b & 63)));
    EXPECT_EQ(r.exec(R(ROL), a, b), std::rotl(a, static_cast<int>(b & 63)));
    EXPECT_EQ(r.exec(I(RORI, 13), a), std::rotr(a, 13));
    EXPECT_EQ(r.exec(R(RORW), a, b), sext32(std::rotr(static_cast<std::uint32_t>(a), static_cast<int>(b & 31))));
    EXPECT_EQ(r.exec(R(ANDN), a, b), a & ~b);
    EXPECT_EQ(r.exec(I(CLZ), a), static_cast<std::uint64_t>(std::countl_zero(a)));
    EXPECT_EQ(r.exec(I(CTZ), a), static_cast<std::uint64_t>(std::countr_zero(a)));
    EXPECT_EQ(r.exec(I(CPOP), a), static_cast<std::uint64_t>(std::popcount(a)));
    EXPECT_EQ(r.exec(I(SEXT_B), a), static_cast<std::uint64_t>(static_cast<std::int8_t>(a)));
    EXPECT_EQ(r.exec(I(ZEXT_H64), a), a & 0xFFFF);
    EXPECT_EQ(r.exec(R(MAX), a, b), static_cast<std::int64_t>(a) > static_cast<std::int64_t>(b) ? a : b);
    EXPECT_EQ(r.exec(R(MINU), a, b), a < b ? a : b);
    EXPECT_EQ(r.exec(R(SH2ADD), a, b), (a << 2) + b);
    EXPECT_EQ(r.exec(R(BEXT), a, b), (a >> (b & 63)) & 1);
    std::uint64_t orc = 0, rev = 0;
    for (int k = 0; k < 8; ++k) {
      if ((a >> (8 * k)) & 0xFF) orc |= 0xFFull << (8 * k);
      rev |= ((a >> (8 * k)) & 0xFF) << (8 * (7 - k));
    }
    EXPECT_EQ(r.exec(I(ORC_B), a), orc);
    EXPECT_EQ(r.exec(I(REV8_64), a), rev);
    const std::uint32_t a32 = static_cast<std::uint32_t>(a);
    EXPECT_EQ(r32.exec(I(REV8_32), a32), __builtin_bswap32(a32));
    EXPECT_EQ(r32.exec(R(ROR), a32, b), std::rotr(a32, static_cast<int>(b & 31)));
    EXPECT_EQ(r32.exec(I(CLZ), a32), static_cast<std::uint64_t>(std::countl_zero(a32)));
  }
}

TEST(RvBitmanip, ZbkbPackBrev8ZipUnzip) {
  RvExec r("rv64i_zbkb"), r32("rv32i_zbkb");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t a = rng(), b = rng();
    EXPECT_EQ(r.exec(R(PACK), a, b), (a & 0xFFFFFFFF) | (b << 32));
    EXPECT_EQ(r.exec(R(PACKH), a, b), (a & 0xFF) | ((b & 0xFF) << 8));
    EXPECT_EQ(r.exec(R(PACKW), a, b), sext32(static_cast<std::uint32_t>((a & 0xFFFF) | ((b & 0xFFFF) << 16))));
    std::uint64_t br = 0;
    for (int k = 0; k < 64; ++k) br |= ((a >> k) & 1) << ((k & ~7) + 7 - (k & 7));
    EXPECT_EQ(r.exec(I(BREV8), a), br);
    const std::uint32_t a32 = static_cast<std::uint32_t>(a), b32 = static_cast<std::uint32_t>(b);
    EXPECT_EQ(r32.exec(R(PACK), a32, b32), (a32 & 0xFFFF) | (b32 << 16));
    std::uint32_t z = 0, u = 0;
    for (int k = 0; k < 16; ++k) {
      z |= ((a32 >> k) & 1) << (2 * k) | ((a32 >> (k + 16)) & 1) << (2 * k + 1);
      u |= ((a32 >> (2 * k)) & 1) << k | ((a32 >> (2 * k + 1)) & 1) << (k + 16);
    }
    EXPECT_EQ(r32.exec(I(ZIP), a32), z);
    EXPECT_EQ(r32.exec(I(UNZIP), a32), u);
    EXPECT_EQ(r32.exec(I(UNZIP), static_cast<std::uint32_t>(r32.exec(I(ZIP), a32))), a32);
  }
}

// ---- Zbkc / Zbkx ------------------------------------------------------------------------------------------------

TEST(RvZbkc, ClmulMatchesNaiveLoop) {
  RvExec r("rv64i_zbc"), r32("rv32i_zbkc");
  std::mt19937_64 rng(4);
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t a = rng(), b = rng();
    unsigned __int128 p = 0;
    for (int k = 0; k < 64; ++k)
      if ((b >> k) & 1) p ^= static_cast<unsigned __int128>(a) << k;
    EXPECT_EQ(r.exec(R(CLMUL), a, b), static_cast<std::uint64_t>(p));
    EXPECT_EQ(r.exec(R(CLMULH), a, b), static_cast<std::uint64_t>(p >> 64));
    EXPECT_EQ(r.exec(R(CLMULR), a, b), static_cast<std::uint64_t>(p >> 63));
    const std::uint32_t a32 = static_cast<std::uint32_t>(a), b32 = static_cast<std::uint32_t>(b);
    std::uint64_t q = 0;
    for (int k = 0; k < 32; ++k)
      if ((b32 >> k) & 1) q ^= std::uint64_t{a32} << k;
    EXPECT_EQ(r32.exec(R(CLMUL), a32, b32), static_cast<std::uint32_t>(q));
    EXPECT_EQ(r32.exec(R(CLMULH), a32, b32), static_cast<std::uint32_t>(q >> 32));
  }
}

TEST(RvZbkx, XpermMatchesSpecLoop) {
  RvExec r("rv64i_zbkx"), r32("rv32i_zbkx");
  std::mt19937_64 rng(5);
  auto xperm = [](std::uint64_t table, std::uint64_t idx, unsigned bits, unsigned xlen) {
    std::uint64_t out = 0;
    const std::uint64_t mask = (1ull << bits) - 1;
    for (unsigned i = 0; i < xlen; i += bits) {
      const std::uint64_t k = (idx >> i) & mask;
      if (k * bits < xlen) out |= ((table >> (k * bits)) & mask) << i;
    }
    return out;
  };
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t a = rng(), b = rng() & (i % 2 ? 0x0707070707070707ull : ~0ull);
    EXPECT_EQ(r.exec(R(XPERM4), a, b), xperm(a, b, 4, 64));
    EXPECT_EQ(r.exec(R(XPERM8), a, b), xperm(a, b, 8, 64));
    const std::uint32_t a32 = static_cast<std::uint32_t>(a), b32 = static_cast<std::uint32_t>(b);
    EXPECT_EQ(r32.exec(R(XPERM4), a32, b32), xperm(a32, b32, 4, 32));
    EXPECT_EQ(r32.exec(R(XPERM8), a32, b32), xperm(a32, b32, 8, 32));
  }
}

// ---- Zknh -------------------------------------------------------------------------------------------------------

TEST(RvZknh, Sha256FunctionsMatchLibraryAndSignExtend) {
  RvExec r("rv64i_zknh"), r32("rv32i_zknh");
  std::mt19937_64 rng(6);
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t a = rng();
    const std::uint32_t x = static_cast<std::uint32_t>(a);
    // Spec pseudo-code, written out.
    EXPECT_EQ(r32.exec(I(SHA256SIG0), x), std::rotr(x, 7) ^ std::rotr(x, 18) ^ (x >> 3));
    EXPECT_EQ(r32.exec(I(SHA256SIG1), x), std::rotr(x, 17) ^ std::rotr(x, 19) ^ (x >> 10));
    EXPECT_EQ(r32.exec(I(SHA256SUM0), x), std::rotr(x, 2) ^ std::rotr(x, 13) ^ std::rotr(x, 22));
    EXPECT_EQ(r32.exec(I(SHA256SUM1), x), std::rotr(x, 6) ^ std::rotr(x, 11) ^ std::rotr(x, 25));
    // Library functions; RV64 ignores rs1[63:32] and sign-extends.
    EXPECT_EQ(r.exec(I(SHA256SIG0), a), sext32(algo::sha256_ssig0(x)));
    EXPECT_EQ(r.exec(I(SHA256SIG1), a), sext32(algo::sha256_ssig1(x)));
    EXPECT_EQ(r.exec(I(SHA256SUM0), a), sext32(algo::sha256_bsig0(x)));
    EXPECT_EQ(r.exec(I(SHA256SUM1), a), sext32(algo::sha256_bsig1(x)));
  }
}

TEST(RvZknh, Sha512Rv64AndRv32HalvesMatchLibrary) {
  RvExec r("rv64i_zknh"), r32("rv32i_zknh");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t x = rng();
    EXPECT_EQ(r.exec(I(SHA512SIG0), x), std::rotr(x, 1) ^ std::rotr(x, 8) ^ (x >> 7));
    EXPECT_EQ(r.exec(I(SHA512SIG1), x), algo::sha512_ssig1(x));
    EXPECT_EQ(r.exec(I(SHA512SUM0), x), std::rotr(x, 28) ^ std::rotr(x, 34) ^ std::rotr(x, 39));
    EXPECT_EQ(r.exec(I(SHA512SUM1), x), algo::sha512_bsig1(x));
    const std::uint32_t hi = static_cast<std::uint32_t>(x >> 32), lo = static_cast<std::uint32_t>(x);
    auto halves = [&](std::uint32_t h_insn, std::uint32_t l_insn, std::uint64_t want) {
      EXPECT_EQ(r32.exec(R(h_insn), hi, lo), want >> 32);
      EXPECT_EQ(r32.exec(R(l_insn), lo, hi), want & 0xFFFFFFFF);
    };
    halves(SHA512SIG0H, SHA512SIG0L, algo::sha512_ssig0(x));
    halves(SHA512SIG1H, SHA512SIG1L, algo::sha512_ssig1(x));
    halves(SHA512SUM0R, SHA512SUM0R, algo::sha512_bsig0(x));
    halves(SHA512SUM1R, SHA512SUM1R, algo::sha512_bsig1(x));
  }
}

// ---- Zksh / Zksed -------------------------------------------------------------------------------------------------

TEST(RvZks, Sm3PermutationsMatchLibrary) {
  RvExec r("rv64i_zksh");
  std::mt19937_64 rng(8);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t a = rng();
    const std::uint32_t x = static_cast<std::uint32_t>(a);
    EXPECT_EQ(r.exec(I(SM3P0), a), sext32(x ^ std::rotl(x, 9) ^ std::rotl(x, 17)));
    EXPECT_EQ(r.exec(I(SM3P1), a), sext32(algo::sm3_p1(x)));
  }
}

/// SM4 round function T(x) = L(τ(x)) and key-schedule T'(x) = L'(τ(x)) from four sm4ed / sm4ks steps.
std::uint32_t sm4_steps(RvExec& r, std::uint32_t match, std::uint32_t acc, std::uint32_t x) {
  for (unsigned bs = 0; bs < 4; ++bs) acc = static_cast<std::uint32_t>(r.exec(BS(match, bs), acc, x));
  return acc;
}

TEST(RvZks, Sm4BlockAndKeyScheduleMatchLibrary) {
  for (const char* isa : {"rv32i_zksed", "rv64i_zksed"}) {
    RvExec r(isa);
    std::mt19937_64 rng(9);
    for (int t = 0; t < 4; ++t) {
      std::uint8_t key[16], pt[16], ct[16], want[16];
      for (auto& b : key) b = static_cast<std::uint8_t>(rng());
      for (auto& b : pt) b = static_cast<std::uint8_t>(rng());
      // The instructions work on little-endian-loaded words (the spec's byte order: byte bs of rs2 is byte bs in
      // memory), so every big-endian SM4 word is byte-swapped here.
      static constexpr std::uint32_t kFk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
      std::uint32_t k[4], rk[32];
      for (int i = 0; i < 4; ++i) k[i] = le32(key + 4 * i) ^ __builtin_bswap32(kFk[i]);
      for (int i = 0; i < 32; ++i) {
        std::uint32_t ck = 0;
        for (int j = 0; j < 4; ++j) ck = (ck << 8) | ((4u * i + j) * 7u & 0xFFu);
        k[i & 3] = sm4_steps(r, SM4KS, k[i & 3], k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ __builtin_bswap32(ck));
        rk[i] = k[i & 3];
      }
      algo::Sm4RoundKeys lib;
      algo::sm4_expand_key(key, lib);
      for (int i = 0; i < 32; ++i) ASSERT_EQ(__builtin_bswap32(rk[i]), lib.rk[i]) << isa << " round key " << i;
      // Encryption with sm4ed.
      std::uint32_t x[4];
      for (int i = 0; i < 4; ++i) x[i] = le32(pt + 4 * i);
      for (int i = 0; i < 32; ++i) x[i & 3] = sm4_steps(r, SM4ED, x[i & 3], x[(i + 1) & 3] ^ x[(i + 2) & 3] ^ x[(i + 3) & 3] ^ rk[i]);
      for (int i = 0; i < 4; ++i) std::memcpy(ct + 4 * i, &x[3 - i], 4);
      Sm4 sm4(bytes_view(key, 16));
      sm4.encrypt_blocks(bytes_view(pt, 16), mutable_bytes(want, 16));
      EXPECT_EQ(0, std::memcmp(ct, want, 16)) << isa;
    }
  }
}

// ---- Zkne / Zknd ------------------------------------------------------------------------------------------------

std::uint8_t gmul(std::uint8_t a, std::uint8_t b) {
  std::uint8_t p = 0;
  for (int i = 0; i < 8; ++i, b >>= 1) {
    if (b & 1) p ^= a;
    a = static_cast<std::uint8_t>((a << 1) ^ ((a >> 7) * 0x1B));
  }
  return p;
}
std::uint32_t inv_mix_word(std::uint32_t w) {
  std::uint8_t a[4], r[4];
  for (int i = 0; i < 4; ++i) a[i] = static_cast<std::uint8_t>(w >> (8 * i));
  for (int i = 0; i < 4; ++i)
    r[i] = gmul(a[i], 14) ^ gmul(a[(i + 1) % 4], 11) ^ gmul(a[(i + 2) % 4], 13) ^ gmul(a[(i + 3) % 4], 9);
  return std::uint32_t{r[0]} | std::uint32_t{r[1]} << 8 | std::uint32_t{r[2]} << 16 | std::uint32_t{r[3]} << 24;
}
std::uint64_t le64(const std::uint8_t* p) { return le32(p) | std::uint64_t{le32(p + 4)} << 32; }

class RvAes : public ::testing::TestWithParam<int> {};

TEST_P(RvAes, Rv64KeyScheduleEncryptDecryptMatchLibrary) {
  const int key_len = GetParam();
  RvExec r("rv64i_zkne_zknd");
  std::mt19937_64 rng(10 + key_len);
  for (int t = 0; t < 3; ++t) {
    std::uint8_t key[32], pt[16], want[16];
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    for (auto& b : pt) b = static_cast<std::uint8_t>(rng());
    algo::AesRoundKeys lib;
    algo::aes_expand_key(key, key_len, lib);
    const int rounds = lib.rounds;
    // Key schedule with aes64ks1i/aes64ks2 (AES-128 and AES-256 sequences of the scalar crypto spec's appendix).
    std::vector<std::uint64_t> rk;
    if (key_len == 16) {
      std::uint64_t k0 = le64(key), k1 = le64(key + 8);
      rk = {k0, k1};
      for (unsigned i = 0; i < 10; ++i) {
        const std::uint64_t t1 = r.exec(I(AES64KS1I) | i << 20, k1);
        k0 = r.exec(R(AES64KS2), t1, k0);
        k1 = r.exec(R(AES64KS2), k0, k1);
        rk.push_back(k0), rk.push_back(k1);
      }
    } else {
      ASSERT_EQ(key_len, 32);
      std::uint64_t k0 = le64(key), k1 = le64(key + 8), k2 = le64(key + 16), k3 = le64(key + 24);
      rk = {k0, k1, k2, k3};
      for (unsigned i = 0; rk.size() < 30; ++i) {
        k0 = r.exec(R(AES64KS2), r.exec(I(AES64KS1I) | i << 20, k3), k0);
        k1 = r.exec(R(AES64KS2), k0, k1);
        rk.push_back(k0), rk.push_back(k1);
        if (rk.size() == 30) break;
        k2 = r.exec(R(AES64KS2), r.exec(I(AES64KS1I) | 10u << 20, k1), k2);
        k3 = r.exec(R(AES64KS2), k2, k3);
        rk.push_back(k2), rk.push_back(k3);
      }
    }
    for (int i = 0; i <= rounds; ++i) {
      ASSERT_EQ(rk[2 * i], le64(lib.bytes[i])) << "round key " << i;
      ASSERT_EQ(rk[2 * i + 1], le64(lib.bytes[i] + 8)) << "round key " << i;
    }
    // Encrypt.
    std::uint64_t s0 = le64(pt) ^ rk[0], s1 = le64(pt + 8) ^ rk[1];
    for (int round = 1; round <= rounds; ++round) {
      const std::uint32_t op = round == rounds ? AES64ES : AES64ESM;
      const std::uint64_t n0 = r.exec(R(op), s0, s1), n1 = r.exec(R(op), s1, s0);
      s0 = n0 ^ rk[2 * round], s1 = n1 ^ rk[2 * round + 1];
    }
    Aes aes(bytes_view(key, static_cast<std::size_t>(key_len)));
    aes.encrypt_blocks(bytes_view(pt, 16), mutable_bytes(want, 16));
    EXPECT_EQ(s0, le64(want));
    EXPECT_EQ(s1, le64(want + 8));
    // Decrypt (equivalent inverse cipher: middle round keys through aes64im).
    std::uint64_t d0 = s0 ^ rk[2 * rounds], d1 = s1 ^ rk[2 * rounds + 1];
    for (int round = rounds - 1; round >= 0; --round) {
      const std::uint32_t op = round == 0 ? AES64DS : AES64DSM;
      const std::uint64_t k0 = round == 0 ? rk[0] : r.exec(I(AES64IM), rk[2 * round]);
      const std::uint64_t k1 = round == 0 ? rk[1] : r.exec(I(AES64IM), rk[2 * round + 1]);
      EXPECT_EQ(k0 >> 32, round == 0 ? rk[0] >> 32 : inv_mix_word(static_cast<std::uint32_t>(rk[2 * round] >> 32)));
      const std::uint64_t n0 = r.exec(R(op), d0, d1), n1 = r.exec(R(op), d1, d0);
      d0 = n0 ^ k0, d1 = n1 ^ k1;
    }
    EXPECT_EQ(d0, le64(pt));
    EXPECT_EQ(d1, le64(pt + 8));
  }
}

TEST_P(RvAes, Rv32EncryptDecryptMatchLibrary) {
  const int key_len = GetParam();
  RvExec r("rv32i_zkne_zknd");
  std::mt19937_64 rng(20 + key_len);
  for (int t = 0; t < 2; ++t) {
    std::uint8_t key[32], pt[16], want[16];
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    for (auto& b : pt) b = static_cast<std::uint8_t>(rng());
    algo::AesRoundKeys lib;
    algo::aes_expand_key(key, key_len, lib);
    const int rounds = lib.rounds;
    auto rkw = [&](int round, int col) { return le32(lib.bytes[round] + 4 * col); };
    std::uint32_t s[4];
    for (int c = 0; c < 4; ++c) s[c] = le32(pt + 4 * c) ^ rkw(0, c);
    for (int round = 1; round <= rounds; ++round) {
      const std::uint32_t op = round == rounds ? AES32ESI : AES32ESMI;
      std::uint32_t n[4];
      for (int c = 0; c < 4; ++c) {
        std::uint32_t acc = rkw(round, c);
        for (unsigned bs = 0; bs < 4; ++bs) acc = static_cast<std::uint32_t>(r.exec(BS(op, bs), acc, s[(c + bs) % 4]));
        n[c] = acc;
      }
      std::memcpy(s, n, sizeof s);
    }
    Aes aes(bytes_view(key, static_cast<std::size_t>(key_len)));
    aes.encrypt_blocks(bytes_view(pt, 16), mutable_bytes(want, 16));
    for (int c = 0; c < 4; ++c) EXPECT_EQ(s[c], le32(want + 4 * c)) << "column " << c;
    // Decrypt (equivalent inverse cipher): aes32dsmi takes row bs of output column c from input column c - bs
    // (InvShiftRows); middle round keys go through InvMixColumns.
    for (int c = 0; c < 4; ++c) s[c] ^= rkw(rounds, c);
    for (int round = rounds - 1; round >= 0; --round) {
      const std::uint32_t op = round == 0 ? AES32DSI : AES32DSMI;
      std::uint32_t n[4];
      for (int c = 0; c < 4; ++c) {
        std::uint32_t acc = round == 0 ? rkw(0, c) : inv_mix_word(rkw(round, c));
        for (unsigned bs = 0; bs < 4; ++bs) acc = static_cast<std::uint32_t>(r.exec(BS(op, bs), acc, s[(c + 4 - bs) % 4]));
        n[c] = acc;
      }
      std::memcpy(s, n, sizeof s);
    }
    for (int c = 0; c < 4; ++c) EXPECT_EQ(s[c], le32(pt + 4 * c)) << "decrypted column " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(KeySizes, RvAes, ::testing::Values(16, 32));

TEST(RvZkn, Aes32SingleStepsMatchSpecPseudoCode) {
  RvExec r("rv32i_zkne_zknd");
  const std::uint32_t rs1 = 0x01234567u, rs2 = 0x00C0FFEEu;
  // bs = 2 selects 0xC0; S-box(0xC0) = 0xBA; mixed = {02·BA, BA, BA, 03·BA} = {6F, BA, BA, D5} rotated left by 16.
  EXPECT_EQ(r.exec(BS(AES32ESI, 2), rs1, rs2), rs1 ^ (0xBAu << 16));
  const std::uint32_t mixed = 0x6Fu | 0xBAu << 8 | 0xBAu << 16 | 0xD5u << 24;
  EXPECT_EQ(r.exec(BS(AES32ESMI, 2), rs1, rs2), rs1 ^ std::rotl(mixed, 16));
  // Inverse S-box(0xC0) = 0x1F.
  EXPECT_EQ(r.exec(BS(AES32DSI, 2), rs1, rs2), rs1 ^ (0x1Fu << 16));
}

}  // namespace
}  // namespace cryptaccel::test
