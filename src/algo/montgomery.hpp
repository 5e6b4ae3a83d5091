// Montgomery arithmetic modulo an odd n of N limbs of type W (R = 2^(bits(W) N); 64-bit limbs on the host, 32-bit on
// the GPU: 2N 32-bit limbs give the same R as N 64-bit ones, so values in Montgomery form and R, R^2 mod n are the same
// numbers for both), shared by host and device, constant time in the operands and in the exponent.
//
// Multiplication is CIOS (Coarsely Integrated Operand Scanning, Koç–Acar–Kaliski 1996): for each limb b[i] one row
// t += a*b[i] and one reduction step t = (t + m*n) / 2^64 with m = t[0] * (-n^-1) mod 2^64, interleaved, so the
// working set is N+2 limbs (registers / local memory on a GPU thread) and there is no 2N-limb intermediate; it is the
// variant that needs the least memory traffic and the one every per-thread GPU RSA (and OpenSSL's bn_mul_mont) uses.
// Squaring computes the 2N-limb square with each cross product once (about half the multiplies) and reduces it
// separately (REDC, i.e. SOS for squares), which pays for the larger intermediate: an exponentiation is ~5/6 squares.
// The final conditional subtraction of every product is a masked select, never a branch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "algo/bignum.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo::bn {

/// What Montgomery arithmetic needs about a modulus (views; the owner keeps the limbs).
template <class W>
struct MontViewT {
  const W* n;    ///< the odd modulus, N limbs
  const W* rr;   ///< R^2 mod n
  const W* one;  ///< R mod n (1 in Montgomery form)
  W n0;          ///< -n^-1 mod 2^bits(W)
};
/// The host's view (64-bit limbs).
using MontView = MontViewT<limb>;

/// -n0^-1 mod 2^bits(W) for odd n0 (Newton's iteration: each step doubles the correct low bits, from 3).
template <class W>
CA_HD W mont_n0(W n0) {
  W x = n0;  // n0 * n0 = 1 mod 8
  for (int i = 0; i < 5; ++i) x *= W{2} - n0 * x;
  return W{0} - x;
}

/// r = t - n when t (N limbs plus a top bit `top`) >= n, else t; masked select. t < 2n on entry.
template <std::size_t N, class W>
CA_HD void final_subtract(W* r, const W* t, W top, const W* n) {
  W d[N];
  const W borrow = sub<N>(d, t, n);
  const W keep = bit_mask(static_cast<W>(~top & borrow));  // t < n exactly when it borrowed and nothing was on top
  select<N>(r, keep, t, d);
}

/// r = a * b * R^-1 mod n (CIOS). a, b < n; r may alias a or b.
template <std::size_t N, class W>
CA_HD void mont_mul(W* r, const W* a, const W* b, const W* n, W n0) {
  W t[N + 2];
  for (std::size_t j = 0; j < N + 2; ++j) t[j] = 0;
  for (std::size_t i = 0; i < N; ++i) {
    W c = 0;
    CA_LIMB_LOOP(N)
    for (std::size_t j = 0; j < N; ++j) t[j] = mac(a[j], b[i], t[j], c);
    W cc = 0;
    t[N] = addc(t[N], c, cc);
    t[N + 1] = cc;
    const W m = t[0] * n0;
    c = 0;
    (void)mac(m, n[0], t[0], c);  // low limb is zero by the choice of m
    CA_LIMB_LOOP(N)
    for (std::size_t j = 1; j < N; ++j) t[j - 1] = mac(m, n[j], t[j], c);
    cc = 0;
    t[N - 1] = addc(t[N], c, cc);
    t[N] = t[N + 1] + cc;
  }
  final_subtract<N>(r, t, t[N], n);
}

/// r = t * R^-1 mod n for a 2N-limb t < n * R (Montgomery reduction, REDC). t is overwritten.
template <std::size_t N, class W>
CA_HD void redc(W* r, W* t, const W* n, W n0) {
  W top = 0;  // carry above t[i + N]
  for (std::size_t i = 0; i < N; ++i) {
    const W m = t[i] * n0;
    W c = 0;
    CA_LIMB_LOOP(N)
    for (std::size_t j = 0; j < N; ++j) t[i + j] = mac(m, n[j], t[i + j], c);
    W cc = 0;
    t[i + N] = addc(t[i + N], c, cc);
    const W c2 = cc;
    cc = 0;
    t[i + N] = addc(t[i + N], top, cc);
    top = c2 | cc;
  }
  final_subtract<N>(r, t + N, top, n);
}

/// r = a^2 * R^-1 mod n (square, then REDC). r may alias a.
template <std::size_t N, class W>
CA_HD void mont_sqr(W* r, const W* a, const W* n, W n0) {
  W t[2 * N];
  sqr_full<N>(t, a);
  redc<N>(r, t, n, n0);
}

/// The portable Montgomery product, square and reduction (REDC of a 2N-limb t < n R, t overwritten) that the
/// exponentiations and the host's RSA use unless given faster ones (the cpu engine passes its MULX/ADX kernels with
/// the same contract, src/rsa/mont_mulx.hpp).
struct PortableMont {
  template <std::size_t N, class W>
  CA_HD static void mul(W* r, const W* a, const W* b, const W* n, W n0) { mont_mul<N>(r, a, b, n, n0); }
  template <std::size_t N, class W>
  CA_HD static void sqr(W* r, const W* a, const W* n, W n0) { mont_sqr<N>(r, a, n, n0); }
  template <std::size_t N, class W>
  CA_HD static void redc(W* r, W* t, const W* n, W n0) { bn::redc<N>(r, t, n, n0); }
};

/// R mod n and R^2 mod n by modular doubling from 1 (n is public; done once per key or modulus). n odd, n > 1.
template <std::size_t N, class W>
CA_HD void mont_constants(W* one, W* rr, const W* n) {
  constexpr std::size_t kBits = kLimbBits<W>;
  W x[N];
  for (std::size_t i = 0; i < N; ++i) x[i] = 0;
  x[0] = 1;
  for (std::size_t step = 1; step <= 2 * kBits * N; ++step) {
    W t[N];
    W top = 0;
    for (std::size_t i = 0; i < N; ++i) {  // t = 2x (x < n, so 2x < 2n)
      t[i] = static_cast<W>(x[i] << 1) | top;
      top = x[i] >> (kBits - 1);
    }
    final_subtract<N>(x, t, top, n);
    if (step == kBits * N)
      for (std::size_t i = 0; i < N; ++i) one[i] = x[i];
  }
  for (std::size_t i = 0; i < N; ++i) rr[i] = x[i];
}

/// a * R mod n for a < n (one product with R^2 by Ops).
template <std::size_t N, class Ops = PortableMont, class W>
CA_HD void to_mont(W* r, const W* a, const MontViewT<W>& m) {
  Ops::template mul<N>(r, a, m.rr, m.n, m.n0);
}

/// a * R^-1 mod n (out of Montgomery form: one product with 1 by Ops).
template <std::size_t N, class Ops = PortableMont, class W>
CA_HD void from_mont(W* r, const W* a, const MontViewT<W>& m) {
  W one[N];
  for (std::size_t i = 0; i < N; ++i) one[i] = 0;
  one[0] = 1;
  Ops::template mul<N>(r, a, one, m.n, m.n0);
}

/// Bits [pos, pos + w) of the little-endian exponent of `limbs` limbs (zero beyond its end); pos is public.
template <class W>
CA_HD W exponent_window(const W* e, std::size_t limbs, std::size_t pos, unsigned w) {
  constexpr std::size_t kBits = kLimbBits<W>;
  const std::size_t i = pos / kBits, off = pos % kBits;
  W v = i < limbs ? static_cast<W>(e[i] >> off) : W{0};
  if (off + w > kBits && i + 1 < limbs) v |= static_cast<W>(e[i + 1] << (kBits - off));
  return v & static_cast<W>((W{1} << w) - 1);
}

/// Window width of the fixed-window exponentiation (a table of 2^w powers).
inline constexpr unsigned kExpWindow = 5;

/// Whether Ops has a window-table lookup `Ops::lookup<N>(W* r, const W* table, size_t count, W index)`. (C++17
/// detection, not a requires-expression: the CUDA translation units are compiled as C++17.)
template <class Ops, std::size_t N, class W, class = void>
struct HasLookup : std::false_type {};
template <class Ops, std::size_t N, class W>
struct HasLookup<Ops, N, W,
                 std::void_t<decltype(Ops::template lookup<N>(std::declval<W*>(), std::declval<const W*>(),
                                                              std::size_t{}, W{}))>> : std::true_type {};

/// r = table[index] by Ops::lookup when Ops has one (the MULX kernels' SSE2 scan, src/rsa/mont_mulx.hpp), else by
/// ct_lookup: the same contract (every entry read, no secret-dependent address).
template <std::size_t N, class Ops, class W>
CA_HD void ops_lookup(W* r, const W* table, std::size_t count, W index) {
  if constexpr (HasLookup<Ops, N, W>::value)
    Ops::template lookup<N>(r, table, count, index);
  else
    ct_lookup<N>(r, table, count, index);
}

/// r = base^e in Montgomery form (base in Montgomery form, r too), fixed 5-bit windows over `bits` exponent bits
/// (a public bound: every window costs 5 squares and one multiply, the table entry is read by ops_lookup). `e` has
/// `e_limbs` limbs; bits at or beyond `bits` must be zero. r may alias base.
template <std::size_t N, class Ops = PortableMont, class W>
CA_HD void mont_exp_ct(W* r, const W* base, const W* e, std::size_t e_limbs, std::size_t bits,
                       const MontViewT<W>& m) {
  constexpr std::size_t kTable = std::size_t{1} << kExpWindow;
  W table[kTable * N];
  for (std::size_t j = 0; j < N; ++j) {
    table[j] = m.one[j];
    table[N + j] = base[j];
  }
  for (std::size_t i = 2; i < kTable; ++i) {
    if (i % 2 == 0)
      Ops::template sqr<N>(table + i * N, table + (i / 2) * N, m.n, m.n0);
    else
      Ops::template mul<N>(table + i * N, table + (i - 1) * N, base, m.n, m.n0);
  }
  const std::size_t windows = bits == 0 ? 1 : (bits + kExpWindow - 1) / kExpWindow;
  W acc[N];
  ops_lookup<N, Ops>(acc, table, kTable, exponent_window(e, e_limbs, (windows - 1) * kExpWindow, kExpWindow));
  W sel[N];
  for (std::size_t w = windows - 1; w-- > 0;) {
    for (unsigned s = 0; s < kExpWindow; ++s) Ops::template sqr<N>(acc, acc, m.n, m.n0);
    ops_lookup<N, Ops>(sel, table, kTable, exponent_window(e, e_limbs, w * kExpWindow, kExpWindow));
    Ops::template mul<N>(acc, acc, sel, m.n, m.n0);
  }
  for (std::size_t j = 0; j < N; ++j) r[j] = acc[j];
}

/// r = base^e in Montgomery form for a PUBLIC exponent (left-to-right binary; time depends on e, as it may). The
/// scan starts at e's top set bit, which becomes acc = base without a product: e = 65537 costs 16 squares and one
/// product.
template <std::size_t N, class Ops = PortableMont, class W>
CA_HD void mont_exp_public(W* r, const W* base, const W* e, std::size_t e_limbs, const MontViewT<W>& m) {
  constexpr std::size_t kBits = kLimbBits<W>;
  std::size_t limbs = e_limbs;
  while (limbs > 0 && e[limbs - 1] == 0) --limbs;
  W acc[N];
  if (limbs == 0) {  // e = 0
    for (std::size_t j = 0; j < N; ++j) r[j] = m.one[j];
    return;
  }
  std::size_t i = limbs * kBits - 1;
  while (!((e[i / kBits] >> (i % kBits)) & 1)) --i;  // the top set bit
  for (std::size_t j = 0; j < N; ++j) acc[j] = base[j];
  while (i-- > 0) {
    Ops::template sqr<N>(acc, acc, m.n, m.n0);
    if ((e[i / kBits] >> (i % kBits)) & 1) Ops::template mul<N>(acc, acc, base, m.n, m.n0);
  }
  for (std::size_t j = 0; j < N; ++j) r[j] = acc[j];
}

}  // namespace cryptaccel::algo::bn
