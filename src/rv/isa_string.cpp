// ISA strings in Spike's syntax: "rv64imc_zbkb_zknh". Zicsr, Zifencei and Zicntr are always enabled (Spike
// enables them implicitly too); F/D/A are accepted (so "g" strings parse) but their instructions are not
// implemented and stop the run like unknown ones.
#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "rv/core.hpp"

namespace cryptaccel::rv {

namespace {
constexpr std::array<std::string_view, ext_count> kNames = {
    "i", "m", "a", "f", "d", "c", "zicsr", "zifencei", "zicntr", "zihpm",
    "zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx",
    "zkne", "zknd", "zknh", "zksed", "zksh", "zkr", "zkt",
    "v", "zve32x", "zve64x", "zvkb", "zvbb", "zvbc", "zvkg", "zvkned", "zvknha", "zvknhb",
    "zvksed", "zvksh", "zvkt", "xkeccak"};

/// Bits an extension name (single letter or multi-letter) enables, 0 if unknown.
std::uint64_t bits_of(std::string_view name) {
  if (name == "g") return EXT(i) | EXT(m) | EXT(a) | EXT(f) | EXT(d) | EXT(zicsr) | EXT(zifencei);
  if (name == "b") return EXT(zba) | EXT(zbb) | EXT(zbs);
  if (name == "zkn") return EXT(zbkb) | EXT(zbkc) | EXT(zbkx) | EXT(zkne) | EXT(zknd) | EXT(zknh);
  if (name == "zks") return EXT(zbkb) | EXT(zbkc) | EXT(zbkx) | EXT(zksed) | EXT(zksh);
  if (name == "zk") return bits_of("zkn") | EXT(zkr) | EXT(zkt);
  if (name == "zmmul") return EXT(m);  // close enough: division would also decode
  // Vector: v includes zve64x, which includes zve32x; the Zvk shorthands as in the vector crypto spec v1.0.
  if (name == "v" || name == "zve64x" || name == "zve64f" || name == "zve64d") return EXT(zve64x) | EXT(zve32x) | (name == "v" ? EXT(v) : 0);
  if (name == "zve32x" || name == "zve32f") return EXT(zve32x);
  if (name == "zvbb") return EXT(zvbb) | EXT(zvkb);
  if (name == "zvknhb") return EXT(zvknhb) | EXT(zvknha);  // SEW 64 on top of Zvknha's SEW 32
  if (name == "zvkn") return EXT(zvkned) | EXT(zvknhb) | EXT(zvknha) | EXT(zvkb) | EXT(zvkt);
  if (name == "zvknc") return bits_of("zvkn") | EXT(zvbc);
  if (name == "zvkng") return bits_of("zvkn") | EXT(zvkg);
  if (name == "zvks") return EXT(zvksed) | EXT(zvksh) | EXT(zvkb) | EXT(zvkt);
  if (name == "zvksc") return bits_of("zvks") | EXT(zvbc);
  if (name == "zvksg") return bits_of("zvks") | EXT(zvkg);
  for (unsigned b = 0; b < kNames.size(); ++b)
    if (kNames[b] == name) return std::uint64_t{1} << b;
  return 0;
}
}  // namespace

std::span<const std::string_view> extension_names() { return kNames; }

bool IsaInfo::has(std::string_view ext) const {
  const std::uint64_t b = bits_of(ext);
  return b != 0 && (extensions & b) == b;
}

IsaInfo parse_isa(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  IsaInfo info;
  if (s.rfind("rv32", 0) == 0) info.xlen = 32;
  else if (s.rfind("rv64", 0) == 0) info.xlen = 64;
  else throw std::invalid_argument("ISA string '" + std::string(text) + "' must start with rv32 or rv64");
  std::size_t i = 4;
  if (i >= s.size() || (s[i] != 'i' && s[i] != 'g'))
    throw std::invalid_argument("ISA string '" + std::string(text) + "': the base must be i or g after rv" +
                                std::to_string(info.xlen));
  // Single-letter extensions up to the first '_' (or the first multi-letter prefix z/s/x).
  for (; i < s.size() && s[i] != '_' && s[i] != 'z' && s[i] != 's' && s[i] != 'x'; ++i) {
    const std::uint64_t b = bits_of(std::string_view(&s[i], 1));
    if (b == 0)
      throw std::invalid_argument("ISA string '" + std::string(text) + "': extension '" + std::string(1, s[i]) +
                                  "' is not supported by this simulator");
    info.extensions |= b;
  }
  // Multi-letter extensions, '_'-separated.
  while (i < s.size()) {
    if (s[i] == '_') { ++i; continue; }
    const std::size_t end = std::min(s.find('_', i), s.size());
    const std::string_view name(&s[i], end - i);
    if (name.size() > 4 && name.substr(0, 3) == "zvl" && name.back() == 'b') {
      // zvl<N>b: VLEN >= N, N a power of two from 32 to 65536.
      unsigned n = 0;
      for (char ch : name.substr(3, name.size() - 4)) n = std::isdigit(static_cast<unsigned char>(ch)) && n < 100000 ? n * 10 + (ch - '0') : ~0u;
      if (n < 32 || n > 65536 || (n & (n - 1)) != 0)
        throw std::invalid_argument("ISA string '" + std::string(text) + "': '" + std::string(name) +
                                    "' needs a power of two from 32 to 65536");
      info.min_vlen = std::max(info.min_vlen, n);
      i = end;
      continue;
    }
    const std::uint64_t b = bits_of(name);
    if (b == 0)
      throw std::invalid_argument("ISA string '" + std::string(text) + "': extension '" + std::string(name) +
                                  "' is not supported by this simulator");
    info.extensions |= b;
    i = end;
  }
  info.extensions |= EXT(i) | EXT(zicsr) | EXT(zifencei) | EXT(zicntr);
  if (info.extensions & EXT(zve32x)) {
    info.max_elen = (info.extensions & EXT(zve64x)) ? 64 : 32;
    info.min_vlen = std::max(info.min_vlen, (info.extensions & EXT(v)) ? 128u : info.max_elen);
  } else if (info.min_vlen != 0 || (info.extensions & (EXT(zvkb) | EXT(zvbb) | EXT(zvbc) | EXT(zvkg) | EXT(zvkned) |
                                                       EXT(zvknha) | EXT(zvksed) | EXT(zvksh) | EXT(xkeccak)))) {
    throw std::invalid_argument("ISA string '" + std::string(text) +
                                "': vector extensions (zvl*, zvk*, zvb*, xkeccak) need v, zve32x or zve64x");
  }
  return info;
}

}  // namespace cryptaccel::rv
