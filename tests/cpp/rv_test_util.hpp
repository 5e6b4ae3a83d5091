// Helpers for the RISC-V simulator tests: a one-instruction executor and instruction encoders.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cryptaccel/rv.hpp"

namespace cryptaccel::test {

inline constexpr std::uint64_t kRvBase = 0x80000000ull;

/// R-type word from a MATCH value (funct fields and opcode) and register numbers.
constexpr std::uint32_t rv_r(std::uint32_t match, unsigned rd, unsigned rs1, unsigned rs2) {
  return match | rd << 7 | rs1 << 15 | rs2 << 20;
}
/// I-type word from a MATCH value and a 12-bit immediate.
constexpr std::uint32_t rv_i(std::uint32_t match, unsigned rd, unsigned rs1, std::int32_t imm) {
  return match | rd << 7 | rs1 << 15 | (static_cast<std::uint32_t>(imm) & 0xFFF) << 20;
}

/// A small machine that executes single instructions: rs1 = x1, rs2 = x2, rd = x3 by convention.
class RvExec {
 public:
  explicit RvExec(const std::string& isa) : m_(config(isa)) {}
  static rv::MachineConfig config(const std::string& isa) {
    rv::MachineConfig c;
    c.isa = isa;
    c.ram_size = 1u << 16;
    c.spike_boot = false;
    return c;
  }
  /// Executes `word` with x1 = a, x2 = b; returns x3 (zero-extended on RV32).
  std::uint64_t exec(std::uint32_t word, std::uint64_t a = 0, std::uint64_t b = 0) {
    m_.set_reg(1, a);
    m_.set_reg(2, b);
    m_.set_reg(3, 0xDEADBEEF);
    const std::uint32_t words[] = {word};
    m_.load_words(kRvBase, words);
    const rv::StopReason r = m_.step(1);
    EXPECT_EQ(r, rv::StopReason::instruction_limit) << std::hex << "word 0x" << word << ": " << m_.last_message();
    return m_.reg(3);
  }
  /// Executes a sequence from kRvBase until it has run `n` instructions.
  rv::StopReason run(const std::vector<std::uint32_t>& words, std::uint64_t n) {
    m_.load_words(kRvBase, words);
    return m_.step(n);
  }
  rv::Machine& machine() { return m_; }

 private:
  rv::Machine m_;
};

}  // namespace cryptaccel::test
