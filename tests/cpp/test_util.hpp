// Helpers for the C++ tests: hex conversion and a seeded random source.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

#include "cryptaccel/hex.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::test {

/// The library's hex (include/cryptaccel/hex.hpp), under the names the tests use.
using cryptaccel::from_hex;
using cryptaccel::to_hex;

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
