// Helpers for the C++ tests: hex conversion and a seeded random source.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

#include "cryptaccel/types.hpp"

namespace cryptaccel::test {

inline bytes from_hex(std::string_view hex) {
  bytes out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

inline std::string to_hex(bytes_view data) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto b : data) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

/// The seed of a randomized test: CRYPTACCEL_TEST_SEED when set (to replay a failure), else `fallback`. Tests print
/// it with every failure (SCOPED_TRACE).
inline std::uint64_t seed_or(std::uint64_t fallback) {
  const char* s = std::getenv("CRYPTACCEL_TEST_SEED");
  return s && *s ? std::strtoull(s, nullptr, 0) : fallback;
}

inline bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

}  // namespace cryptaccel::test
