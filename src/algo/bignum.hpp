// Fixed-size multi-precision integers for RSA: little-endian arrays of 64-bit limbs whose length is a template
// parameter (16/32/48/64/128 limbs for 1024..8192-bit moduli, half that for CRT primes), shared by host and device.
// Every function here runs in time that depends only on the limb counts, never on the values: carries and borrows are
// computed arithmetically, selections use masks (no secret-dependent branches or memory indices).
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo::bn {

using limb = std::uint64_t;

/// (hi, lo) = a * b.
CA_HD void mul_wide(limb a, limb b, limb& lo, limb& hi) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  lo = static_cast<limb>(p);
  hi = static_cast<limb>(p >> 64);
#endif
}

/// Returns the low limb of a * b + c + carry and sets carry to its high limb (the sum never exceeds 128 bits).
CA_HD limb mac(limb a, limb b, limb c, limb& carry) {
  limb lo, hi;
  mul_wide(a, b, lo, hi);
  lo += c;
  hi += lo < c;
  lo += carry;
  hi += lo < carry;
  carry = hi;
  return lo;
}

/// a + b + carry (carry 0 or 1 in and out).
CA_HD limb addc(limb a, limb b, limb& carry) {
  const limb s = a + b;
  const limb c1 = s < a;
  const limb r = s + carry;
  carry = c1 | (r < s);
  return r;
}

/// a - b - borrow (borrow 0 or 1 in and out).
CA_HD limb subb(limb a, limb b, limb& borrow) {
  const limb d = a - b;
  const limb b1 = a < b;
  const limb r = d - borrow;
  borrow = b1 | (d < borrow);
  return r;
}

/// All ones when a == b, else 0, without a branch.
CA_HD limb eq_mask(limb a, limb b) {
  const limb x = a ^ b;
  return ((x | (0 - x)) >> 63) - 1;
}

/// All ones when bit 0 of `bit` is set, else 0.
CA_HD limb bit_mask(limb bit) { return 0 - (bit & 1); }

/// r = mask ? a : b, limb by limb (mask all ones or zero).
template <std::size_t N>
CA_HD void select(limb* r, limb mask, const limb* a, const limb* b) {
  for (std::size_t i = 0; i < N; ++i) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/// r = table[index] for a table of `count` entries of N limbs, reading every entry (the index stays secret: no
/// secret-dependent address ever reaches the memory system).
template <std::size_t N>
CA_HD void ct_lookup(limb* r, const limb* table, std::size_t count, limb index) {
  for (std::size_t j = 0; j < N; ++j) r[j] = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const limb m = eq_mask(static_cast<limb>(i), index);
    for (std::size_t j = 0; j < N; ++j) r[j] |= table[i * N + j] & m;
  }
}

/// r = a + b mod 2^(64N); returns the carry out.
template <std::size_t N>
CA_HD limb add(limb* r, const limb* a, const limb* b) {
  limb c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = addc(a[i], b[i], c);
  return c;
}

/// r = a - b mod 2^(64N); returns the borrow out.
template <std::size_t N>
CA_HD limb sub(limb* r, const limb* a, const limb* b) {
  limb c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = subb(a[i], b[i], c);
  return c;
}

/// r = (a - b) mod n for a, b < n, in constant time (subtract, then add n back under a mask).
template <std::size_t N>
CA_HD void mod_sub(limb* r, const limb* a, const limb* b, const limb* n) {
  limb t[N];
  const limb borrow = sub<N>(t, a, b);
  const limb m = bit_mask(borrow);
  limb c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = addc(t[i], n[i] & m, c);
}

/// r (2N limbs) = a * b (N limbs each), schoolbook.
template <std::size_t N>
CA_HD void mul_full(limb* r, const limb* a, const limb* b) {
  for (std::size_t i = 0; i < 2 * N; ++i) r[i] = 0;
  for (std::size_t i = 0; i < N; ++i) {
    limb c = 0;
    for (std::size_t j = 0; j < N; ++j) r[i + j] = mac(a[j], b[i], r[i + j], c);
    r[i + N] = c;
  }
}

/// r (2N limbs) = a^2: each cross product once, doubled by a shift, then the squares on the diagonal (about half the
/// multiplies of mul_full).
template <std::size_t N>
CA_HD void sqr_full(limb* r, const limb* a) {
  for (std::size_t i = 0; i < 2 * N; ++i) r[i] = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    limb c = 0;
    for (std::size_t j = i + 1; j < N; ++j) r[i + j] = mac(a[j], a[i], r[i + j], c);
    r[i + N] = c;
  }
  limb top = 0;  // double: shift left by one bit
  for (std::size_t i = 0; i < 2 * N; ++i) {
    const limb v = r[i];
    r[i] = (v << 1) | top;
    top = v >> 63;
  }
  limb c = 0;
  for (std::size_t i = 0; i < N; ++i) {
    limb lo, hi;
    mul_wide(a[i], a[i], lo, hi);
    r[2 * i] = addc(r[2 * i], lo, c);
    r[2 * i + 1] = addc(r[2 * i + 1], hi, c);
  }
}

/// Big-endian bytes (any length up to 8N, shorter values zero-extended) into N limbs. Returns false (and reads
/// only the low 8N bytes) when `len` exceeds the limbs. Time depends only on `len`.
template <std::size_t N>
CA_HD bool from_bytes(limb* r, const std::uint8_t* be, std::size_t len) {
  for (std::size_t i = 0; i < N; ++i) {
    limb v = 0;
    for (std::size_t b = 0; b < 8; ++b) {
      const std::size_t k = 8 * i + b;  // byte k from the end holds bits 8k..8k+7
      if (k < len) v |= static_cast<limb>(be[len - 1 - k]) << (8 * b);
    }
    r[i] = v;
  }
  return len <= 8 * N;
}

/// The low `len` bytes of the N limbs as big-endian bytes (len <= 8N).
template <std::size_t N>
CA_HD void to_bytes(std::uint8_t* be, std::size_t len, const limb* a) {
  for (std::size_t k = 0; k < len; ++k) be[len - 1 - k] = static_cast<std::uint8_t>(a[k / 8] >> (8 * (k % 8)));
}

/// 1 when a < b, else 0 (constant time).
template <std::size_t N>
CA_HD limb less_than(const limb* a, const limb* b) {
  limb c = 0;
  for (std::size_t i = 0; i < N; ++i) subb(a[i], b[i], c);
  return c;
}

/// All ones when a == b, else 0 (constant time).
template <std::size_t N>
CA_HD limb equal_mask(const limb* a, const limb* b) {
  limb d = 0;
  for (std::size_t i = 0; i < N; ++i) d |= a[i] ^ b[i];
  return eq_mask(d, 0);
}

}  // namespace cryptaccel::algo::bn
