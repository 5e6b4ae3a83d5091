// `cryptaccel rv exec ELF --isa STRING [--vlen N]`: any program built for Spike's memory map, run on cryptaccel's simulator
// like `spike --isa=STRING [+signature=FILE] ELF`: its output, its exit code, its signature.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "cryptaccel/file.hpp"
#include "cryptaccel/atomic_output.hpp"
#include "cryptaccel/hex.hpp"
#include "cryptaccel/rv.hpp"
#include "rv_cmds.hpp"

namespace cryptaccel::cli::rvcmd {
namespace {

namespace rv = cryptaccel::rv;

bytes read_input(const std::string& path) {
  if (path.empty()) return {};
  try {
    return read_whole_file(path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--stdin: ") + e.what());
  }
}

/// Spike's +signature format with +signature-granularity=`granularity`: `granularity` bytes per line, most
/// significant (highest-addressed) byte first, two lower-case hex digits each, the last line padded with zero bytes.
/// Granularity 4 (the default, as riscv-arch-test runs Spike) gives one 32-bit word per line, 8 hex digits.
std::string signature_text(const std::vector<std::uint32_t>& words, unsigned granularity) {
  std::vector<std::uint8_t> bytes;
  for (const std::uint32_t w : words)
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
  std::string out;
  std::vector<std::uint8_t> line(granularity);
  for (std::size_t i = 0; i < bytes.size(); i += granularity) {
    for (std::size_t j = 0; j < granularity; ++j)  // highest address first
      line[j] = i + granularity - j <= bytes.size() ? bytes[i + granularity - j - 1] : 0;
    out += to_hex(line) + '\n';
  }
  return out;
}

}  // namespace

int rv_exec(const ExecOptions& o) {
  rv::MachineConfig cfg;
  cfg.isa = o.isa;
  rv::parse_isa(o.isa);  // a bad ISA string is a usage error (exit 1), before anything runs
  cfg.max_instructions = o.max_instructions;
  cfg.ram_size = o.ram_mib << 20;
  if (o.vlen) cfg.vlen = o.vlen;
  const bytes input = read_input(o.stdin_path);
  rv::Machine machine(cfg);
  machine.load_elf_file(o.elf);

  std::optional<AtomicOutput> signature;
  if (!o.signature.empty()) {
    if (machine.symbol("begin_signature") == 0 || machine.symbol("end_signature") == 0) {
      throw std::runtime_error("--signature: " + o.elf + " has no begin_signature/end_signature symbols");
    }
    signature.emplace(o.signature);  // fails now if the file cannot be written later
  }
  const rv::RunResult r = machine.run(input);
  std::fwrite(r.stdout_bytes.data(), 1, r.stdout_bytes.size(), stdout);
  std::fflush(stdout);
  std::fwrite(r.stderr_bytes.data(), 1, r.stderr_bytes.size(), stderr);
  if (signature) {
    const std::string text = signature_text(r.signature, o.signature_granularity);
    signature->commit(bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  if (!r.exited()) {
    std::fprintf(stderr, "cryptaccel rv: %s\n", r.message.c_str());
    return kExitStopped;
  }
  return static_cast<int>(r.exit_code & 0xFF);
}

}  // namespace cryptaccel::cli::rvcmd
