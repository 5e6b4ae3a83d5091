// Montgomery arithmetic whose limb products are FP64 fused multiply-adds (the `fp64` RSA kernel variant of the cuda
// engine, src/cuda/rsa/rsa_fp64_ops.hpp), shared by host and device so that the CPU tests run exactly the kernel's code.
//
// Why: on an H100 one FP64 FMA has the throughput of one 32-bit IMAD, but two FMAs give the exact ~100-bit product of
// two 50-bit limbs where IMAD.WIDE gives 32x32 bits (Emmart, Zheng, Weems, "Pushing the performance envelope of
// modular exponentiation across multiple GPU generations", IPDPS 2016: "DPF" arithmetic; the same idea as AVX-512
// IFMA's 52-bit limbs). Which of this and the 32-bit IMAD kernel is faster is for a GPU to measure (docs/cuda.md).
//
// Radix. A number is M limbs of B bits (B <= 50), each held as an integer in a uint64 (so the exponentiation code of
// montgomery.hpp — table, masked scan, exponent windows — works on them unchanged) and turned into a double (exact:
// every integer below 2^53 is one) when it enters a product. For N 32-bit words, M = ceil(32N / 50) and
// B = ceil(32N / M): 16, 32, 48, 64 words -> 11 x 47, 21 x 49, 31 x 50, 41 x 50 bits (Shape). The Montgomery R is
// 2^(BM) >= 2^(32N); R^2 mod n comes from the launch's 2^(64N) mod n by 2(BM - 32N) modular doublings.
//
// Exact product halves (mul_acc). For integers a, b with a*b < 2^(52+B), with C = 2^(52+B) (the ulp of the binade
// [C, 2C) is 2^B) and K = 2^52 + 2^B:
//   h = fma(a, b, C)           = C + H 2^B,  H = round(a b / 2^B)     bits(h) = bits(C) + H
//   l = fma(a, b, (C + K) - h) = K + (a b - H 2^B)                    bits(l) = bits(K) + lo, |lo| <= 2^(B-1)
// C + K is a double (2^52 + 2^B is a multiple of 2^B), (C + K) - h is exact (Sterbenz: both in [C, 2C)), and K + lo is
// an integer in [2^52, 2^53), where the ulp is 1: both FMAs are exact, and within one binade a double's bit pattern is
// its value plus a constant. So three FP64 operations give a b = H 2^B + lo as two integers ready to add.
//
// Accumulation. Column sums are kept in uint64 as sums of those raw bit patterns (two integer adds per product, no
// per-product conversion): every product adds the constant bits(K) to its low column and bits(C) to the next. Both
// constants are multiples of 2^B, so the low B bits of a column — all Montgomery's m = t0 * n0 mod 2^B needs — are
// exact at all times; the constants' total in each column depends only on the loop indices (offsets below) and is
// subtracted where a column's full value is needed: the carry out of the column being shifted away in each row, and
// each result column at the end. True column values stay below 4 M 2^B << 2^63 (static_assert), so the wrapped sums
// decode exactly as int64 and carries are arithmetic shifts.
//
// Product (mont_mul): CIOS in radix 2^B (as montgomery.hpp's, with M + 1 unnormalised int64 columns): per row,
// t += a b_i; m = t0 n0 mod 2^B; t = (t + m n) / 2^B (exact: t0 = 0 mod 2^B then). The result (< 2n) is normalised
// to B-bit limbs by one signed carry pass and n is subtracted under a mask (no branch). Squares are the same product
// with b = a: the SOS square of montgomery.hpp would save a quarter of the FMAs but needs 2M columns (164 registers at
// M = 41) beside the operand, more than a thread's 255 registers; the benchmark decides whether that is worth it.
//
// Contraction: every rounding-sensitive operation is written as an explicit fma / add / sub below (__fma_rn,
// __dadd_rn, __dsub_rn on the device; std::fma and plain + / - on the host, which has no a * b + c to contract), so
// nvcc's and gcc's FMA contraction cannot change a result; host std::fma is glibc's correctly rounded fma (a
// hardware FMA through ifunc, or an exact software one), checked by tests/cpp/test_rsa_fp64.cpp. Round-to-nearest
// on both sides; the host never changes the rounding mode.
//
// Constant time: the loops, indices and offsets depend on M and B only; the final subtraction is a masked select.
#pragma once
#include <cstddef>
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cmath>
#include <cstring>
#endif

#include "algo/bignum.hpp"
#include "algo/hd.hpp"
#include "algo/montgomery.hpp"

namespace cryptaccel::algo::bn::fp64 {

using u64 = std::uint64_t;
using i64 = std::int64_t;

/// Widest limb: a doubled limb times a limb (2^(2B+1)) must stay below 2^(52+B) (see the file comment).
inline constexpr unsigned kMaxBits = 50;

/// Limbs and limb bits for an N-word (32-bit) modulus: the fewest limbs of at most kMaxBits bits, then the fewest
/// bits per limb that still hold 32N bits; `slack` = BM - 32N (R^2 mod n for R = 2^(BM) is the launch's R^2 times
/// 2^(2 slack)).
template <std::size_t Words>
struct Shape {
  static constexpr std::size_t limbs = (32 * Words + kMaxBits - 1) / kMaxBits;
  static constexpr unsigned bits = static_cast<unsigned>((32 * Words + limbs - 1) / limbs);
  static constexpr std::size_t slack = bits * limbs - 32 * Words;
};

/// fma(a, b, c), rounded once to nearest (never contracted or split).
CA_HD double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// a - b rounded to nearest.
CA_HD double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}

/// a + b rounded to nearest.
CA_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

/// The bit pattern of d.
CA_HD u64 bits_of(double d) {
#if defined(__CUDA_ARCH__)
  return static_cast<u64>(__double_as_longlong(d));
#else
  u64 v;
  std::memcpy(&v, &d, sizeof v);
  return v;
#endif
}

/// The double whose bit pattern is v.
CA_HD double from_bits(u64 v) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(v));
#else
  double d;
  std::memcpy(&d, &v, sizeof d);
  return d;
#endif
}

/// 2^e as a constant expression (e >= 0).
constexpr double pow2(unsigned e) {
  double x = 1.0;
  for (unsigned i = 0; i < e; ++i) x *= 2.0;
  return x;
}

inline constexpr double kTwo52 = pow2(52);
inline constexpr u64 kTwo52Bits = u64{1075} << 52;  ///< bits of 2^52 (exponent 1023 + 52, mantissa 0)

/// v (< 2^52) as a double: 2^52 + v has the bit pattern of 2^52 with v in the mantissa; subtracting 2^52 is exact.
CA_HD double to_double(u64 v) { return sub_rn(from_bits(kTwo52Bits | v), kTwo52); }

/// The integer d (0 <= d < 2^52, integral): the mantissa of 2^52 + d (exact: ulp 1 in [2^52, 2^53)).
CA_HD u64 to_integer(double d) { return bits_of(add_rn(d, kTwo52)) - kTwo52Bits; }

/// The constants of radix 2^Bits (file comment: C, K and their bit patterns).
template <unsigned Bits>
struct Radix {
  static_assert(Bits >= 32 && Bits <= kMaxBits, "limbs of 32..50 bits");
  static constexpr u64 mask = (u64{1} << Bits) - 1;
  static constexpr double c_hi = pow2(52 + Bits);                         ///< C
  static constexpr double k_lo = pow2(52) + pow2(Bits);                   ///< K (exact: below 2^53)
  static constexpr double c_lo = c_hi + k_lo;                             ///< C + K (exact: a multiple of 2^Bits)
  static constexpr u64 hi_bits = u64{1075 + Bits} << 52;                  ///< bits(C)
  static constexpr u64 lo_bits = kTwo52Bits + (u64{1} << Bits);           ///< bits(K)
};

/// Adds the exact halves of a * b (integral doubles, a * b < 2^(52+Bits)) to two columns as raw bit patterns:
/// lo += bits(K) + (a b - H 2^Bits), hi += bits(C) + H, with H = round(a b / 2^Bits) (file comment).
template <unsigned Bits>
CA_HD void mul_acc(double a, double b, u64& lo, u64& hi) {
  using R = Radix<Bits>;
  const double h = fma_rn(a, b, R::c_hi);
  const double l = fma_rn(a, b, sub_rn(R::c_lo, h));
  lo += bits_of(l);
  hi += bits_of(h);
}

/// r = T - n if T >= n, else T (masked select), for T = sum of t[j] 2^(Bits j), j < M, given as true (offset-free)
/// int64 column values in wrapped uint64 with 0 <= T < 2n; r in Bits-bit limbs. n as doubles' bit patterns.
template <std::size_t M, unsigned Bits>
CA_HD void normalize_subtract(u64* r, const u64* t, const u64* n) {
  using R = Radix<Bits>;
  u64 v[M], d[M];
  i64 carry = 0;
  CA_LIMB_LOOP(M)
  for (std::size_t j = 0; j < M; ++j) {
    const i64 s = static_cast<i64>(t[j]) + carry;
    v[j] = static_cast<u64>(s) & R::mask;
    carry = s >> Bits;  // arithmetic: exact floor division, columns may be negative
  }
  const u64 top = static_cast<u64>(carry);  // 0 or 1: T < 2n < 2^(Bits M + 1); 0 for every Shape (slack >= 1)
  u64 borrow = 0;
  CA_LIMB_LOOP(M)
  for (std::size_t j = 0; j < M; ++j) {
    const u64 s = v[j] - to_integer(from_bits(n[j])) - borrow;  // in (-2^Bits, 2^Bits) as int64
    d[j] = s & R::mask;
    borrow = s >> 63;
  }
  const u64 keep = bit_mask(static_cast<u64>(~top & borrow));  // T < n: it borrowed and nothing was on top
  select<M>(r, keep, v, d);
}

/// r = a b R^-1 mod n, R = 2^(Bits M) (CIOS, file comment). a, b < n in Bits-bit limbs; n as doubles' bit patterns
/// (odd, < R); n0 = -n^-1 mod 2^Bits. r may alias a or b.
template <std::size_t M, unsigned Bits>
CA_HD void mont_mul(u64* r, const u64* a, const u64* b, const u64* n, u64 n0) {
  using R = Radix<Bits>;
  static_assert((u64{4} * M) << Bits < (u64{1} << 62), "column sums must stay far below 2^63");
  constexpr u64 A = R::lo_bits, B = R::hi_bits;
  double ad[M];
  CA_LIMB_LOOP(M)
  for (std::size_t j = 0; j < M; ++j) ad[j] = to_double(a[j]);
  u64 t[M + 1];
  CA_LIMB_LOOP(M + 1)
  for (std::size_t j = 0; j <= M; ++j) t[j] = 0;
  for (std::size_t i = 0; i < M; ++i) {
    const double bi = to_double(b[i]);
    CA_LIMB_LOOP(M)
    for (std::size_t j = 0; j < M; ++j) mul_acc<Bits>(ad[j], bi, t[j], t[j + 1]);
    const double m = to_double((t[0] * n0) & R::mask);  // the offsets are multiples of 2^Bits
    CA_LIMB_LOOP(M)
    for (std::size_t j = 0; j < M; ++j) mul_acc<Bits>(m, from_bits(n[j]), t[j], t[j + 1]);
    // Column 0 now holds a multiple of 2^Bits plus its offsets: two low halves this row, and what the i earlier
    // rows left in column 1 before their shift (two low and two high halves each).
    const u64 off0 = 2 * A + i * (2 * A + 2 * B);
    t[1] += static_cast<u64>(static_cast<i64>(t[0] - off0) >> Bits);
    CA_LIMB_LOOP(M)
    for (std::size_t j = 0; j < M; ++j) t[j] = t[j + 1];
    t[M] = 0;
  }
  // After the last shift column j holds the offsets of rows' columns j+1..M: (M-1-j) full ones, one top (2 high).
  CA_LIMB_LOOP(M)
  for (std::size_t j = 0; j < M; ++j) t[j] -= (M - 1 - j) * (2 * A + 2 * B) + 2 * B;
  normalize_subtract<M, Bits>(r, t, n);
}

/// The Montgomery product and square of this radix as the Ops of montgomery.hpp's exponentiations (mont_exp_ct,
/// mont_exp_public): limbs are Bits-bit integers in uint64 (W = uint64_t); `n` is the modulus as doubles' bit
/// patterns and n0 = -n^-1 mod 2^Bits (see mont_mul). The square is the product with itself (file comment).
template <unsigned Bits>
struct Mont {
  template <std::size_t M, class W>
  CA_HD static void mul(W* r, const W* a, const W* b, const W* n, W n0) {
    mont_mul<M, Bits>(r, a, b, n, n0);
  }
  template <std::size_t M, class W>
  CA_HD static void sqr(W* r, const W* a, const W* n, W n0) {
    mont_mul<M, Bits>(r, a, a, n, n0);
  }
};

/// The M Bits-bit limbs of the N-word little-endian x (32N <= Bits M).
template <std::size_t N, std::size_t M, unsigned Bits>
CA_HD void words_to_limbs(u64* out, const std::uint32_t* x) {
  static_assert(32 * N <= Bits * M, "the limbs hold every word");  // a limb spans at most three words
  CA_LIMB_LOOP(M)
  for (std::size_t k = 0; k < M; ++k) {
    const std::size_t pos = k * Bits, w = pos / 32, off = pos % 32;
    u64 v = w < N ? u64{x[w]} >> off : 0;
    if (w + 1 < N) v |= u64{x[w + 1]} << (32 - off);
    if (w + 2 < N && off + Bits > 64) v |= u64{x[w + 2]} << (64 - off);
    out[k] = v & Radix<Bits>::mask;
  }
}

/// The N-word little-endian form of the M Bits-bit limbs of x (< 2^(32N)).
template <std::size_t N, std::size_t M, unsigned Bits>
CA_HD void limbs_to_words(std::uint32_t* out, const u64* x) {
  CA_LIMB_LOOP(N)
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t pos = 32 * i, k = pos / Bits, off = pos % Bits;
    u64 v = x[k] >> off;  // a word spans at most two limbs: Bits >= 32
    if (k + 1 < M) v |= x[k + 1] << (Bits - off);
    out[i] = static_cast<std::uint32_t>(v);
  }
}

/// The modulus limbs as the doubles' bit patterns mont_mul takes.
template <std::size_t M>
CA_HD void limbs_as_doubles(u64* out, const u64* n) {
  CA_LIMB_LOOP(M)
  for (std::size_t k = 0; k < M; ++k) out[k] = bits_of(to_double(n[k]));
}

}  // namespace cryptaccel::algo::bn::fp64
