#include "age/bech32.hpp"

#include <cctype>

namespace cryptaccel::age {
namespace {

constexpr std::string_view kCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

std::uint32_t polymod(const std::vector<std::uint8_t>& values) {
  constexpr std::uint32_t kGen[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
  std::uint32_t chk = 1;
  for (const std::uint8_t v : values) {
    const std::uint32_t top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (int i = 0; i < 5; ++i)
      if ((top >> i) & 1) chk ^= kGen[i];
  }
  return chk;
}

/// The HRP expanded for the checksum: high bits of each character, a zero, low bits (of the lower-case form).
std::vector<std::uint8_t> hrp_expand(std::string_view hrp) {
  std::vector<std::uint8_t> out;
  for (const char c : hrp) out.push_back(static_cast<std::uint8_t>(std::tolower(static_cast<unsigned char>(c)) >> 5));
  out.push_back(0);
  for (const char c : hrp) out.push_back(static_cast<std::uint8_t>(std::tolower(static_cast<unsigned char>(c)) & 31));
  return out;
}

/// Regroups bits from `from`-bit to `to`-bit groups; `pad` adds a last partial group (encoding), otherwise leftover
/// bits must be fewer than `from` and zero (decoding).
std::optional<std::vector<std::uint8_t>> convert_bits(const std::vector<std::uint8_t>& in, int from, int to, bool pad) {
  std::uint32_t acc = 0;
  int bits = 0;
  std::vector<std::uint8_t> out;
  const std::uint32_t max = (1u << to) - 1;
  for (const std::uint8_t v : in) {
    if (v >> from) return std::nullopt;
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & max));
    }
  }
  if (pad) {
    if (bits) out.push_back(static_cast<std::uint8_t>((acc << (to - bits)) & max));
  } else if (bits >= from || ((acc << (to - bits)) & max)) {
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::string bech32_encode(std::string_view hrp, const std::vector<std::uint8_t>& data, bool upper) {
  std::vector<std::uint8_t> symbols = *convert_bits(data, 8, 5, true);
  std::vector<std::uint8_t> values = hrp_expand(hrp);
  values.insert(values.end(), symbols.begin(), symbols.end());
  values.insert(values.end(), 6, 0);
  const std::uint32_t mod = polymod(values) ^ 1;
  for (int i = 0; i < 6; ++i) symbols.push_back(static_cast<std::uint8_t>((mod >> (5 * (5 - i))) & 31));
  std::string out;
  for (const char c : hrp) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out += '1';
  for (const std::uint8_t s : symbols) out += kCharset[s];
  if (upper)
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<Bech32> bech32_decode(std::string_view text) {
  bool lower = false, upper = false;
  for (const char c : text) {
    if (c < 33 || c > 126) return std::nullopt;
    lower |= std::islower(static_cast<unsigned char>(c)) != 0;
    upper |= std::isupper(static_cast<unsigned char>(c)) != 0;
  }
  if (lower && upper) return std::nullopt;
  const std::size_t sep = text.rfind('1');
  if (sep == std::string_view::npos || sep == 0 || sep + 7 > text.size()) return std::nullopt;
  const std::string_view hrp = text.substr(0, sep);
  std::vector<std::uint8_t> symbols;
  for (const char c : text.substr(sep + 1)) {
    const std::size_t v = kCharset.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (v == std::string_view::npos) return std::nullopt;
    symbols.push_back(static_cast<std::uint8_t>(v));
  }
  std::vector<std::uint8_t> values = hrp_expand(hrp);
  values.insert(values.end(), symbols.begin(), symbols.end());
  if (polymod(values) != 1) return std::nullopt;
  symbols.resize(symbols.size() - 6);
  auto data = convert_bits(symbols, 5, 8, false);
  if (!data) return std::nullopt;
  return Bech32{std::string(hrp), std::move(*data)};
}

}  // namespace cryptaccel::age
