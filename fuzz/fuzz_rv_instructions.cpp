// Fuzzes the RISC-V simulator's decoder and executors with raw instruction streams: the input's first byte picks
// RV64 or RV32 and a vector length, the next 32 bytes seed the integer registers, the rest is placed at the start of
// RAM as code (the rest of RAM zero) and run for at most 4096 instructions. Every stop (illegal instruction, a
// disabled extension, an access fault, an ecall) must be a clean StopReason, never a crash or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "cryptaccel/rv.hpp"

namespace rv = cryptaccel::rv;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 33) return 0;
  const bool rv32 = data[0] & 1;
  static const unsigned kVlens[] = {128, 256, 512, 1024};
  rv::MachineConfig cfg;
  cfg.isa = rv32 ? "rv32imac_zba_zbb_zbs_zbkb_zbkc_zbkx_zkn_zks_zve32x_zvkb_zvkned_zvknha_zvksed_zvksh_zvkg"
                 : "rv64imac_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkn_zks_v_zvbb_zvbc_zvkg_zvkned_zvknhb_zvksed_zvksh_"
                   "xkeccak";
  cfg.vlen = kVlens[(data[0] >> 1) & 3];
  cfg.ram_size = 1ull << 20;
  cfg.spike_boot = false;
  rv::Machine m(cfg);
  // Registers x1..x8 from the input (x0 stays zero); pointers into RAM are likely as addresses are masked below.
  for (unsigned i = 0; i < 8; ++i) {
    std::uint32_t v;
    std::memcpy(&v, data + 1 + 4 * i, 4);
    const std::uint64_t value = (i % 2) ? cfg.ram_base + (v & (cfg.ram_size - 1)) : v;
    m.set_reg(i + 1, value);
  }
  const std::span<const std::uint8_t> code(data + 33, size - 33);
  if (code.size() > cfg.ram_size) return 0;
  m.write_memory(cfg.ram_base, code);
  m.set_pc(cfg.ram_base);
  (void)m.step(4096);
  return 0;
}
