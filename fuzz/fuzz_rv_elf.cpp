// Fuzzes the RISC-V simulator's ELF loader and then runs what loads: arbitrary bytes as a program must be refused
// with std::runtime_error / std::out_of_range (as documented) or run until a stop or the instruction limit, never
// crash. RV64 and RV32 with every extension the simulator knows, vectors included.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "cryptaccel/rv.hpp"

namespace rv = cryptaccel::rv;

namespace {

constexpr const char* kIsa64 = "rv64imac_zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkn_zks_zve64x_zvl256b_zvbb_zvbc_zvkg_zvkned_"
                               "zvknhb_zvksed_zvksh_xkeccak";
constexpr const char* kIsa32 = "rv32imac_zba_zbb_zbs_zbkb_zbkc_zbkx_zkn_zks_zve32x_zvl128b_zvkb";

void run(std::span<const std::uint8_t> image, const char* isa) {
  rv::MachineConfig cfg;
  cfg.isa = isa;
  cfg.vlen = 256;
  cfg.ram_size = 4ull << 20;
  cfg.max_instructions = 20000;
  rv::Machine m(cfg);
  try {
    m.load_elf(image);
  } catch (const std::runtime_error&) {
    return;
  } catch (const std::out_of_range&) {
    return;
  }
  (void)m.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> image(data, size);
  run(image, kIsa64);
  run(image, kIsa32);
  return 0;
}
