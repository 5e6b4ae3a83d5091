#include "cuda/kernels/aes_ttable.hpp"

#include "algo/sbox_tables.hpp"

namespace cryptaccel::cuda {
namespace {

std::uint32_t gf_mul(std::uint32_t a, std::uint32_t k) {  // public table construction: plain shift-and-add
  std::uint32_t r = 0;
  for (; k; k >>= 1, a = algo::aes_xtime(a))
    if (k & 1u) r ^= a;
  return r & 0xFFu;
}

TtableTables build() {
  TtableTables t{};
  const auto& s = algo::aes_sbox_table();
  const auto& is = algo::aes_inv_sbox_table();
  for (std::uint32_t x = 0; x < 256; ++x) {
    const std::uint32_t e = s[x], d = is[x];
    t.te[x] = gf_mul(e, 2) | (e << 8) | (e << 16) | (gf_mul(e, 3) << 24);
    t.td[x] = gf_mul(d, 14) | (gf_mul(d, 9) << 8) | (gf_mul(d, 13) << 16) | (gf_mul(d, 11) << 24);
    t.inv_sbox[x] = d;
  }
  return t;
}

}  // namespace

const TtableTables& ttable_tables() {
  static const TtableTables tables = build();
  return tables;
}

}  // namespace cryptaccel::cuda
