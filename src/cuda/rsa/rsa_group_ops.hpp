// The group RSA kernel variant (rsa_kernel_variant.hpp): one modular exponentiation per cooperative group of T lanes
// of a warp, as NVIDIA's CGBN does, written over the lane abstraction of lane_group.hpp so that the kernels
// (rsa_kernels_group.cu) and their host emulation (rsa_group_emulate.cpp, the CPU tests) run this same code.
//
// Why: a per-thread exponentiation (rsa_modexp_thread) of a 1024-bit CRT half keeps a 32-entry window table of
// 4 KiB per thread in local memory and one long dependency chain per thread; spread over T lanes, each lane holds
// L = N / T words of every number (the operands in registers, the table at 32 L words in local memory), and the T
// lanes compute one product together, so an SM has T times the independent work per exponentiation in flight.
//
// Layout: an N-word number is a GroupNum<T, L>: lane l holds words l L .. l L + L - 1 (lane 0 the least significant).
// Lanes per size (rsa_group_lanes): about 4 words per lane, which keeps a lane's operands, modulus and accumulator
// (4 L words plus a carry) in registers while a group stays 8..16 lanes, i.e. 2..4 exponentiations per warp:
//   16 words (512-bit: RSA-1024 CRT halves)   8 lanes x 2 words
//   32 words (1024-bit: RSA-1024, RSA-2048 CRT halves)   8 lanes x 4 words
//   48 words (1536-bit: RSA-3072 CRT halves)  16 lanes x 3 words
//   64 words (2048-bit: RSA-2048, RSA-4096 CRT halves)  16 lanes x 4 words
// (a GPU run should compare 8/16/32 lanes per size: only rsa_group_lanes changes.)
//
// Montgomery product (group_mont_mul), CIOS across lanes: for each word b_i (lane i / L broadcasts it by shuffle) every
// lane adds a_l * b_i and m * n_l to its slice t_l, with m = (t_0 + a_0 b_i) * n0 computed from lane 0's lowest word
// (exact: no carry ever enters lane 0) and broadcast; then t shifts down one word (each lane's lowest word to the
// lane below by shuffle; the word at the bottom of lane 0 is zero by the choice of m). The carries out of a lane's
// slice are NOT propagated across lanes per row: each lane keeps them as a pending word c_l (at most 3) owed to the
// next lane's lowest word, which the shift brings to the lane's own top word, where it is added at the next row.
// Once per product the pending carries are resolved: each lane adds its lower neighbour's c (shfl_up), and the single
// carry bits that remain ripple by carry-lookahead over two ballots (generate G: a lane's carry out; propagate P: a
// lane's slice all ones; carry into lane l = bit l of ((G | P) + G) ^ P, as in a binary adder). The top lane's
// pending word is the product's word N (0 or 1: t < 2n). The final subtraction t - n uses the same lookahead for
// borrows (propagate: a lane's difference is zero); the borrow out of the top lane and word N decide, and every lane
// selects under one uniform mask.
//
// Exponentiation: as mont_exp_ct / mont_exp_public of src/algo/montgomery.hpp: fixed 5-bit windows over the public
// bound a.e_bits (5 squares and one multiply per window) with the 32-entry table scanned entirely for every window
// (masked, no secret-dependent index), or left-to-right binary for public exponents. Exponent words are read from
// the launch buffer at public indices, the same address in every lane of the group. Squares reuse the product.
#pragma once
#include <cstddef>
#include <cstdint>

#include "cuda/rsa/lane_group.hpp"
#include "cuda/rsa/rsa_ops.hpp"

namespace cryptaccel::cuda {

/// Lanes per exponentiation for `words`-word moduli, 0 where the group variant is not built (see the file comment).
CA_HD constexpr unsigned rsa_group_lanes(std::size_t words) {
  switch (words) {
    case 16: return 8;
    case 32: return 8;
    case 48: return 16;
    case 64: return 16;
    default: return 0;
  }
}

/// An N = T L word number spread over a group: lane l holds words l L .. l L + L - 1 in w[0..L-1].
template <unsigned T, std::size_t L>
struct GroupNum {
  LaneWord<T> w[L];

  /// The number x < 2^32: word 0 (lane 0's w[0]) = x, every other word zero.
  CA_HD static GroupNum word0(std::uint32_t x) {
    GroupNum r;
    const LaneWord<T> zero = LaneWord<T>::all(0);
    for (std::size_t s = 0; s < L; ++s) r.w[s] = zero;
    r.w[0] = eq_mask(LaneWord<T>::index(), zero) & LaneWord<T>::all(x);
    return r;
  }
};

namespace group_detail {

/// Per-lane carry (or borrow) into each lane, from the group's generate mask G (lanes with a carry out) and propagate
/// mask P (lanes that pass an incoming carry on; never together with G): bit l of ((G | P) + G) ^ P. `out` is the
/// carry out of the top lane. Uniform masks in, per-lane 0/1 out.
template <unsigned T>
CA_HD LaneWord<T> carry_in(std::uint32_t g, std::uint32_t p, std::uint32_t& out) {
  const std::uint64_t sum = (std::uint64_t{g} | p) + g;
  out = static_cast<std::uint32_t>(sum >> T) & 1;
  return lane_bit<T>(static_cast<std::uint32_t>(sum ^ p));
}

/// Resolves the pending carries of a product: t (per lane L words) plus c_l * 2^(32 L) owed by lane l to lane l + 1
/// (the top lane's c is above word N-1). Afterwards t is exact in N words; returns word N (uniform).
template <unsigned T, std::size_t L>
CA_HD LaneWord<T> resolve_carries(GroupNum<T, L>& t, const LaneWord<T>& c) {
  using LW = LaneWord<T>;
  const LW zero = LW::all(0);
  const LW from_below = shfl_up(c, 1) & ~eq_mask(LW::index(), zero);  // lane 0 receives nothing
  LW k = zero;
  t.w[0] = addc(t.w[0], from_below, k);
  LW ones = t.w[0];
  for (std::size_t s = 1; s < L; ++s) {
    t.w[s] = addc(t.w[s], zero, k);
    ones = ones & t.w[s];
  }
  // A lane that carried out holds less than 4 (it added at most 3), so it is not all ones: G and P are disjoint.
  std::uint32_t out;
  k = carry_in<T>(ballot(k), ballot(eq_mask(ones, LW::all(0xffffffffu))), out);
  for (std::size_t s = 0; s < L; ++s) t.w[s] = addc(t.w[s], zero, k);
  return shfl(c, T - 1) + LW::all(out);
}

/// r = t - n when t (N words plus word N `top`, uniform) >= n, else t; t < 2n. Masked, no branch.
template <unsigned T, std::size_t L>
CA_HD void final_subtract(GroupNum<T, L>& r, const GroupNum<T, L>& t, const LaneWord<T>& top,
                          const GroupNum<T, L>& n) {
  using LW = LaneWord<T>;
  const LW zero = LW::all(0);
  GroupNum<T, L> d;
  LW b = zero;
  LW any = zero;
  for (std::size_t s = 0; s < L; ++s) {
    d.w[s] = subb(t.w[s], n.w[s], b);
    any = any | d.w[s];
  }
  // A lane that borrowed out holds t_l - n_l + 2^(32 L) > 0, so it is not zero: G and P are disjoint.
  std::uint32_t out;
  b = carry_in<T>(ballot(b), ballot(eq_mask(any, zero)), out);
  for (std::size_t s = 0; s < L; ++s) d.w[s] = subb(d.w[s], zero, b);
  // t < n exactly when the subtraction borrowed out of the top lane and word N is zero (as final_subtract).
  const LW keep = zero - ((~top & LW::all(out)) & LW::all(1));
  for (std::size_t s = 0; s < L; ++s) r.w[s] = (t.w[s] & keep) | (d.w[s] & ~keep);
}

}  // namespace group_detail

/// r = a * b * R^-1 mod n (R = 2^(32 T L)), CIOS across the group's lanes (file comment). a, b < n; n0 = -n^-1 mod
/// 2^32 (uniform); r may alias a or b.
template <unsigned T, std::size_t L>
CA_HD void group_mont_mul(GroupNum<T, L>& r, const GroupNum<T, L>& a, const GroupNum<T, L>& b,
                          const GroupNum<T, L>& n, const LaneWord<T>& n0) {
  using LW = LaneWord<T>;
  const LW zero = LW::all(0);
  const LW below_top = ~eq_mask(LW::index(), LW::all(T - 1));
  GroupNum<T, L> t;
  for (std::size_t s = 0; s < L; ++s) t.w[s] = zero;
  LW c = zero;  // pending carry out of this lane's slice, owed to the next lane (0..3)
  CA_DEVICE_NO_UNROLL
  for (unsigned src = 0; src < T; ++src) {  // the lane holding words src L .. src L + L - 1 of b
    CA_DEVICE_UNROLL
    for (std::size_t i = 0; i < L; ++i) {
      const LW bi = shfl(b.w[i], src);
      const LW m = shfl(t.w[0] + a.w[0] * bi, 0) * n0;  // lane 0's word 0 is exact
      LW ca = zero, cm = zero;
      for (std::size_t s = 0; s < L; ++s) {
        t.w[s] = mac(a.w[s], bi, t.w[s], ca);
        t.w[s] = mac(m, n.w[s], t.w[s], cm);
      }
      // Shift down one word: the next lane's lowest word becomes this lane's top word, where this lane's pending
      // carry (owed to that word) and the row's carry words are added; what overflows stays pending (at most 3).
      const LW up = shfl_down(t.w[0], 1) & below_top;
      for (std::size_t s = 0; s + 1 < L; ++s) t.w[s] = t.w[s + 1];
      LW k1 = zero, k2 = zero, k3 = zero;
      LW top = addc(up, ca, k1);
      top = addc(top, cm, k2);
      t.w[L - 1] = addc(top, c, k3);
      c = k1 + k2 + k3;
    }
  }
  const LW top = group_detail::resolve_carries(t, c);
  group_detail::final_subtract(r, t, top, n);
}

/// r = table[index] for a table of `count` numbers, reading every entry (index uniform and secret: masks only).
template <unsigned T, std::size_t L>
CA_HD void group_ct_lookup(GroupNum<T, L>& r, const GroupNum<T, L>* table, unsigned count, const LaneWord<T>& index) {
  using LW = LaneWord<T>;
  for (std::size_t s = 0; s < L; ++s) r.w[s] = LW::all(0);
  CA_DEVICE_NO_UNROLL
  for (unsigned e = 0; e < count; ++e) {
    const LW m = eq_mask(LW::all(e), index);
    for (std::size_t s = 0; s < L; ++s) r.w[s] = r.w[s] | (table[e].w[s] & m);
  }
}

/// The exponent of one job of a launch, read word by word at public indices (zero beyond its E words).
struct GroupExponent {
  const rsa_word* e;
  std::uint64_t count, job;
  std::uint32_t words;
  CA_HD std::uint32_t word(std::size_t i) const { return i < words ? e[i * count + job] : 0u; }
  /// Bits [pos, pos + w) (w < 32), as algo::bn::exponent_window.
  CA_HD std::uint32_t window(std::size_t pos, unsigned w) const {
    const std::size_t i = pos / 32, off = pos % 32;
    std::uint32_t v = word(i) >> off;
    if (off + w > 32) v |= word(i + 1) << (32 - off);
    return v & ((1u << w) - 1);
  }
};

/// acc = base^e in Montgomery form, fixed 5-bit windows over `bits` (a public bound; bits beyond it are zero), as
/// algo::bn::mont_exp_ct: every window 5 squares, a full masked scan of the table and one multiply. The table is
/// overwritten before returning.
template <unsigned T, std::size_t L>
CA_HD void group_exp_ct(GroupNum<T, L>& acc, const GroupNum<T, L>& base, const GroupNum<T, L>& one,
                        const GroupExponent& e, std::size_t bits, const GroupNum<T, L>& n, const LaneWord<T>& n0) {
  using LW = LaneWord<T>;
  constexpr unsigned kTable = 1u << algo::bn::kExpWindow;
  GroupNum<T, L> table[kTable];
  table[0] = one;
  table[1] = base;
  CA_DEVICE_NO_UNROLL
  for (unsigned i = 2; i < kTable; ++i)  // even: a square of entry i/2; odd: entry i-1 times the base (entry 1)
    group_mont_mul(table[i], table[i % 2 ? i - 1 : i / 2], table[i % 2 ? 1 : i / 2], n, n0);
  const std::size_t windows = bits == 0 ? 1 : (bits + algo::bn::kExpWindow - 1) / algo::bn::kExpWindow;
  group_ct_lookup(acc, table, kTable, LW::all(e.window((windows - 1) * algo::bn::kExpWindow, algo::bn::kExpWindow)));
  GroupNum<T, L> sel;
  CA_DEVICE_NO_UNROLL
  for (std::size_t w = windows - 1; w-- > 0;) {
    CA_DEVICE_NO_UNROLL
    for (unsigned s = 0; s < algo::bn::kExpWindow; ++s) group_mont_mul(acc, acc, acc, n, n0);
    group_ct_lookup(sel, table, kTable, LW::all(e.window(w * algo::bn::kExpWindow, algo::bn::kExpWindow)));
    group_mont_mul(acc, acc, sel, n, n0);
  }
  // The table is indexed at run time, so on the GPU it lives in local memory: overwrite it (volatile stores stay).
  // acc and sel are registers there (taking their address to wipe them would move them to local memory).
  CA_DEVICE_NO_UNROLL
  for (unsigned i = 0; i < kTable; ++i)
    for (std::size_t s = 0; s < L; ++s)
      for (unsigned k = 0; k < LW::kHeld; ++k) static_cast<volatile std::uint32_t&>(table[i].w[s].v[k]) = 0;
}

/// acc = base^e in Montgomery form for a PUBLIC exponent of `words` words (left-to-right binary; the branches depend
/// on e, uniform within the group), as algo::bn::mont_exp_public.
template <unsigned T, std::size_t L>
CA_HD void group_exp_public(GroupNum<T, L>& acc, const GroupNum<T, L>& base, const GroupNum<T, L>& one,
                            const GroupExponent& e, std::size_t words, const GroupNum<T, L>& n,
                            const LaneWord<T>& n0) {
  acc = one;
  bool started = false;
  for (std::size_t i = words; i-- > 0;) {
    const std::uint32_t ew = e.word(i);
    for (unsigned bit = 32; bit-- > 0;) {
      if (started) group_mont_mul(acc, acc, acc, n, n0);
      if ((ew >> bit) & 1) {
        group_mont_mul(acc, acc, base, n, n0);
        started = true;
      }
    }
  }
}

/// Job `job` of `a` by the group this lane belongs to (every lane of the group calls it with the same job): x =
/// x^e mod n, as rsa_modexp_thread. R mod n = REDC(R^2). Only the window table is in local memory (and wiped by
/// group_exp_ct); the other numbers are a few registers per lane.
template <std::size_t N, RsaExpKind Kind>
CA_HD void rsa_modexp_group(const RsaModexpArgs& a, std::uint64_t job) {
  constexpr unsigned T = rsa_group_lanes(N);
  static_assert(T != 0 && N % T == 0, "no group shape for this size");
  constexpr std::size_t L = N / T;
  using LW = LaneWord<T>;
  using Num = GroupNum<T, L>;
  const std::uint64_t c = a.count;
  Num n, rr, x;
  for (std::size_t s = 0; s < L; ++s) {
    const auto at = [&](unsigned lane) { return (lane * L + s) * c + job; };
    n.w[s] = LW::generate([&](unsigned lane) { return a.n[at(lane)]; });
    rr.w[s] = LW::generate([&](unsigned lane) { return a.rr[at(lane)]; });
    x.w[s] = LW::generate([&](unsigned lane) { return a.x[at(lane)]; });
  }
  const LW n0 = LW::all(a.n0[job]);
  const Num unit = Num::word0(1);
  Num one;
  group_mont_mul(one, rr, unit, n, n0);  // R mod n = REDC(R^2)
  group_mont_mul(x, x, rr, n, n0);       // to Montgomery form
  const std::uint32_t ew = a.e_words < N ? a.e_words : static_cast<std::uint32_t>(N);
  const GroupExponent e{a.e, c, job, ew};
  Num acc;
  if constexpr (Kind == RsaExpKind::secret)
    group_exp_ct(acc, x, one, e, a.e_bits, n, n0);
  else
    group_exp_public(acc, x, one, e, ew, n, n0);
  group_mont_mul(acc, acc, unit, n, n0);  // out of Montgomery form
  for (std::size_t s = 0; s < L; ++s)
    acc.w[s].each([&](unsigned lane, std::uint32_t v) { a.x[(lane * L + s) * c + job] = v; });
}

}  // namespace cryptaccel::cuda
