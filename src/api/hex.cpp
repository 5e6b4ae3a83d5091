#include "cryptaccel/hex.hpp"

#include <cstdint>

#include "cryptaccel/error.hpp"

namespace cryptaccel {
namespace {

/// 0xFF when a <= x <= b, else 0, without a branch (x, a, b < 256).
std::uint32_t in_range(std::uint32_t x, std::uint32_t a, std::uint32_t b) {
  return (((x - a) | (b - x)) >> 8 & 0xFF) ^ 0xFF;  // a borrow sets bits 8 and up
}

/// The value of hex digit `c` in the low 4 bits, and bit 8 set when `c` is not a hex digit; constant time.
std::uint32_t digit(char ch) {
  const auto c = static_cast<std::uint32_t>(static_cast<unsigned char>(ch));
  const std::uint32_t num = in_range(c, '0', '9'), low = in_range(c, 'a', 'f'), up = in_range(c, 'A', 'F');
  const std::uint32_t value = (num & (c - '0')) | (low & (c - 'a' + 10)) | (up & (c - 'A' + 10));
  return (value & 0xF) | ((~(num | low | up) & 1) << 8);
}

std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  return "byte 0x" + to_hex(bytes_view(&u, 1));
}

}  // namespace

std::string to_hex(bytes_view data, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out(2 * data.size(), '0');
  for (std::size_t i = 0; i < data.size(); ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 0xF];
  }
  return out;
}

bytes from_hex(std::string_view text) {
  bytes out(text.size() / 2);
  std::uint32_t bad = 0;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    const std::uint32_t hi = digit(text[i]), lo = digit(text[i + 1]);
    bad |= hi | lo;
    out[i / 2] = static_cast<std::uint8_t>((hi & 0xF) << 4 | (lo & 0xF));
  }
  if (text.size() % 2) bad |= digit(text.back());
  if (bad & 0x100) {  // only now, on the error path, find the first bad character
    secure_wipe(out.data(), out.size());
    for (std::size_t i = 0; i < text.size(); ++i)
      if (digit(text[i]) & 0x100)
        throw InvalidArgument("not a hex digit: " + describe(text[i]) + " at position " + std::to_string(i + 1));
  }
  if (text.size() % 2) {
    secure_wipe(out.data(), out.size());
    throw InvalidArgument("odd number of hex digits (" + std::to_string(text.size()) + ")");
  }
  return out;
}

}  // namespace cryptaccel
