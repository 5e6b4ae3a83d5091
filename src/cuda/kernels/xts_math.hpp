// XTS tweaks at any block index on the GPU: T·α^e for a public e, so that a thread can start in the middle of a data
// unit. The representation and the α^(2^i) table are algo/xts_tweak.hpp's (the table is built once on the host and
// copied to the device); the products use gf128_mul_ct, the GPU's constant-time multiply.
#pragma once
#include <cstdint>

#include "algo/ghash.hpp"
#include "algo/hd.hpp"
#include "algo/xts_tweak.hpp"
#include "cuda/kernels/gf128_ctmul.hpp"

namespace cryptaccel::cuda {

using algo::bit_reverse8;
using algo::gf_to_xts;
using algo::kXtsAlphaPowers;
using algo::xts_alpha_pow_table;
using algo::xts_to_gf;

/// t <- t·α^e with `pow2[i]` = α^(2^i) in GCM representation. `e` is public (a block index); t may be secret.
CA_HD void xts_mul_alpha_pow(std::uint8_t t[16], std::uint64_t e, const algo::Gf128* pow2) {
  if (e == 0) return;
  algo::Gf128 g = xts_to_gf(t);
  for (int i = 0; i < kXtsAlphaPowers && (e >> i) != 0; ++i)
    if ((e >> i) & 1u) g = gf128_mul_ct(g, pow2[i]);
  gf_to_xts(g, t);
}

}  // namespace cryptaccel::cuda
