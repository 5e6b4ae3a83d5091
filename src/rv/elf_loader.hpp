// A minimal ELF32/ELF64 little-endian RISC-V executable reader: PT_LOAD segments and the symbol table.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cryptaccel::rv {

struct ElfSegment {
  std::uint64_t paddr = 0;  ///< load address (p_paddr, as Spike loads)
  std::uint64_t memsz = 0;
  std::span<const std::uint8_t> data;  ///< file bytes (filesz); the rest up to memsz is zero
};

struct ElfImage {
  unsigned xlen = 64;
  std::uint64_t entry = 0;
  std::vector<ElfSegment> segments;
  std::vector<std::pair<std::string, std::uint64_t>> symbols;
};

/// Parses `file` (which must outlive the result's segment spans). Throws std::runtime_error on anything
/// malformed or not a RISC-V executable.
ElfImage parse_elf(std::span<const std::uint8_t> file);

}  // namespace cryptaccel::rv
