// See rsa_ifma.hpp. Layout: a number is 20 limbs of 52 bits, limb j in lane j % 8 of register j / 8 (three ZMM
// registers, lanes 20-23 zero). A product's limbs may grow past 52 bits during an AMM (carries are lazy); normalize()
// brings them back before they feed VPMADD52, which reads only the low 52 bits of each lane.
#include "cpu/rsa_ifma.hpp"

#include <openssl/bn.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "cpu/cpu_features.hpp"
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
constexpr int kLimbs = IfmaModulus1024::kLimbs;  // 20
constexpr int kWindow = 5;
constexpr int kTable = 1 << kWindow;

/// 16 64-bit limbs -> 20 52-bit limbs (24 slots, the last 4 zero).
void to_radix52(std::uint64_t out[24], const limb in[16]) {
  for (int j = 0; j < 24; ++j) {
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    std::uint64_t v = 0;
    if (j < kLimbs && idx < 16) {
      v = in[idx] >> sh;
      if (sh > 12 && idx + 1 < 16) v |= in[idx + 1] << (64 - sh);
    }
    out[j] = v & kMask52;
  }
}

/// 20 normalized 52-bit limbs (a value below 2^1024) -> 16 64-bit limbs.
void from_radix52(limb out[16], const std::uint64_t in[24]) {
  for (int i = 0; i < 16; ++i) out[i] = 0;
  for (int j = 0; j < kLimbs; ++j) {
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    if (idx < 16) out[idx] |= in[j] << sh;
    if (sh > 12 && idx + 1 < 16) out[idx + 1] |= in[j] >> (64 - sh);
  }
}

/// out = x - m if x >= m, else x (16 limbs; constant time: both computed, one selected by a mask).
void subtract_if_not_below(limb x[16], const limb m[16]) {
  limb t[16];
  unsigned __int128 borrow = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(x[i]) - m[i] - borrow;
    t[i] = static_cast<limb>(d);
    borrow = (d >> 64) & 1;
  }
  const limb keep_x = static_cast<limb>(0) - static_cast<limb>(borrow);  // all ones when x < m
  for (int i = 0; i < 16; ++i) x[i] = (x[i] & keep_x) | (t[i] & ~keep_x);
  secure_wipe(t, sizeof t);
}

#if defined(__x86_64__)

/// A number in three registers.
struct Num {
  __m512i r[3];
};

CA_IFMA inline Num load(const std::uint64_t* p) {
  return {{_mm512_load_si512(p), _mm512_load_si512(p + 8), _mm512_load_si512(p + 16)}};
}

CA_IFMA inline void store(std::uint64_t* p, const Num& x) {
  _mm512_store_si512(p, x.r[0]);
  _mm512_store_si512(p + 8, x.r[1]);
  _mm512_store_si512(p + 16, x.r[2]);
}

/// Limbs back to 52 bits, the value unchanged (below 2^1040): one pass moves each lane's excess up a lane, which
/// leaves lanes below 2^52 + 2^12; the one carry left at most ripples through lanes equal to 2^52 - 1, and the
/// lanes that receive it come from integer arithmetic on the lane masks — lanes over 2^52 - 1 (G) generate a carry,
/// lanes equal to it (P) pass one on: carry-in = ((G << 1) + P) ^ P. No branch, no data-dependent address.
CA_IFMA inline void normalize(Num& x) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  const __m512i zero = _mm512_setzero_si512();
  const __m512i c0 = _mm512_srli_epi64(x.r[0], 52), c1 = _mm512_srli_epi64(x.r[1], 52),
                c2 = _mm512_srli_epi64(x.r[2], 52);
  x.r[0] = _mm512_add_epi64(_mm512_and_si512(x.r[0], mask), _mm512_alignr_epi64(c0, zero, 7));
  x.r[1] = _mm512_add_epi64(_mm512_and_si512(x.r[1], mask), _mm512_alignr_epi64(c1, c0, 7));
  x.r[2] = _mm512_add_epi64(_mm512_and_si512(x.r[2], mask), _mm512_alignr_epi64(c2, c1, 7));
  const std::uint32_t g = static_cast<std::uint32_t>(_mm512_cmpgt_epu64_mask(x.r[0], mask)) |
                          static_cast<std::uint32_t>(_mm512_cmpgt_epu64_mask(x.r[1], mask)) << 8 |
                          static_cast<std::uint32_t>(_mm512_cmpgt_epu64_mask(x.r[2], mask)) << 16;
  const std::uint32_t p = static_cast<std::uint32_t>(_mm512_cmpeq_epu64_mask(x.r[0], mask)) |
                          static_cast<std::uint32_t>(_mm512_cmpeq_epu64_mask(x.r[1], mask)) << 8 |
                          static_cast<std::uint32_t>(_mm512_cmpeq_epu64_mask(x.r[2], mask)) << 16;
  const std::uint32_t carry_in = ((g << 1) + p) ^ p;
  const __m512i one = _mm512_set1_epi64(1);
  for (int k = 0; k < 3; ++k) {
    const auto lanes = static_cast<__mmask8>(carry_in >> (8 * k));
    x.r[k] = _mm512_and_si512(_mm512_mask_add_epi64(x.r[k], lanes, x.r[k], one), mask);
  }
}

/// `x` moved up one lane (limb j to lane j + 1, lane 0 zero), across the three registers.
CA_IFMA inline Num shifted_up(const Num& x) {
  const __m512i zero = _mm512_setzero_si512();
  return {{_mm512_alignr_epi64(x.r[0], zero, 7), _mm512_alignr_epi64(x.r[1], x.r[0], 7),
           _mm512_alignr_epi64(x.r[2], x.r[1], 7)}};
}

/// The constants of one modulus, in registers.
struct Mod {
  Num m, m_up;           // the modulus, and the same one lane up
  std::uint64_t m0, k0;  // the lowest limb, -m^-1 mod 2^52
};

/// One AMM step of Gueron and Krasnov's radix-2^52 Montgomery product, for limb b_i of the multiplier: x = (x + a
/// b_i + m y) / 2^52 with y = -(x + a b_i) m^-1 mod 2^52 chosen to make the division exact. Each product's low half
/// goes to its own lane and its high half one lane up, which `a_up` and `m_up` (the operands one lane up) give
/// directly: the high halves need not wait for y or for the shift, and the critical path of a step is the low
/// products, y, the shift. Only lane 0's carry is propagated here (y needs lane 0 mod 2^52 only); normalize() does
/// the rest at the end.
CA_IFMA inline void amm_step(__m512i x[3], const Num& a, const Num& a_up, std::uint64_t b_i, const Mod& mod) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i b = _mm512_set1_epi64(static_cast<long long>(b_i));
  x[0] = _mm512_madd52lo_epu64(x[0], a.r[0], b);
  const auto t0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(x[0])));
  x[1] = _mm512_madd52lo_epu64(x[1], a.r[1], b);
  x[2] = _mm512_madd52lo_epu64(x[2], a.r[2], b);
  const std::uint64_t y = (t0 * mod.k0) & kMask52;
  x[0] = _mm512_madd52hi_epu64(x[0], a_up.r[0], b);  // lane 0 of a_up is zero: t0 is unchanged
  x[1] = _mm512_madd52hi_epu64(x[1], a_up.r[1], b);
  x[2] = _mm512_madd52hi_epu64(x[2], a_up.r[2], b);
  const std::uint64_t carry = (t0 + ((mod.m0 * y) & kMask52)) >> 52;  // lane 0 becomes carry * 2^52
  const __m512i yv = _mm512_set1_epi64(static_cast<long long>(y));
  x[0] = _mm512_madd52lo_epu64(x[0], mod.m.r[0], yv);
  x[1] = _mm512_madd52lo_epu64(x[1], mod.m.r[1], yv);
  x[2] = _mm512_madd52lo_epu64(x[2], mod.m.r[2], yv);
  x[0] = _mm512_madd52hi_epu64(x[0], mod.m_up.r[0], yv);
  x[1] = _mm512_madd52hi_epu64(x[1], mod.m_up.r[1], yv);
  x[2] = _mm512_madd52hi_epu64(x[2], mod.m_up.r[2], yv);
  x[0] = _mm512_alignr_epi64(x[1], x[0], 1);
  x[1] = _mm512_alignr_epi64(x[2], x[1], 1);
  x[2] = _mm512_alignr_epi64(zero, x[2], 1);
  x[0] = _mm512_add_epi64(x[0], _mm512_maskz_set1_epi64(1, static_cast<long long>(carry)));
}

/// ra = a1 b1 R^-1 (mod m1) and rb = a2 b2 R^-1 (mod m2), "almost": for inputs below 2m the results are below 2m,
/// normalized. b1 and b2 are in memory (their limbs are broadcast one at a time). The two products interleave.
CA_IFMA inline void amm_x2(Num& ra, const Num& a1, const std::uint64_t* b1, const Mod& m1, Num& rb, const Num& a2,
                           const std::uint64_t* b2, const Mod& m2) {
  const Num a1_up = shifted_up(a1), a2_up = shifted_up(a2);
  __m512i x[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  __m512i z[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (int i = 0; i < kLimbs; ++i) {
    amm_step(x, a1, a1_up, b1[i], m1);
    amm_step(z, a2, a2_up, b2[i], m2);
  }
  ra = {{x[0], x[1], x[2]}};
  rb = {{z[0], z[1], z[2]}};
  normalize(ra);
  normalize(rb);
}

/// r = table[index] for kTable entries of 24 limbs, reading every entry (the index is secret).
CA_IFMA inline Num lookup(const std::uint64_t* table, std::uint64_t index) {
  const __m512i want = _mm512_set1_epi64(static_cast<long long>(index));
  Num r{{_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()}};
  for (int j = 0; j < kTable; ++j) {
    const __mmask8 hit = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(j));
    const std::uint64_t* e = table + 24 * j;
    r.r[0] = _mm512_mask_load_epi64(r.r[0], hit, e);
    r.r[1] = _mm512_mask_load_epi64(r.r[1], hit, e + 8);
    r.r[2] = _mm512_mask_load_epi64(r.r[2], hit, e + 16);
  }
  return r;
}

/// Bits [pos, pos + width) of a 16-limb exponent (pos and width public).
std::uint64_t exponent_bits(const limb e[16], int pos, int width) {
  const int idx = pos / 64, sh = pos % 64;
  std::uint64_t v = e[idx] >> sh;
  if (sh + width > 64 && idx + 1 < 16) v |= e[idx + 1] << (64 - sh);
  return v & ((std::uint64_t{1} << width) - 1);
}

/// Memory of one exponentiation: its window table and scratch, wiped when done.
struct alignas(64) ExpMemory {
  std::uint64_t table[kTable * 24];
  std::uint64_t base[24];     // the base in Montgomery form
  std::uint64_t scratch[24];  // the current accumulator, for squaring (the multiplier is read from memory)
  std::uint64_t operand[24];  // the looked-up table entry
};

CA_IFMA void mod_exp_x2(limb out_a[16], const limb base_a[16], const limb e_a[16], const IfmaModulus1024& ma,
                        limb out_b[16], const limb base_b[16], const limb e_b[16], const IfmaModulus1024& mb) {
  const Mod mod_a{load(ma.m), shifted_up(load(ma.m)), ma.m[0], ma.k0};
  const Mod mod_b{load(mb.m), shifted_up(load(mb.m)), mb.m[0], mb.k0};
  auto* mem = static_cast<ExpMemory*>(std::aligned_alloc(64, 2 * sizeof(ExpMemory)));
  if (!mem) throw std::bad_alloc();
  ExpMemory& A = mem[0];
  ExpMemory& B = mem[1];
  alignas(64) std::uint64_t one[24] = {1};

  // Into Montgomery form: base R = AMM(base, R^2); the table: R (= AMM(1, R^2)), base R, base^2 R, ...
  to_radix52(A.scratch, base_a);
  to_radix52(B.scratch, base_b);
  Num xa, xb;
  amm_x2(xa, load(A.scratch), ma.rr, mod_a, xb, load(B.scratch), mb.rr, mod_b);
  store(A.base, xa);
  store(B.base, xb);
  amm_x2(xa, load(one), ma.rr, mod_a, xb, load(one), mb.rr, mod_b);
  store(A.table, xa);
  store(B.table, xb);
  std::memcpy(A.table + 24, A.base, sizeof A.base);
  std::memcpy(B.table + 24, B.base, sizeof B.base);
  for (int k = 2; k < kTable; ++k) {
    amm_x2(xa, load(A.table + 24 * (k - 1)), A.base, mod_a, xb, load(B.table + 24 * (k - 1)), B.base, mod_b);
    store(A.table + 24 * k, xa);
    store(B.table + 24 * k, xb);
  }

  // Fixed windows from the top: 1024 = 4 + 204 x 5 bits.
  constexpr int kBits = 1024;
  constexpr int kFirst = kBits % kWindow == 0 ? kWindow : kBits % kWindow;
  int pos = kBits - kFirst;
  xa = lookup(A.table, exponent_bits(e_a, pos, kFirst));
  xb = lookup(B.table, exponent_bits(e_b, pos, kFirst));
  while (pos > 0) {
    pos -= kWindow;
    for (int s = 0; s < kWindow; ++s) {
      store(A.scratch, xa);
      store(B.scratch, xb);
      amm_x2(xa, xa, A.scratch, mod_a, xb, xb, B.scratch, mod_b);
    }
    store(A.operand, lookup(A.table, exponent_bits(e_a, pos, kWindow)));
    store(B.operand, lookup(B.table, exponent_bits(e_b, pos, kWindow)));
    amm_x2(xa, xa, A.operand, mod_a, xb, xb, B.operand, mod_b);
  }

  // Out of Montgomery form (AMM(x, 1) <= m), then the one final subtraction.
  amm_x2(xa, xa, one, mod_a, xb, xb, one, mod_b);
  store(A.scratch, xa);
  store(B.scratch, xb);
  limb ma64[16], mb64[16];
  from_radix52(ma64, ma.m);
  from_radix52(mb64, mb.m);
  from_radix52(out_a, A.scratch);
  from_radix52(out_b, B.scratch);
  subtract_if_not_below(out_a, ma64);
  subtract_if_not_below(out_b, mb64);
  secure_wipe(mem, 2 * sizeof(ExpMemory));
  std::free(mem);
  secure_wipe(ma64, sizeof ma64);
  secure_wipe(mb64, sizeof mb64);
}

#endif  // __x86_64__

}  // namespace

IfmaModulus1024::IfmaModulus1024(const limb m64[16]) {
  to_radix52(m, m64);
  // -m^-1 mod 2^52 by Newton's iteration on 64 bits (each step doubles the correct low bits: 6 steps from 1).
  std::uint64_t inv = 1;
  for (int i = 0; i < 6; ++i) inv *= 2 - m64[0] * inv;
  k0 = (0 - inv) & kMask52;
  // R^2 mod m with R = 2^1040, through OpenSSL (constant-time division: m may be a secret prime).
  BIGNUM* n = BN_new();
  BIGNUM* r = BN_new();
  BN_CTX* ctx = BN_CTX_new();
  std::uint8_t be[128];
  for (int i = 0; i < 128; ++i) be[i] = static_cast<std::uint8_t>(m64[15 - i / 8] >> (8 * (7 - i % 8)));
  bool ok = n && r && ctx && BN_bin2bn(be, sizeof be, n) && BN_set_bit(r, 2 * 52 * kLimbs);
  if (ok) {
    BN_set_flags(n, BN_FLG_CONSTTIME);
    ok = BN_mod(r, r, n, ctx) == 1;
  }
  limb rr64[16] = {};
  if (ok) {
    std::uint8_t out[128];
    ok = BN_bn2binpad(r, out, sizeof out) == static_cast<int>(sizeof out);
    for (int i = 0; ok && i < 128; ++i) rr64[15 - i / 8] |= static_cast<limb>(out[i]) << (8 * (7 - i % 8));
    secure_wipe(out, sizeof out);
  }
  secure_wipe(be, sizeof be);
  BN_clear_free(n);
  BN_clear_free(r);
  BN_CTX_free(ctx);
  if (!ok) throw Error("rsa: cannot set up the IFMA Montgomery constants");
  to_radix52(rr, rr64);
  secure_wipe(rr64, sizeof rr64);
}

IfmaModulus1024::~IfmaModulus1024() {
  secure_wipe(m, sizeof m);
  secure_wipe(rr, sizeof rr);
  k0 = 0;
}

void ifma_mod_exp_1024_x2(limb out_a[16], const limb base_a[16], const limb e_a[16], const IfmaModulus1024& ma,
                          limb out_b[16], const limb base_b[16], const limb e_b[16], const IfmaModulus1024& mb) {
#if defined(__x86_64__)
  mod_exp_x2(out_a, base_a, e_a, ma, out_b, base_b, e_b, mb);
#else
  (void)out_a, (void)base_a, (void)e_a, (void)ma, (void)out_b, (void)base_b, (void)e_b, (void)mb;
  throw Error("rsa: the IFMA kernel needs x86-64");
#endif
}

}  // namespace cryptaccel::cpu
