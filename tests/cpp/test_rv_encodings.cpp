// The simulator's encoding list (src/rv/isa/encodings.def) against the shared reference table of the crypto
// encodings, and for internal consistency: every entry decodes to itself, and two entries overlap only where one
// is a strictly more specific alias of the other (zext.h = pack rd, rs1, x0; rev8 in Zbb and Zbkb).
#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "rv/core.hpp"

namespace cryptaccel::test {
namespace {

using rv::kOpInfo;
constexpr std::size_t kOps = static_cast<std::size_t>(rv::Op::decode_stub);

std::string all_extensions(unsigned xlen) {
  return "rv" + std::to_string(xlen) +
         "imacv_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkne_zknd_zknh_zksed_zksh_zvbb_zvbc_zvkg_zvkned_zvknhb_zvksed_zvksh_xkeccak";
}

TEST(RvEncodings, EveryEntryDecodesToItselfOrAMoreSpecificAlias) {
  std::mt19937 rng(11);
  for (std::size_t op = 0; op < kOps; ++op) {
    const rv::OpInfo& info = kOpInfo[op];
    ASSERT_EQ(info.match & ~info.mask, 0u) << info.mnemonic << ": MATCH has bits outside MASK";
    for (unsigned xlen : {32u, 64u}) {
      if (info.xlen && info.xlen != xlen) continue;
      for (int t = 0; t < 64; ++t) {
        std::uint32_t w = (static_cast<std::uint32_t>(rng()) & ~info.mask) | info.match;
        if (static_cast<rv::Op>(op) == rv::Op::aes64ks1i) w &= ~(0xFu << 20);  // rnum 0: the defined range
        const std::string got = rv::decode_mnemonic(w, all_extensions(xlen));
        if (got == info.mnemonic) continue;
        // Otherwise a more specific entry must have claimed the word.
        bool alias = false;
        for (std::size_t other = 0; other < kOps; ++other)
          if (got == kOpInfo[other].mnemonic && (w & kOpInfo[other].mask) == kOpInfo[other].match &&
              std::popcount(kOpInfo[other].mask) > std::popcount(info.mask))
            alias = true;
        EXPECT_TRUE(alias) << info.mnemonic << " word 0x" << std::hex << w << " decodes as '" << got << "' on RV"
                           << std::dec << xlen;
      }
    }
  }
}

TEST(RvEncodings, CryptoEntriesMatchTheSharedReference) {
  const std::string path = std::string(CRYPTACCEL_RV_PROJECT_DIR) + "/../shared/reference/riscv-crypto-encodings.md";
  std::ifstream f(path);
  if (!f) GTEST_SKIP() << "shared reference table not found at " << path;
  // Rows: | mnemonic | ext | operands | MATCH | MASK | ...
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> ref;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 5 || cells[3].rfind("0x", 0) != 0 || cells[1].find("(draft)") != std::string::npos) continue;
    if (cells[0].find(" (draft)") != std::string::npos || cells[1] == "same") continue;
    ref[cells[0]] = {static_cast<std::uint32_t>(std::stoul(cells[3], nullptr, 16)),
                     static_cast<std::uint32_t>(std::stoul(cells[4], nullptr, 16))};
  }
  ASSERT_GT(ref.size(), 40u) << "could not parse " << path;
  int compared = 0;
  for (std::size_t op = 0; op < kOps; ++op) {
    std::string name = kOpInfo[op].mnemonic;
    if (name == "rev8") name = kOpInfo[op].xlen == 32 ? "rev8.rv32" : "rev8";
    const auto it = ref.find(name);
    if (it == ref.end()) continue;
    if (name == "rori" && kOpInfo[op].xlen == 32) continue;  // the table lists the RV64 (6-bit shamt) form
    EXPECT_EQ(kOpInfo[op].match, it->second.first) << name;
    EXPECT_EQ(kOpInfo[op].mask, it->second.second) << name;
    ++compared;
  }
  EXPECT_GE(compared, 85) << "scalar and vector crypto and bit-manipulation entries compared";
}

}  // namespace
}  // namespace cryptaccel::test
