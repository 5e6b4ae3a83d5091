// The library's hex module (include/cryptaccel/hex.hpp): every byte both ways, every character classified as
// std::isxdigit does, either case, and the one-line reasons for bad input.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hex.hpp"

namespace cryptaccel {
namespace {

TEST(Hex, EveryByteRoundTripsInBothCases) {
  bytes all(256);
  for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
  const std::string lower = to_hex(all), upper = to_hex(all, true);
  EXPECT_EQ(lower.substr(0, 8), "00010203");
  EXPECT_EQ(lower.substr(2 * 0xab, 2), "ab");
  EXPECT_EQ(upper.substr(2 * 0xab, 2), "AB");
  EXPECT_EQ(from_hex(lower), all);
  EXPECT_EQ(from_hex(upper), all);
  EXPECT_TRUE(from_hex("").empty());
  EXPECT_EQ(to_hex({}), "");
}

TEST(Hex, EveryCharacterIsClassifiedLikeIsxdigit) {
  for (int c = 0; c < 256; ++c) {
    const std::string text = std::string("a") + static_cast<char>(c);
    if (std::isxdigit(c)) {
      const int v = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
      EXPECT_EQ(from_hex(text), bytes{static_cast<std::uint8_t>(0xa0 | v)}) << c;
    } else {
      EXPECT_THROW(from_hex(text), InvalidArgument) << c;
    }
  }
}

TEST(Hex, BadInputGetsOneLineReason) {
  auto reason = [](std::string_view text) {
    try {
      from_hex(text);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(reason("00g1"), "not a hex digit: 'g' at position 3");
  EXPECT_EQ(reason("0x00"), "not a hex digit: 'x' at position 2");
  EXPECT_EQ(reason("00 1"), "not a hex digit: byte 0x20 at position 3");
  EXPECT_EQ(reason("abc"), "odd number of hex digits (3)");
  EXPECT_EQ(reason("abz"), "not a hex digit: 'z' at position 3");  // the bad digit first, as before
}

}  // namespace
}  // namespace cryptaccel
