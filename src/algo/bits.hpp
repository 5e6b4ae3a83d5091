// Rotations and big/little-endian loads and stores for the round functions (host and device).
#pragma once
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo {

CA_HD std::uint32_t rotr32(std::uint32_t x, unsigned n) { return (x >> n) | (x << ((32 - n) & 31)); }
CA_HD std::uint32_t rotl32(std::uint32_t x, unsigned n) { return (x << n) | (x >> ((32 - n) & 31)); }
CA_HD std::uint64_t rotr64(std::uint64_t x, unsigned n) { return (x >> n) | (x << ((64 - n) & 63)); }
CA_HD std::uint64_t rotl64(std::uint64_t x, unsigned n) { return (x << n) | (x >> ((64 - n) & 63)); }

CA_HD std::uint32_t load_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
CA_HD std::uint64_t load_be64(const std::uint8_t* p) {
  return (std::uint64_t{load_be32(p)} << 32) | load_be32(p + 4);
}
CA_HD std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}
CA_HD std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
CA_HD void store_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24), p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8), p[3] = static_cast<std::uint8_t>(v);
}
CA_HD void store_be64(std::uint8_t* p, std::uint64_t v) {
  store_be32(p, static_cast<std::uint32_t>(v >> 32));
  store_be32(p + 4, static_cast<std::uint32_t>(v));
}
CA_HD void store_le32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v), p[1] = static_cast<std::uint8_t>(v >> 8);
  p[2] = static_cast<std::uint8_t>(v >> 16), p[3] = static_cast<std::uint8_t>(v >> 24);
}
CA_HD void store_le64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace cryptaccel::algo
