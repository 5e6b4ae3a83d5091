// See rsa_ifma.hpp. Layout: a number is L52 limbs of 52 bits, limb j in lane j % 8 of register j / 8 (K ZMM
// registers, the lanes above L52 zero). A product's limbs may grow past 52 bits during an AMM (carries are lazy); normalize()
// brings them back before they feed VPMADD52, which reads only the low 52 bits of each lane.
#include "cpu/rsa_ifma.hpp"

#include <openssl/bn.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "algo/montgomery.hpp"
#include "common/cpu_features.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/types.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#define CA_IFMA __attribute__((target("avx512f,avx512ifma")))
#endif

namespace cryptaccel::cpu {

bool ifma_available() {
#if defined(__x86_64__)
  const CpuFeatures& f = cpu_features();
  return f.avx512f && f.avx512ifma;
#else
  return false;
#endif
}

namespace {

using algo::bn::limb;
constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;
constexpr int kWindow = 5;
constexpr int kTable = 1 << kWindow;

/// The sizes of one modulus width.
template <std::size_t Bits>
struct Shape {
  static constexpr int L64 = static_cast<int>(IfmaModulus<Bits>::kLimbs64);
  static constexpr int L52 = static_cast<int>(IfmaModulus<Bits>::kLimbs);
  static constexpr int K = static_cast<int>(IfmaModulus<Bits>::kRegisters);
  static constexpr int Slots = static_cast<int>(IfmaModulus<Bits>::kSlots);
};

/// L64 64-bit limbs -> L52 52-bit limbs (Slots slots, the rest zero).
template <class S>
void to_radix52(std::uint64_t* out, const limb* in) {
  for (int j = 0; j < S::Slots; ++j) {
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    std::uint64_t v = 0;
    if (j < S::L52 && idx < S::L64) {
      v = in[idx] >> sh;
      if (sh > 12 && idx + 1 < S::L64) v |= in[idx + 1] << (64 - sh);
    }
    out[j] = v & kMask52;
  }
}

/// L52 normalized 52-bit limbs of a value below 2^(64 Out) -> Out 64-bit limbs (Out = L64: a value below 2^Bits).
template <class S, int Out = S::L64>
void from_radix52(limb* out, const std::uint64_t* in) {
  for (int i = 0; i < Out; ++i) out[i] = 0;
  for (int j = 0; j < S::L52; ++j) {
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    if (idx < Out) out[idx] |= in[j] << sh;
    if (sh > 12 && idx + 1 < Out) out[idx + 1] |= in[j] >> (64 - sh);
  }
}

/// x = x - m if x >= m, else x (n limbs; constant time: both computed, one selected by a mask).
void subtract_if_not_below(limb* x, const limb* m, int n) {
  limb t[65];  // n <= 65: a value below twice a 4096-bit modulus
  unsigned __int128 borrow = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(x[i]) - m[i] - borrow;
    t[i] = static_cast<limb>(d);
    borrow = (d >> 64) & 1;
  }
  const limb keep_x = static_cast<limb>(0) - static_cast<limb>(borrow);  // all ones when x < m
  for (int i = 0; i < n; ++i) x[i] = (x[i] & keep_x) | (t[i] & ~keep_x);
  secure_wipe(t, sizeof t);
}

#if defined(__x86_64__)

/// A number in K registers.
template <int K>
struct Num {
  __m512i r[K];
};

template <int K>
CA_IFMA inline Num<K> load(const std::uint64_t* p) {
  Num<K> x;
  for (int k = 0; k < K; ++k) x.r[k] = _mm512_load_si512(p + 8 * k);
  return x;
}

template <int K>
CA_IFMA inline void store(std::uint64_t* p, const Num<K>& x) {
  for (int k = 0; k < K; ++k) _mm512_store_si512(p + 8 * k, x.r[k]);
}

/// `x` moved up one lane (limb j to lane j + 1, lane 0 zero), across the registers.
template <int K>
CA_IFMA inline Num<K> shifted_up(const Num<K>& x) {
  Num<K> y;
  y.r[0] = _mm512_alignr_epi64(x.r[0], _mm512_setzero_si512(), 7);
  for (int k = 1; k < K; ++k) y.r[k] = _mm512_alignr_epi64(x.r[k], x.r[k - 1], 7);
  return y;
}

/// Limbs back to 52 bits, the value unchanged (below 2^(52 L52)): one pass moves each lane's excess up a lane, which
/// leaves lanes below 2^52 + 2^12; the one carry left at most ripples through lanes equal to 2^52 - 1, and the
/// lanes that receive it come from integer arithmetic on the lane masks — lanes over 2^52 - 1 (G) generate a carry,
/// lanes equal to it (P) pass one on: carry-in = ((G << 1) + P) ^ P. No branch, no data-dependent address.
template <int K>
CA_IFMA inline void normalize(Num<K>& x) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i c[K];
  for (int k = 0; k < K; ++k) c[k] = _mm512_srli_epi64(x.r[k], 52);
  x.r[0] = _mm512_add_epi64(_mm512_and_si512(x.r[0], mask), _mm512_alignr_epi64(c[0], _mm512_setzero_si512(), 7));
  for (int k = 1; k < K; ++k)
    x.r[k] = _mm512_add_epi64(_mm512_and_si512(x.r[k], mask), _mm512_alignr_epi64(c[k], c[k - 1], 7));
  using Lanes = std::conditional_t<(K > 8), unsigned __int128, std::uint64_t>;  // one bit per lane (80 for 4096 bits)
  Lanes g = 0, p = 0;
  for (int k = 0; k < K; ++k) {
    g |= static_cast<Lanes>(_mm512_cmpgt_epu64_mask(x.r[k], mask)) << (8 * k);
    p |= static_cast<Lanes>(_mm512_cmpeq_epu64_mask(x.r[k], mask)) << (8 * k);
  }
  const Lanes carry_in = ((g << 1) + p) ^ p;
  const __m512i one = _mm512_set1_epi64(1);
  for (int k = 0; k < K; ++k) {
    const auto lanes = static_cast<__mmask8>(carry_in >> (8 * k));
    x.r[k] = _mm512_and_si512(_mm512_mask_add_epi64(x.r[k], lanes, x.r[k], one), mask);
  }
}

/// The constants of one modulus, in registers.
template <int K>
struct Mod {
  Num<K> m, m_up;        // the modulus, and the same one lane up
  std::uint64_t m0, k0;  // the lowest limb, -m^-1 mod 2^52
};

/// One AMM step of Gueron and Krasnov's radix-2^52 Montgomery product, for limb b_i of the multiplier: x = (x + a
/// b_i + m y) / 2^52 with y = -(x + a b_i) m^-1 mod 2^52 chosen to make the division exact. Each product's low half
/// goes to its own lane and its high half one lane up, which `a_up` and `m_up` (the operands one lane up) give
/// directly: the high halves need not wait for y or for the shift, and the critical path of a step is the low
/// products, y, the shift. Only lane 0's carry is propagated here (y needs lane 0 mod 2^52 only); normalize() does
/// the rest at the end.
template <int K>
CA_IFMA inline void amm_step(__m512i* x, const Num<K>& a, const Num<K>& a_up, std::uint64_t b_i, const Mod<K>& mod) {
  const __m512i b = _mm512_set1_epi64(static_cast<long long>(b_i));
  x[0] = _mm512_madd52lo_epu64(x[0], a.r[0], b);
  const auto t0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(x[0])));
  for (int k = 1; k < K; ++k) x[k] = _mm512_madd52lo_epu64(x[k], a.r[k], b);
  const std::uint64_t y = (t0 * mod.k0) & kMask52;
  for (int k = 0; k < K; ++k) x[k] = _mm512_madd52hi_epu64(x[k], a_up.r[k], b);  // lane 0 of a_up is zero
  const std::uint64_t carry = (t0 + ((mod.m0 * y) & kMask52)) >> 52;              // lane 0 becomes carry * 2^52
  const __m512i yv = _mm512_set1_epi64(static_cast<long long>(y));
  for (int k = 0; k < K; ++k) x[k] = _mm512_madd52lo_epu64(x[k], mod.m.r[k], yv);
  for (int k = 0; k < K; ++k) x[k] = _mm512_madd52hi_epu64(x[k], mod.m_up.r[k], yv);
  for (int k = 0; k + 1 < K; ++k) x[k] = _mm512_alignr_epi64(x[k + 1], x[k], 1);
  x[K - 1] = _mm512_alignr_epi64(_mm512_setzero_si512(), x[K - 1], 1);
  x[0] = _mm512_add_epi64(x[0], _mm512_maskz_set1_epi64(1, static_cast<long long>(carry)));
}

/// ra = a1 b1 R^-1 (mod m1) and rb = a2 b2 R^-1 (mod m2), "almost": for inputs below 2m the results are below 2m,
/// normalized. b1 and b2 are in memory (their limbs are broadcast one at a time). The two products interleave.
template <int K, int L52>
CA_IFMA inline void amm_x2(Num<K>& ra, const Num<K>& a1, const std::uint64_t* b1, const Mod<K>& m1, Num<K>& rb,
                           const Num<K>& a2, const std::uint64_t* b2, const Mod<K>& m2) {
  const Num<K> a1_up = shifted_up(a1), a2_up = shifted_up(a2);
  __m512i x[K], z[K];
  for (int k = 0; k < K; ++k) x[k] = z[k] = _mm512_setzero_si512();
  for (int i = 0; i < L52; ++i) {
    amm_step<K>(x, a1, a1_up, b1[i], m1);
    amm_step<K>(z, a2, a2_up, b2[i], m2);
  }
  for (int k = 0; k < K; ++k) ra.r[k] = x[k], rb.r[k] = z[k];
  normalize(ra);
  normalize(rb);
}

/// r = table[index] for kTable entries of 8K slots, reading every entry (the index is secret).
template <int K>
CA_IFMA inline Num<K> lookup(const std::uint64_t* table, std::uint64_t index) {
  const __m512i want = _mm512_set1_epi64(static_cast<long long>(index));
  Num<K> r;
  for (int k = 0; k < K; ++k) r.r[k] = _mm512_setzero_si512();
  for (int j = 0; j < kTable; ++j) {
    const __mmask8 hit = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(j));
    const std::uint64_t* e = table + 8 * K * j;
    for (int k = 0; k < K; ++k) r.r[k] = _mm512_mask_load_epi64(r.r[k], hit, e + 8 * k);
  }
  return r;
}

/// Memory of one exponentiation: its window table and scratch, wiped when done.
template <int Slots>
struct alignas(64) ExpMemory {
  std::uint64_t table[kTable * Slots];
  std::uint64_t base[Slots];     // the base in Montgomery form
  std::uint64_t scratch[Slots];  // the current accumulator, for squaring (the multiplier is read from memory)
  std::uint64_t operand[Slots];  // the looked-up table entry
  std::uint64_t one[Slots];      // 1 (not in Montgomery form): the multiplier that leaves it
};

template <std::size_t Bits>
CA_IFMA void mod_exp_x2(limb* out_a, const limb* base_a, const limb* e_a, const IfmaModulus<Bits>& ma, limb* out_b,
                        const limb* base_b, const limb* e_b, const IfmaModulus<Bits>& mb) {
  using S = Shape<Bits>;
  constexpr int K = S::K, L52 = S::L52, Slots = S::Slots;
  using Memory = ExpMemory<Slots>;
  const Mod<K> mod_a{load<K>(ma.m), shifted_up(load<K>(ma.m)), ma.m[0], ma.k0};
  const Mod<K> mod_b{load<K>(mb.m), shifted_up(load<K>(mb.m)), mb.m[0], mb.k0};
  auto* mem = static_cast<Memory*>(std::aligned_alloc(64, 2 * sizeof(Memory)));
  if (!mem) throw std::bad_alloc();
  Memory& A = mem[0];
  Memory& B = mem[1];
  std::memset(A.one, 0, sizeof A.one);
  std::memset(B.one, 0, sizeof B.one);
  A.one[0] = B.one[0] = 1;

  // Into Montgomery form: base R = AMM(base, R^2); the table: R (= AMM(1, R^2)), base R, base^2 R, ...
  to_radix52<S>(A.scratch, base_a);
  to_radix52<S>(B.scratch, base_b);
  Num<K> xa, xb;
  amm_x2<K, L52>(xa, load<K>(A.scratch), ma.rr, mod_a, xb, load<K>(B.scratch), mb.rr, mod_b);
  store(A.base, xa);
  store(B.base, xb);
  amm_x2<K, L52>(xa, load<K>(A.one), ma.rr, mod_a, xb, load<K>(B.one), mb.rr, mod_b);
  store(A.table, xa);
  store(B.table, xb);
  std::memcpy(A.table + Slots, A.base, sizeof A.base);
  std::memcpy(B.table + Slots, B.base, sizeof B.base);
  for (int k = 2; k < kTable; ++k) {
    amm_x2<K, L52>(xa, load<K>(A.table + Slots * (k - 1)), A.base, mod_a, xb, load<K>(B.table + Slots * (k - 1)),
                   B.base, mod_b);
    store(A.table + Slots * k, xa);
    store(B.table + Slots * k, xb);
  }

  // Fixed windows from the top of the Bits-bit exponents.
  constexpr int kBits = static_cast<int>(Bits);
  constexpr int kFirst = kBits % kWindow == 0 ? kWindow : kBits % kWindow;
  int pos = kBits - kFirst;
  xa = lookup<K>(A.table, algo::bn::exponent_window(e_a, S::L64, pos, kFirst));
  xb = lookup<K>(B.table, algo::bn::exponent_window(e_b, S::L64, pos, kFirst));
  while (pos > 0) {
    pos -= kWindow;
    for (int s = 0; s < kWindow; ++s) {
      store(A.scratch, xa);
      store(B.scratch, xb);
      amm_x2<K, L52>(xa, xa, A.scratch, mod_a, xb, xb, B.scratch, mod_b);
    }
    store(A.operand, lookup<K>(A.table, algo::bn::exponent_window(e_a, S::L64, pos, kWindow)));
    store(B.operand, lookup<K>(B.table, algo::bn::exponent_window(e_b, S::L64, pos, kWindow)));
    amm_x2<K, L52>(xa, xa, A.operand, mod_a, xb, xb, B.operand, mod_b);
  }

  // Out of Montgomery form (AMM(x, 1) <= m), then the one final subtraction.
  amm_x2<K, L52>(xa, xa, A.one, mod_a, xb, xb, B.one, mod_b);
  store(A.scratch, xa);
  store(B.scratch, xb);
  limb ma64[S::L64], mb64[S::L64];
  from_radix52<S>(ma64, ma.m);
  from_radix52<S>(mb64, mb.m);
  from_radix52<S>(out_a, A.scratch);
  from_radix52<S>(out_b, B.scratch);
  subtract_if_not_below(out_a, ma64, S::L64);
  subtract_if_not_below(out_b, mb64, S::L64);
  secure_wipe(mem, 2 * sizeof(Memory));
  std::free(mem);
  secure_wipe(ma64, sizeof ma64);
  secure_wipe(mb64, sizeof mb64);
}

/// r = a b R^-1 (mod m), "almost" (inputs below 2m give a result below 2m), normalized: one AMM chain, for a
/// single exponentiation (mod_exp_public); b is in memory.
template <int K, int L52>
CA_IFMA inline void amm_x1(Num<K>& r, const Num<K>& a, const std::uint64_t* b, const Mod<K>& m) {
  const Num<K> a_up = shifted_up(a);
  __m512i x[K];
  for (int k = 0; k < K; ++k) x[k] = _mm512_setzero_si512();
  for (int i = 0; i < L52; ++i) amm_step<K>(x, a, a_up, b[i], m);
  for (int k = 0; k < K; ++k) r.r[k] = x[k];
  normalize(r);
}

/// out = base^e mod m for a public exponent e: left-to-right square and multiply, one AMM chain. Branches follow the
/// bits of e only; the base (an RSA encryption's padded message) may be secret. For odd e the last multiplier is the
/// base itself, not base R: AMM(base^(e-1) R, base) = base^e, already out of Montgomery form, one product saved.
template <std::size_t Bits>
CA_IFMA void mod_exp_public(limb* out, const limb* base, const limb* e, std::size_t e_limbs, const IfmaModulus<Bits>& m) {
  using S = Shape<Bits>;
  constexpr int K = S::K, L52 = S::L52, Slots = S::Slots;
  const Mod<K> mod{load<K>(m.m), shifted_up(load<K>(m.m)), m.m[0], m.k0};
  alignas(64) std::uint64_t plain[Slots], mont[Slots], acc[Slots], one[Slots] = {1};
  to_radix52<S>(plain, base);
  std::size_t bit = 64 * e_limbs;  // one past the top set bit of e
  while (bit > 0 && !((e[(bit - 1) / 64] >> ((bit - 1) % 64)) & 1)) --bit;
  Num<K> x;
  if (bit == 0) {  // e = 0: base^0 = 1 (m > 1)
    x = load<K>(one);
  } else {
    amm_x1<K, L52>(x, load<K>(plain), m.rr, mod);  // base R
    store(mont, x);
    const bool odd = e[0] & 1;
    for (std::size_t i = bit - 1; i-- > 0;) {
      store(acc, x);
      amm_x1<K, L52>(x, x, acc, mod);
      if ((e[i / 64] >> (i % 64)) & 1) amm_x1<K, L52>(x, x, i == 0 ? plain : mont, mod);
    }
    if (!odd || bit == 1) amm_x1<K, L52>(x, x, one, mod);  // out of Montgomery form (e = 1: x is still base R)
  }
  // x < 2m, which may need a bit above Bits: one limb more for the final subtraction.
  store(acc, x);
  limb m64[S::L64 + 1], wide[S::L64 + 1];
  from_radix52<S, S::L64 + 1>(m64, m.m);
  from_radix52<S, S::L64 + 1>(wide, acc);
  subtract_if_not_below(wide, m64, S::L64 + 1);
  for (int i = 0; i < S::L64; ++i) out[i] = wide[i];
  secure_wipe(plain, sizeof plain), secure_wipe(mont, sizeof mont), secure_wipe(acc, sizeof acc);
  secure_wipe(wide, sizeof wide);
}

#endif  // __x86_64__

}  // namespace

template <std::size_t Bits>
IfmaModulus<Bits>::IfmaModulus(const limb* m64) {
  using S = Shape<Bits>;
  to_radix52<S>(m, m64);
  // -m^-1 mod 2^52 by Newton's iteration on 64 bits (each step doubles the correct low bits: 6 steps from 1).
  std::uint64_t inv = 1;
  for (int i = 0; i < 6; ++i) inv *= 2 - m64[0] * inv;
  k0 = (0 - inv) & kMask52;
  // R^2 mod m with R = 2^(52 L52), through OpenSSL (constant-time division: m may be a secret prime).
  constexpr int kBytes = 8 * S::L64;
  BIGNUM* n = BN_new();
  BIGNUM* r = BN_new();
  BN_CTX* ctx = BN_CTX_new();
  std::uint8_t be[kBytes];
  for (int i = 0; i < kBytes; ++i) be[i] = static_cast<std::uint8_t>(m64[S::L64 - 1 - i / 8] >> (8 * (7 - i % 8)));
  bool ok = n && r && ctx && BN_bin2bn(be, kBytes, n) && BN_set_bit(r, 2 * 52 * S::L52);
  if (ok) {
    BN_set_flags(n, BN_FLG_CONSTTIME);
    ok = BN_mod(r, r, n, ctx) == 1;
  }
  limb rr64[S::L64] = {};
  if (ok) {
    std::uint8_t out[kBytes];
    ok = BN_bn2binpad(r, out, kBytes) == kBytes;
    for (int i = 0; ok && i < kBytes; ++i) rr64[S::L64 - 1 - i / 8] |= static_cast<limb>(out[i]) << (8 * (7 - i % 8));
    secure_wipe(out, sizeof out);
  }
  secure_wipe(be, sizeof be);
  BN_clear_free(n);
  BN_clear_free(r);
  BN_CTX_free(ctx);
  if (!ok) throw Error("rsa: cannot set up the IFMA Montgomery constants");
  to_radix52<S>(rr, rr64);
  secure_wipe(rr64, sizeof rr64);
}

template <std::size_t Bits>
IfmaModulus<Bits>::~IfmaModulus() {
  secure_wipe(m, sizeof m);
  secure_wipe(rr, sizeof rr);
  k0 = 0;
}

template <std::size_t Bits>
void ifma_mod_exp_x2(limb* out_a, const limb* base_a, const limb* e_a, const IfmaModulus<Bits>& ma, limb* out_b,
                     const limb* base_b, const limb* e_b, const IfmaModulus<Bits>& mb) {
#if defined(__x86_64__)
  mod_exp_x2<Bits>(out_a, base_a, e_a, ma, out_b, base_b, e_b, mb);
#else
  (void)out_a, (void)base_a, (void)e_a, (void)ma, (void)out_b, (void)base_b, (void)e_b, (void)mb;
  throw Error("rsa: the IFMA kernel needs x86-64");
#endif
}

template <std::size_t Bits>
void ifma_mod_exp_public(limb* out, const limb* base, const limb* e, std::size_t e_limbs, const IfmaModulus<Bits>& m) {
#if defined(__x86_64__)
  mod_exp_public<Bits>(out, base, e, e_limbs, m);
#else
  (void)out, (void)base, (void)e, (void)e_limbs, (void)m;
  throw Error("rsa: the IFMA kernel needs x86-64");
#endif
}

#define CRYPTACCEL_IFMA_INSTANTIATE(BITS)                                                              \
  template struct IfmaModulus<BITS>;                                                                   \
  template void ifma_mod_exp_x2<BITS>(limb*, const limb*, const limb*, const IfmaModulus<BITS>&, limb*, \
                                      const limb*, const limb*, const IfmaModulus<BITS>&);
CRYPTACCEL_IFMA_INSTANTIATE(1024)
CRYPTACCEL_IFMA_INSTANTIATE(1536)
CRYPTACCEL_IFMA_INSTANTIATE(2048)
#undef CRYPTACCEL_IFMA_INSTANTIATE
template struct IfmaModulus<3072>;
template struct IfmaModulus<4096>;
template void ifma_mod_exp_public<2048>(limb*, const limb*, const limb*, std::size_t, const IfmaModulus<2048>&);
template void ifma_mod_exp_public<3072>(limb*, const limb*, const limb*, std::size_t, const IfmaModulus<3072>&);
template void ifma_mod_exp_public<4096>(limb*, const limb*, const limb*, std::size_t, const IfmaModulus<4096>&);

}  // namespace cryptaccel::cpu
