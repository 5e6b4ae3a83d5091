// Fixed-size multi-precision integers for RSA: little-endian arrays of limbs whose count is a template parameter,
// shared by host and device. The limb type W is a template parameter too: 64-bit limbs (`limb`) on the host
// (16/32/48/64/128 limbs for 1024..8192-bit moduli, half that for CRT primes), 32-bit limbs on the GPU, where a
// 32x32->64-bit multiply-add is one IMAD.WIDE and a 64-bit product would take several (src/cuda/rsa/rsa_ops.hpp); the
// same functions serve both. Every function here runs in time that depends only on the limb counts, never on the
// values: carries and borrows are computed arithmetically, selections use masks (no secret-dependent branches or
// memory indices).
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo::bn {

/// The host's limb.
using limb = std::uint64_t;

/// Bits in a limb of type W (32 or 64).
template <class W>
inline constexpr unsigned kLimbBits = 8 * sizeof(W);

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

/// (hi, lo) = a * b for 32-bit limbs: one 32x32->64 multiply.
CA_HD void mul_wide(std::uint32_t a, std::uint32_t b, std::uint32_t& lo, std::uint32_t& hi) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  lo = static_cast<std::uint32_t>(p);
  hi = static_cast<std::uint32_t>(p >> 32);
}

/// mac for 32-bit limbs: (2^32-1)^2 + 2 (2^32-1) = 2^64 - 1, so a * b + c + carry fits one 64-bit value (one
/// IMAD.WIDE.U32 and an add on a GPU, no compare-based carries).
CA_HD std::uint32_t mac(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t& carry) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b + c + carry;
  carry = static_cast<std::uint32_t>(p >> 32);
  return static_cast<std::uint32_t>(p);
}

/// a + b + carry (carry 0 or 1 in and out).
template <class W>
CA_HD W addc(W a, W b, W& carry) {
  const W s = a + b;
  const W c1 = s < a;
  const W r = s + carry;
  carry = c1 | (r < s);
  return r;
}

/// a - b - borrow (borrow 0 or 1 in and out).
template <class W>
CA_HD W subb(W a, W b, W& borrow) {
  const W d = a - b;
  const W b1 = a < b;
  const W r = d - borrow;
  borrow = b1 | (d < borrow);
  return r;
}

/// All ones when a == b, else 0, without a branch; computed in limbs of type W (64-bit unless named).
template <class W = limb, class A, class B>
CA_HD W eq_mask(A a, B b) {
  const W x = static_cast<W>(a) ^ static_cast<W>(b);
  return ((x | (W{0} - x)) >> (kLimbBits<W> - 1)) - 1;
}

/// All ones when bit 0 of `bit` is set, else 0.
template <class W>
CA_HD W bit_mask(W bit) {
  return W{0} - (bit & 1);
}

/// r = mask ? a : b, limb by limb (mask all ones or zero).
template <std::size_t N, class W>
CA_HD void select(W* r, W mask, const W* a, const W* b) {
  for (std::size_t i = 0; i < N; ++i) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/// r = table[index] for a table of `count` entries of N limbs, reading every entry (the index stays secret: no
/// secret-dependent address ever reaches the memory system).
template <std::size_t N, class W>
CA_HD void ct_lookup(W* r, const W* table, std::size_t count, W index) {
  for (std::size_t j = 0; j < N; ++j) r[j] = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const W m = eq_mask<W>(i, index);
    for (std::size_t j = 0; j < N; ++j) r[j] |= table[i * N + j] & m;
  }
}

/// r = a + b mod 2^(bits N); returns the carry out.
template <std::size_t N, class W>
CA_HD W add(W* r, const W* a, const W* b) {
  W c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = addc(a[i], b[i], c);
  return c;
}

/// r = a - b mod 2^(bits N); returns the borrow out.
template <std::size_t N, class W>
CA_HD W sub(W* r, const W* a, const W* b) {
  W c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = subb(a[i], b[i], c);
  return c;
}

/// r = (a - b) mod n for a, b < n, in constant time (subtract, then add n back under a mask).
template <std::size_t N, class W>
CA_HD void mod_sub(W* r, const W* a, const W* b, const W* n) {
  W t[N];
  const W borrow = sub<N>(t, a, b);
  const W m = bit_mask(borrow);
  W c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = addc(t[i], static_cast<W>(n[i] & m), c);
}

/// r (2N limbs) = a * b (N limbs each), schoolbook.
template <std::size_t N, class W>
CA_HD void mul_full(W* r, const W* a, const W* b) {
  for (std::size_t i = 0; i < 2 * N; ++i) r[i] = 0;
  for (std::size_t i = 0; i < N; ++i) {
    W c = 0;
    CA_LIMB_LOOP(N)
    for (std::size_t j = 0; j < N; ++j) r[i + j] = mac(a[j], b[i], r[i + j], c);
    r[i + N] = c;
  }
}

/// r (2N limbs) = a^2: each cross product once, doubled by a shift, then the squares on the diagonal (about half the
/// multiplies of mul_full).
template <std::size_t N, class W>
CA_HD void sqr_full(W* r, const W* a) {
  for (std::size_t i = 0; i < 2 * N; ++i) r[i] = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    W c = 0;
    for (std::size_t j = i + 1; j < N; ++j) r[i + j] = mac(a[j], a[i], r[i + j], c);
    r[i + N] = c;
  }
  W top = 0;  // double: shift left by one bit
  for (std::size_t i = 0; i < 2 * N; ++i) {
    const W v = r[i];
    r[i] = static_cast<W>(v << 1) | top;
    top = v >> (kLimbBits<W> - 1);
  }
  W c = 0;
  for (std::size_t i = 0; i < N; ++i) {
    W lo, hi;
    mul_wide(a[i], a[i], lo, hi);
    r[2 * i] = addc(r[2 * i], lo, c);
    r[2 * i + 1] = addc(r[2 * i + 1], hi, c);
  }
}

/// Big-endian bytes (any length up to N limbs' bytes, shorter values zero-extended) into N limbs. Returns false (and
/// reads only the low N * sizeof(W) bytes) when `len` exceeds the limbs. Time depends only on `len`.
template <std::size_t N, class W>
CA_HD bool from_bytes(W* r, const std::uint8_t* be, std::size_t len) {
  for (std::size_t i = 0; i < N; ++i) {
    W v = 0;
    for (std::size_t b = 0; b < sizeof(W); ++b) {
      const std::size_t k = sizeof(W) * i + b;  // byte k from the end holds bits 8k..8k+7
      if (k < len) v |= static_cast<W>(be[len - 1 - k]) << (8 * b);
    }
    r[i] = v;
  }
  return len <= sizeof(W) * N;
}

/// The low `len` bytes of the N limbs as big-endian bytes (len <= N * sizeof(W)).
template <std::size_t N, class W>
CA_HD void to_bytes(std::uint8_t* be, std::size_t len, const W* a) {
  for (std::size_t k = 0; k < len; ++k)
    be[len - 1 - k] = static_cast<std::uint8_t>(a[k / sizeof(W)] >> (8 * (k % sizeof(W))));
}

/// 1 when a < b, else 0 (constant time).
template <std::size_t N, class W>
CA_HD W less_than(const W* a, const W* b) {
  W c = 0;
  for (std::size_t i = 0; i < N; ++i) subb(a[i], b[i], c);
  return c;
}

/// All ones when a == b, else 0 (constant time).
template <std::size_t N, class W>
CA_HD W equal_mask(const W* a, const W* b) {
  W d = 0;
  for (std::size_t i = 0; i < N; ++i) d |= a[i] ^ b[i];
  return eq_mask<W>(d, 0);
}

}  // namespace cryptaccel::algo::bn
