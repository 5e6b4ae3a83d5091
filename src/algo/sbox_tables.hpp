// 256-entry S-box tables derived from the constant-time S-box definitions of this directory (aes_sbox.hpp,
// sm4.hpp). For code whose S-box indices are public — the RISC-V simulator's aes32*/aes64*/sm4* semantics index
// them with simulated register values — so that the instruction semantics use exactly the library's S-boxes.
// Not for secret-indexed lookups in shipped cipher code (use the bitsliced functions there).
#pragma once
#include <array>
#include <cstdint>

#include "algo/aes_sbox.hpp"
#include "algo/sm4.hpp"

namespace cryptaccel::algo {

using ByteTable = std::array<std::uint8_t, 256>;

namespace detail {
/// Applies a plane-form S-box `f(W planes[8])` to all 256 byte values, 64 at a time.
template <class F>
inline ByteTable tabulate_planes(F f) {
  ByteTable t{};
  for (int base = 0; base < 256; base += 64) {
    std::uint8_t in[64];
    for (int j = 0; j < 64; ++j) in[j] = static_cast<std::uint8_t>(base + j);
    std::uint64_t p[8];
    bytes_to_planes(in, 64, p);
    f(p);
    planes_to_bytes(p, 64, t.data() + base);
  }
  return t;
}
}  // namespace detail

/// AES S-box (FIPS-197 §5.1.1) as a table.
inline const ByteTable& aes_sbox_table() {
  static const ByteTable t = detail::tabulate_planes([](std::uint64_t* p) { aes_sbox_planes(p); });
  return t;
}
/// AES inverse S-box (FIPS-197 §5.3.2) as a table.
inline const ByteTable& aes_inv_sbox_table() {
  static const ByteTable t = detail::tabulate_planes([](std::uint64_t* p) { aes_inv_sbox_planes(p); });
  return t;
}
/// SM4 S-box (GB/T 32907 §6.2) as a table.
inline const ByteTable& sm4_sbox_table() {
  static const ByteTable t = detail::tabulate_planes([](std::uint64_t* p) { sm4_sbox_planes(p); });
  return t;
}

}  // namespace cryptaccel::algo
