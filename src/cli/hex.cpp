#include "hex.hpp"

#include <stdexcept>
#include <string>

namespace cryptaccel::cli {
namespace {

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string describe_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string("byte 0x") + kDigits[u >> 4] + kDigits[u & 0xf];
}

}  // namespace

bytes parse_hex(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (hex_digit_value(text[i]) < 0) {
      throw std::invalid_argument("not a hex digit: " + describe_char(text[i]) + " at position " +
                                  std::to_string(i + 1));
    }
  }
  if (text.size() % 2 != 0) {
    throw std::invalid_argument("odd number of hex digits (" + std::to_string(text.size()) + ")");
  }
  bytes out(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(hex_digit_value(text[2 * i]) << 4 | hex_digit_value(text[2 * i + 1]));
  }
  return out;
}

std::string to_hex(bytes_view data, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  out.reserve(2 * data.size());
  for (std::uint8_t b : data) out += digits[b >> 4], out += digits[b & 0xf];
  return out;
}

}  // namespace cryptaccel::cli
