// ELF reading with bounds checks on every offset (the file is untrusted input).
#include "rv/elf_loader.hpp"

#include <stdexcept>

namespace cryptaccel::rv {

namespace {
constexpr std::uint16_t kEmRiscv = 243;
constexpr std::uint32_t kPtLoad = 1, kShtSymtab = 2;

struct Reader {
  std::span<const std::uint8_t> f;
  bool is64;
  void need(std::uint64_t off, std::uint64_t n) const {
    if (off > f.size() || n > f.size() - off) throw std::runtime_error("ELF: truncated or malformed file");
  }
  std::uint64_t u(std::uint64_t off, unsigned n) const {
    need(off, n);
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{f[off + i]} << (8 * i);
    return v;
  }
  std::uint64_t word(std::uint64_t off) const { return u(off, is64 ? 8 : 4); }  // address-sized field
};
}  // namespace

ElfImage parse_elf(std::span<const std::uint8_t> file) {
  if (file.size() < 52 || file[0] != 0x7F || file[1] != 'E' || file[2] != 'L' || file[3] != 'F')
    throw std::runtime_error("not an ELF file");
  if (file[4] != 1 && file[4] != 2) throw std::runtime_error("ELF: bad class");
  if (file[5] != 1) throw std::runtime_error("ELF: not little-endian");
  Reader r{file, file[4] == 2};
  ElfImage img;
  img.xlen = r.is64 ? 64 : 32;
  if (r.u(18, 2) != kEmRiscv) throw std::runtime_error("ELF: not a RISC-V file (e_machine " + std::to_string(r.u(18, 2)) + ")");
  const std::uint64_t w = r.is64 ? 8 : 4;
  img.entry = r.word(24);
  const std::uint64_t phoff = r.word(24 + w), shoff = r.word(24 + 2 * w);
  const std::uint64_t base = 24 + 3 * w + 4;  // after e_flags
  const std::uint64_t phentsize = r.u(base + 2, 2), phnum = r.u(base + 4, 2);
  const std::uint64_t shentsize = r.u(base + 6, 2), shnum = r.u(base + 8, 2);

  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::uint64_t ph = phoff + i * phentsize;
    if (r.u(ph, 4) != kPtLoad) continue;
    ElfSegment s;
    std::uint64_t offset, filesz;
    if (r.is64) {
      offset = r.u(ph + 8, 8), s.paddr = r.u(ph + 24, 8), filesz = r.u(ph + 32, 8), s.memsz = r.u(ph + 40, 8);
    } else {
      offset = r.u(ph + 4, 4), s.paddr = r.u(ph + 12, 4), filesz = r.u(ph + 16, 4), s.memsz = r.u(ph + 20, 4);
    }
    if (filesz > s.memsz) throw std::runtime_error("ELF: segment filesz > memsz");
    r.need(offset, filesz);
    s.data = file.subspan(offset, filesz);
    img.segments.push_back(s);
  }

  // Symbol tables (SHT_SYMTAB) with their linked string tables.
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::uint64_t sh = shoff + i * shentsize;
    if (r.u(sh + 4, 4) != kShtSymtab) continue;
    const std::uint64_t off = r.word(sh + 8 + 2 * w), size = r.word(sh + 8 + 3 * w);
    const std::uint64_t link = r.u(sh + 8 + 4 * w, 4);
    const std::uint64_t entsize = r.word(sh + 16 + 5 * w);
    if (entsize == 0 || link >= shnum) continue;
    const std::uint64_t str_sh = shoff + link * shentsize;
    const std::uint64_t str_off = r.word(str_sh + 8 + 2 * w), str_size = r.word(str_sh + 8 + 3 * w);
    r.need(off, size);
    r.need(str_off, str_size);
    for (std::uint64_t e = off; e + entsize <= off + size; e += entsize) {
      const std::uint64_t name = r.u(e, 4);
      const std::uint64_t value = r.is64 ? r.u(e + 8, 8) : r.u(e + 4, 4);
      if (name == 0 || name >= str_size) continue;
      std::string s;
      for (std::uint64_t k = str_off + name; k < str_off + str_size && file[k]; ++k) s.push_back(static_cast<char>(file[k]));
      img.symbols.emplace_back(std::move(s), value);
    }
  }
  return img;
}

}  // namespace cryptaccel::rv
