// rv_run: runs a RISC-V ELF on cryptaccel's simulator (a test and benchmark driver until `cryptaccel rv exec`
// exists). Usage: rv_run [--isa STR] [--vlen N] [--max N] [--cycle-model FILE] [--counts] ELF < stdin
// stdout/stderr get the program's; the exit status is the program's (or 125 for any other stop, with the message).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cryptaccel/rv.hpp"

int main(int argc, char** argv) {
  namespace rv = cryptaccel::rv;
  rv::MachineConfig cfg;
  std::string elf;
  bool counts = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--isa" && i + 1 < argc) cfg.isa = argv[++i];
    else if (a == "--vlen" && i + 1 < argc) cfg.vlen = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--max" && i + 1 < argc) cfg.max_instructions = std::stoull(argv[++i]);
    else if (a == "--cycle-model" && i + 1 < argc) cfg.cycle_model.load_file(argv[++i]);
    else if (a == "--counts") counts = true;
    else elf = a;
  }
  if (elf.empty()) {
    std::cerr << "usage: rv_run [--isa STR] [--vlen N] [--max N] [--cycle-model FILE] [--counts] ELF < stdin\n";
    return 2;
  }
  const std::vector<std::uint8_t> in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  try {
    const rv::RunResult r = rv::run_elf(elf, cfg, in);
    std::fwrite(r.stdout_bytes.data(), 1, r.stdout_bytes.size(), stdout);
    std::fwrite(r.stderr_bytes.data(), 1, r.stderr_bytes.size(), stderr);
    if (counts) {
      std::fprintf(stderr, "# instret %llu cycles %llu seconds %.3f MIPS %.1f\n",
                   static_cast<unsigned long long>(r.total.instret), static_cast<unsigned long long>(r.total.cycles),
                   r.seconds, r.seconds > 0 ? r.total.instret / r.seconds / 1e6 : 0.0);
      std::fprintf(stderr, "# region x%u instret %llu cycles %llu (vector stall %llu)\n", r.regions,
                   static_cast<unsigned long long>(r.region.instret), static_cast<unsigned long long>(r.region.cycles),
                   static_cast<unsigned long long>(r.region.vector_stall_cycles));
      for (std::size_t c = 0; c < rv::kClassCount; ++c)
        if (r.total.by_class[c])
          std::fprintf(stderr, "#   %-17s %12llu %12llu\n", std::string(rv::class_name(static_cast<rv::InsnClass>(c))).c_str(),
                       static_cast<unsigned long long>(r.total.by_class[c]), static_cast<unsigned long long>(r.region.by_class[c]));
    }
    if (!r.exited()) {
      std::fprintf(stderr, "rv_run: %s\n", r.message.c_str());
      return 125;
    }
    return static_cast<int>(r.exit_code & 0xFF);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rv_run: %s\n", e.what());
    return 2;
  }
}
