// Helpers for the vector simulator tests: instruction encoders (hand-assembled from the RVV 1.0 and vector crypto
// formats; the encodings themselves are checked against LLVM's assembler in test_rv_vector_encodings.cpp) and a
// machine that runs short sequences with mstatus.VS on.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cryptaccel/rv.hpp"

namespace cryptaccel::test::rvv {

inline constexpr std::uint64_t kBase = 0x80000000ull;
inline constexpr std::uint64_t kData = kBase + 0x10000;  // data area of the sequences
inline constexpr const char* kIsa = "rv64imcv_zvkned_zvknhb_zvkg_zvksed_zvksh_zvbb_zvbc";

// funct3 of OP-V.
enum : unsigned { IVV = 0, MVV = 2, IVI = 3, IVX = 4, MVX = 6 };

/// vtype immediate: SEW bits, LMUL as log2 (-3..3), tail/mask agnostic flags.
constexpr std::uint32_t vtypei(unsigned sew, int lmul_log2, bool ta = false, bool ma = false) {
  unsigned vsew = 0;
  while ((8u << vsew) < sew) ++vsew;
  return (static_cast<unsigned>(lmul_log2) & 7) | vsew << 3 | (ta ? 1u : 0u) << 6 | (ma ? 1u : 0u) << 7;
}
constexpr std::uint32_t vsetvli(unsigned rd, unsigned rs1, std::uint32_t vt) { return 0x7057 | rd << 7 | rs1 << 15 | vt << 20; }
constexpr std::uint32_t vsetivli(unsigned rd, unsigned uimm, std::uint32_t vt) {
  return 0xC0007057u | rd << 7 | uimm << 15 | vt << 20;
}
constexpr std::uint32_t vsetvl(unsigned rd, unsigned rs1, unsigned rs2) { return 0x80007057u | rd << 7 | rs1 << 15 | rs2 << 20; }
/// OP-V: funct6, funct3, vd, vs2, vs1/rs1/imm field, vm (true: unmasked).
constexpr std::uint32_t opv(unsigned f6, unsigned f3, unsigned vd, unsigned vs2, unsigned vs1, bool vm = true) {
  return 0x57 | f3 << 12 | vd << 7 | (vs1 & 31) << 15 | vs2 << 20 | (vm ? 1u : 0u) << 25 | f6 << 26;
}
/// OP-VE (vector crypto, OPMVV, vm = 1).
constexpr std::uint32_t opve(unsigned f6, unsigned vd, unsigned vs2, unsigned vs1) {
  return 0x77 | 2u << 12 | vd << 7 | vs1 << 15 | vs2 << 20 | 1u << 25 | f6 << 26;
}
constexpr unsigned width_of(unsigned eew) { return eew == 8 ? 0 : eew == 16 ? 5 : eew == 32 ? 6 : 7; }
constexpr std::uint32_t vle(unsigned eew, unsigned vd, unsigned rs1, bool vm = true) {
  return 0x07 | width_of(eew) << 12 | vd << 7 | rs1 << 15 | (vm ? 1u : 0u) << 25;
}
constexpr std::uint32_t vse(unsigned eew, unsigned vs3, unsigned rs1, bool vm = true) { return vle(eew, vs3, rs1, vm) | 0x20; }
constexpr std::uint32_t vlse(unsigned eew, unsigned vd, unsigned rs1, unsigned rs2) {
  return vle(eew, vd, rs1) | 2u << 26 | rs2 << 20;
}
constexpr std::uint32_t addi(unsigned rd, unsigned rs1, int imm) {
  return 0x13 | rd << 7 | rs1 << 15 | (static_cast<std::uint32_t>(imm) & 0xFFF) << 20;
}
constexpr std::uint32_t csrr(unsigned rd, unsigned csr) { return 0x2073 | rd << 7 | csr << 20; }

// A few named instructions (vd, vs2, vs1/rs1/imm).
constexpr std::uint32_t vadd_vv(unsigned vd, unsigned vs2, unsigned vs1, bool vm = true) { return opv(0x00, IVV, vd, vs2, vs1, vm); }
constexpr std::uint32_t vadd_vi(unsigned vd, unsigned vs2, int imm, bool vm = true) {
  return opv(0x00, IVI, vd, vs2, static_cast<unsigned>(imm) & 31, vm);
}
constexpr std::uint32_t vmv_v_v(unsigned vd, unsigned vs1) { return opv(0x17, IVV, vd, 0, vs1); }
constexpr std::uint32_t vmerge_vvm(unsigned vd, unsigned vs2, unsigned vs1) { return opv(0x17, IVV, vd, vs2, vs1, false); }
constexpr std::uint32_t vrev8_v(unsigned vd, unsigned vs2) { return opv(0x12, MVV, vd, vs2, 0x09); }
constexpr std::uint32_t vaesz_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 7); }
constexpr std::uint32_t vaesem_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 2); }
constexpr std::uint32_t vaesef_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 3); }
constexpr std::uint32_t vaesef_vv(unsigned vd, unsigned vs2) { return opve(0x28, vd, vs2, 3); }
constexpr std::uint32_t vaesdm_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 0); }
constexpr std::uint32_t vaesdf_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 1); }
constexpr std::uint32_t vaeskf1(unsigned vd, unsigned vs2, unsigned rnd) { return opve(0x22, vd, vs2, rnd); }
constexpr std::uint32_t vaeskf2(unsigned vd, unsigned vs2, unsigned rnd) { return opve(0x2a, vd, vs2, rnd); }
constexpr std::uint32_t vsha2ms(unsigned vd, unsigned vs2, unsigned vs1) { return opve(0x2d, vd, vs2, vs1); }
constexpr std::uint32_t vsha2ch(unsigned vd, unsigned vs2, unsigned vs1) { return opve(0x2e, vd, vs2, vs1); }
constexpr std::uint32_t vsha2cl(unsigned vd, unsigned vs2, unsigned vs1) { return opve(0x2f, vd, vs2, vs1); }
constexpr std::uint32_t vsm4k(unsigned vd, unsigned vs2, unsigned rnd) { return opve(0x21, vd, vs2, rnd); }
constexpr std::uint32_t vsm4r_vs(unsigned vd, unsigned vs2) { return opve(0x29, vd, vs2, 0x10); }
constexpr std::uint32_t vsm3me(unsigned vd, unsigned vs2, unsigned vs1) { return opve(0x20, vd, vs2, vs1); }
constexpr std::uint32_t vsm3c(unsigned vd, unsigned vs2, unsigned rnd) { return opve(0x2b, vd, vs2, rnd); }
constexpr std::uint32_t vghsh(unsigned vd, unsigned vs2, unsigned vs1) { return opve(0x2c, vd, vs2, vs1); }
constexpr std::uint32_t vgmul(unsigned vd, unsigned vs2) { return opve(0x28, vd, vs2, 0x11); }

/// A vector machine for short sequences: each run() starts at kBase with `li t0, 0x200; csrs mstatus, t0`
/// (mstatus.VS on) unless told otherwise.
class VecMachine {
 public:
  explicit VecMachine(unsigned vlen = 128, const std::string& isa = kIsa, std::string cycle_model = {}) : m_(config(vlen, isa, cycle_model)) {}
  static rv::MachineConfig config(unsigned vlen, const std::string& isa, const std::string& cycle_model) {
    rv::MachineConfig c;
    c.isa = isa;
    c.vlen = vlen;
    c.ram_size = 1u << 20;
    c.spike_boot = false;
    if (!cycle_model.empty()) c.cycle_model.parse(cycle_model);
    return c;
  }
  /// Runs the sequence to its end; returns the stop reason (instruction_limit when every instruction ran).
  rv::StopReason run(const std::vector<std::uint32_t>& body, bool enable_vs = true) {
    std::vector<std::uint32_t> words;
    if (enable_vs) words = {addi(5, 0, 0x200), 0x3002A073u /* csrrs x0, mstatus, x5 */};
    words.insert(words.end(), body.begin(), body.end());
    m_.load_words(kBase, words);
    return m_.step(words.size());
  }
  /// Runs and expects every instruction to complete.
  void run_ok(const std::vector<std::uint32_t>& body) {
    const rv::StopReason r = run(body);
    ASSERT_EQ(r, rv::StopReason::instruction_limit) << m_.last_message();
  }
  void poke(std::uint64_t addr, const std::vector<std::uint8_t>& bytes) { m_.write_memory(addr, bytes); }
  std::vector<std::uint8_t> peek(std::uint64_t addr, std::size_t n) const {
    std::vector<std::uint8_t> out(n);
    m_.read_memory(addr, out);
    return out;
  }
  std::vector<std::uint8_t> vreg(unsigned i) const { return m_.vreg(i); }
  void set_vreg(unsigned i, const std::vector<std::uint8_t>& b) { m_.set_vreg(i, b); }
  std::uint32_t vword(unsigned reg, unsigned k) const {
    const auto b = m_.vreg(reg + (4 * k) / (m_.vlen() / 8));
    std::uint32_t w;
    std::memcpy(&w, b.data() + (4 * k) % (m_.vlen() / 8), 4);
    return w;
  }
  rv::Machine& machine() { return m_; }

 private:
  rv::Machine m_;
};

/// Little-endian bytes of 32-bit words.
inline std::vector<std::uint8_t> le_words(const std::vector<std::uint32_t>& w) {
  std::vector<std::uint8_t> b(4 * w.size());
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}
inline std::vector<std::uint8_t> le_words64(const std::vector<std::uint64_t>& w) {
  std::vector<std::uint8_t> b(8 * w.size());
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}

}  // namespace cryptaccel::test::rvv
