// GF(2^128) multiplication for GHASH on the GPU, constant time and without the 128 dependent steps of the
// bit-serial algo::gf128_mul: carry-less products from ordinary integer multiplications (GPUs have fast 32x32->64
// multiplies and no carry-less instruction), Karatsuba on top, then reduction by shifts.
//
// Carry-less 32x32 -> 64 from integer multiplies: split x and y into four masks that keep every fourth bit
// (x_i = x & (0x11111111 << i)). In the integer product x_i * y_j, the bits set at position p all come from pairs
// (a, b) with a + b = p, a = i and b = j (mod 4); at most 8 such pairs exist, so each position's count fits in the
// 4 bits before the next position of the same class and no carry reaches it. Bit p of x_i * y_j is therefore the
// parity of that count: the carry-less product's coefficient, for positions p = i + j (mod 4). XORing the four
// products with i + j = k (mod 4) and keeping the bits of class k gives every coefficient of class k.
//
// Representation: algo::Gf128 read as the 128-bit integer hi:lo holds the coefficient of x^k at bit 127 - k (GCM's
// bit order, "reflected"). The carry-less product of two reflected operands holds c_k (c = a*b) at bit 254 - k;
// shifted left by one, at bit 255 - k. Reducing that 256-bit E = [E3:E2:E1:E0] modulo g = x^128 + x^7 + x^2 + x + 1
// in this order means cancelling the low words with multiples of y^128 + y^64*K + 1 (y = 2, K = 0xC2 << 56, the
// reflected x^7 + x^2 + x terms): E1 ^= lo(K*E0), E2 ^= hi(K*E0) ^ E0, then E2 ^= lo(K*E1), E3 ^= hi(K*E1) ^ E1;
// the product is [E3:E2]. K has bits 63, 62 and 57 set, so K*E is three shifts.
#pragma once
#include <cstdint>

#include "algo/ghash.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::cuda {

/// Carry-less product of two 32-bit values.
CA_HD std::uint64_t clmul32(std::uint32_t x, std::uint32_t y) {
  const std::uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
  const std::uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
  const std::uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
  std::uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  std::uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  std::uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  std::uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  z0 &= 0x1111111111111111ull, z1 &= 0x2222222222222222ull, z2 &= 0x4444444444444444ull, z3 &= 0x8888888888888888ull;
  return z0 | z1 | z2 | z3;
}

/// Carry-less product of two 64-bit values (Karatsuba over 32-bit halves): hi:lo.
CA_HD void clmul64(std::uint64_t a, std::uint64_t b, std::uint64_t& hi, std::uint64_t& lo) {
  const auto a0 = static_cast<std::uint32_t>(a), a1 = static_cast<std::uint32_t>(a >> 32);
  const auto b0 = static_cast<std::uint32_t>(b), b1 = static_cast<std::uint32_t>(b >> 32);
  const std::uint64_t l = clmul32(a0, b0), h = clmul32(a1, b1);
  const std::uint64_t m = clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
  lo = l ^ (m << 32);
  hi = h ^ (m >> 32);
}

/// x · y in GCM's GF(2^128); the same function as algo::gf128_mul.
CA_HD algo::Gf128 gf128_mul_ct(algo::Gf128 x, algo::Gf128 y) {
  // 256-bit carry-less product [e3:e2:e1:e0] of the reflected operands (Karatsuba over 64-bit halves).
  std::uint64_t e3, e2, e1, e0, mh, ml;
  clmul64(x.hi, y.hi, e3, e2);
  clmul64(x.lo, y.lo, e1, e0);
  clmul64(x.hi ^ x.lo, y.hi ^ y.lo, mh, ml);
  mh ^= e3 ^ e1, ml ^= e2 ^ e0;
  e2 ^= mh, e1 ^= ml;
  // Shift left by one: c_k moves from bit 254 - k to bit 255 - k.
  e3 = (e3 << 1) | (e2 >> 63);
  e2 = (e2 << 1) | (e1 >> 63);
  e1 = (e1 << 1) | (e0 >> 63);
  e0 <<= 1;
  // Reduce: K*E = E<<63 ^ E<<62 ^ E<<57 (low word), E>>1 ^ E>>2 ^ E>>7 (high word).
  e1 ^= (e0 << 63) ^ (e0 << 62) ^ (e0 << 57);
  e2 ^= (e0 >> 1) ^ (e0 >> 2) ^ (e0 >> 7) ^ e0;
  e2 ^= (e1 << 63) ^ (e1 << 62) ^ (e1 << 57);
  e3 ^= (e1 >> 1) ^ (e1 >> 2) ^ (e1 >> 7) ^ e1;
  return algo::Gf128{e3, e2};
}

}  // namespace cryptaccel::cuda
