// See rsa_ifma_mb.hpp. Memory layout of one call: every number is L words of 8 lanes (the limb i of lane l at
// uint64 index 8 i + l), 64-byte aligned, so that word i is one aligned ZMM load.
#include "cpu/rsa_ifma_mb.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "algo/montgomery.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/types.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#define CA_IFMA_MB __attribute__((target("avx512f,avx512ifma")))
#endif

namespace cryptaccel::cpu {
namespace {

using algo::bn::limb;
constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;
constexpr int kLanes = static_cast<int>(kIfmaMbLanes);
constexpr int kWindow = 5;
constexpr int kTable = 1 << kWindow;

/// The sizes of one modulus width: L64 64-bit limbs, L 52-bit limbs (words of a transposed number).
template <std::size_t Bits>
struct MbShape {
  static constexpr int L64 = static_cast<int>(IfmaModulus<Bits>::kLimbs64);
  static constexpr int L = static_cast<int>(IfmaModulus<Bits>::kLimbs);
};

/// Lane `lane` of the transposed number `out` (L words) from L64 64-bit limbs.
template <class S>
void put_lane(std::uint64_t* out, int lane, const limb* in) {
  for (int j = 0; j < S::L; ++j) {
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    std::uint64_t v = 0;
    if (idx < S::L64) {
      v = in[idx] >> sh;
      if (sh > 12 && idx + 1 < S::L64) v |= in[idx + 1] << (64 - sh);
    }
    out[8 * j + lane] = v & kMask52;
  }
}

/// L64 64-bit limbs from lane `lane` of the transposed number `in` (normalized limbs, a value below 2^Bits).
template <class S>
void get_lane(limb* out, const std::uint64_t* in, int lane) {
  for (int i = 0; i < S::L64; ++i) out[i] = 0;
  for (int j = 0; j < S::L; ++j) {
    const std::uint64_t v = in[8 * j + lane];
    const int bit = 52 * j, idx = bit / 64, sh = bit % 64;
    if (idx < S::L64) out[idx] |= v << sh;
    if (sh > 12 && idx + 1 < S::L64) out[idx + 1] |= v >> (64 - sh);
  }
}

/// Everything one call keeps in memory (secret: wiped before it is freed). Numbers are L words of 8 lanes.
template <int L>
struct alignas(64) MbMemory {
  std::uint64_t m[8 * L];                // the moduli
  std::uint64_t rr[8 * L];               // R^2 mod m
  std::uint64_t k0[8];                   // -m^-1 mod 2^52
  std::uint64_t one[8 * L];              // 1 in every lane (not in Montgomery form)
  std::uint64_t table[kTable][8 * L];    // x^t R mod m ("almost"), t < 32
  std::uint64_t acc[8 * L];              // the accumulator
  std::uint64_t operand[8 * L];          // the looked-up table entry
  std::uint64_t window[8];               // the current window of each lane's exponent
  std::uint64_t square[2 * 8 * L];       // ams's full square
};

#if defined(__x86_64__)

/// The division by 2^52 of one AMM step: x[0] (a multiple of 2^52 once m y is added) leaves, its carry goes into
/// the next word, every word moves down one and `top` enters as word L - 1.
template <int L>
CA_IFMA_MB inline void reduce_step(__m512i* x, __m512i top) {
  const __m512i carry = _mm512_srli_epi64(x[0], 52);
#pragma GCC unroll 64
  for (int j = 0; j + 1 < L; ++j) x[j] = x[j + 1];
  x[L - 1] = top;
  x[0] = _mm512_add_epi64(x[0], carry);
}

/// r = x with its words brought back to 52 bits (the carries rippled up; the value is below 2^(52 L)).
template <int L>
CA_IFMA_MB inline void store_normalized(std::uint64_t* r, const __m512i* x) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i c = _mm512_setzero_si512();
#pragma GCC unroll 64
  for (int j = 0; j < L; ++j) {
    const __m512i v = _mm512_add_epi64(x[j], c);
    c = _mm512_srli_epi64(v, 52);
    _mm512_store_si512(r + 8 * j, _mm512_and_si512(v, mask));
  }
}

/// The order of an AMM step's products. Interleaved: each limb word of a (and of m) is loaded once and gives its
/// low half to word j and its high half to word j + 1 before the shift (L + 1 accumulator words). Split: all low
/// halves, the shift, then all high halves (L words, each operand word loaded twice). Measured (min of 300 calls):
/// split is faster at L = 20 (467 vs 495 us per call), even at 30, interleaved at 40 (3.77 vs 4.18 ms), where the
/// accumulators no longer fit in the 32 registers either way and the loads dominate.
template <int L>
constexpr bool kInterleaved = L > 30;

/// x += m y: the low half of m_j y into word j, the high half into word j + 1 (x has L + 1 words).
template <int L>
CA_IFMA_MB inline void mul_add_my(__m512i* x, const std::uint64_t* m, __m512i y) {
#pragma GCC unroll 64
  for (int j = 0; j < L; ++j) {
    const __m512i mj = _mm512_load_si512(m + 8 * j);
    x[j] = _mm512_madd52lo_epu64(x[j], mj, y);
    x[j + 1] = _mm512_madd52hi_epu64(x[j + 1], mj, y);
  }
}

/// r = a b R^-1 mod m in each lane, "almost" (AMM): for a, b below 2m (normalized 52-bit limbs) r is below 2m,
/// normalized. Operand scanning: for each limb word b_i, x += a b_i (low halves), y = x_0 k0 mod 2^52 per lane, x +=
/// m y (low halves), x /= 2^52 (one word down, word 0's carry into the new word 0); the high halves of both
/// products belong one word up before the shift (kInterleaved<L> says when they are added). The accumulator
/// words grow by at most 4 (2^52 - 1) + 2^12 per step, below 2^60 after L <= 40 steps; one carry pass at the end
/// brings them back to 52 bits. r may alias a or b (the result is stored only at the end).
template <int L>
CA_IFMA_MB inline void amm(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* m,
                           __m512i k0) {
  const __m512i zero = _mm512_setzero_si512();
  if constexpr (kInterleaved<L>) {
    __m512i x[L + 1];
#pragma GCC unroll 64
    for (int j = 0; j <= L; ++j) x[j] = zero;
    for (int i = 0; i < L; ++i) {
      const __m512i bi = _mm512_load_si512(b + 8 * i);
      const __m512i a0 = _mm512_load_si512(a);
      x[0] = _mm512_madd52lo_epu64(x[0], a0, bi);
      const __m512i y = _mm512_madd52lo_epu64(zero, x[0], k0);
      x[1] = _mm512_madd52hi_epu64(x[1], a0, bi);
#pragma GCC unroll 64
      for (int j = 1; j < L; ++j) {
        const __m512i aj = _mm512_load_si512(a + 8 * j);
        x[j] = _mm512_madd52lo_epu64(x[j], aj, bi);
        x[j + 1] = _mm512_madd52hi_epu64(x[j + 1], aj, bi);
      }
      mul_add_my<L>(x, m, y);
      reduce_step<L + 1>(x, zero);
    }
    store_normalized<L>(r, x);
  } else {
    __m512i x[L];
#pragma GCC unroll 64
    for (int j = 0; j < L; ++j) x[j] = zero;
    for (int i = 0; i < L; ++i) {
      const __m512i bi = _mm512_load_si512(b + 8 * i);
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52lo_epu64(x[j], _mm512_load_si512(a + 8 * j), bi);
      const __m512i y = _mm512_madd52lo_epu64(zero, x[0], k0);
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52lo_epu64(x[j], _mm512_load_si512(m + 8 * j), y);
      reduce_step<L>(x, zero);
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52hi_epu64(x[j], _mm512_load_si512(a + 8 * j), bi);
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52hi_epu64(x[j], _mm512_load_si512(m + 8 * j), y);
    }
    store_normalized<L>(r, x);
  }
}

/// r = a^2 R^-1 mod m in each lane, "almost" as amm<L>(r, a, a, m, k0), with about 3 L^2 products instead of 4 L^2:
/// first the full square into t (2 L words in memory), column by column, each product a_i a_j with i < j once and
/// the columns doubled before the diagonal a_k^2 goes in; then Montgomery's reduction of t with the same sliding
/// register window as amm (the product part of each step replaced by the word of t that enters the window). Words
/// stay below 2^61 (columns below 4 L 2^52 + 2^52, then at most 2 L products more). r may alias a.
template <int L>
CA_IFMA_MB inline void ams(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* m, __m512i k0,
                           std::uint64_t* t) {
  const __m512i zero = _mm512_setzero_si512();
#define A(j) _mm512_load_si512(a + 8 * (j))
#define T(p) _mm512_load_si512(t + 8 * (p))
#define set(p, v) _mm512_store_si512(t + 8 * (p), (v))
  // Column by column (product scanning), fully unrolled: column p sums the low halves of a_i a_(p-i) and the high
  // halves of a_i a_(p-1-i) over i < p - i (resp. i < p - 1 - i), in two accumulators, then doubles them and adds
  // the diagonal's half that lands there.
#pragma GCC unroll 128
  for (int p = 0; p < 2 * L; ++p) {
    __m512i lo = zero, hi = zero;
#pragma GCC unroll 64
    for (int i = (p - L + 1 > 0 ? p - L + 1 : 0); i < p - i; ++i) lo = _mm512_madd52lo_epu64(lo, A(i), A(p - i));
#pragma GCC unroll 64
    for (int i = (p - L > 0 ? p - L : 0); i < p - 1 - i; ++i) hi = _mm512_madd52hi_epu64(hi, A(i), A(p - 1 - i));
    __m512i v = _mm512_add_epi64(lo, hi);
    v = _mm512_add_epi64(v, v);
    if (p % 2 == 0) v = _mm512_madd52lo_epu64(v, A(p / 2), A(p / 2));
    else v = _mm512_madd52hi_epu64(v, A(p / 2), A(p / 2));
    set(p, v);
  }
  if constexpr (kInterleaved<L>) {
    __m512i x[L + 1];
#pragma GCC unroll 64
    for (int j = 0; j <= L; ++j) x[j] = T(j);
    for (int i = 0; i < L; ++i) {
      const __m512i y = _mm512_madd52lo_epu64(zero, x[0], k0);
      mul_add_my<L>(x, m, y);
      reduce_step<L + 1>(x, i + 1 < L ? T(L + i + 1) : zero);
    }
    store_normalized<L>(r, x);
  } else {
    __m512i x[L];
#pragma GCC unroll 64
    for (int j = 0; j < L; ++j) x[j] = T(j);
    for (int i = 0; i < L; ++i) {
      const __m512i y = _mm512_madd52lo_epu64(zero, x[0], k0);
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52lo_epu64(x[j], _mm512_load_si512(m + 8 * j), y);
      reduce_step<L>(x, T(L + i));
#pragma GCC unroll 64
      for (int j = 0; j < L; ++j) x[j] = _mm512_madd52hi_epu64(x[j], _mm512_load_si512(m + 8 * j), y);
    }
    store_normalized<L>(r, x);
  }
#undef A
#undef T
#undef set
}

/// r = table[window[l]] in each lane l, reading every entry: a compare per entry gives the lanes that take it, a
/// masked blend takes them (no address and no branch depends on the windows).
template <int L>
CA_IFMA_MB inline void lookup(std::uint64_t* r, const std::uint64_t (*table)[8 * L], const std::uint64_t* window) {
  const __m512i want = _mm512_load_si512(window);
  __mmask8 hit[kTable];
  for (int t = 0; t < kTable; ++t) hit[t] = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(t));
  for (int j = 0; j < L; ++j) {
    __m512i v = _mm512_setzero_si512();
#pragma GCC unroll 32
    for (int t = 0; t < kTable; ++t) v = _mm512_mask_blend_epi64(hit[t], v, _mm512_load_si512(table[t] + 8 * j));
    _mm512_store_si512(r + 8 * j, v);
  }
}

/// x = x - m in the lanes where x >= m (x below 2m, normalized; constant time: the difference is computed in every
/// lane and selected by the final borrow).
template <int L>
CA_IFMA_MB inline void reduce_once(std::uint64_t* x, const std::uint64_t* m) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i borrow = _mm512_setzero_si512();
  alignas(64) std::uint64_t d[8 * L];
  for (int j = 0; j < L; ++j) {
    const __m512i v = _mm512_sub_epi64(
        _mm512_sub_epi64(_mm512_load_si512(x + 8 * j), _mm512_load_si512(m + 8 * j)), borrow);
    borrow = _mm512_srli_epi64(v, 63);
    _mm512_store_si512(d + 8 * j, _mm512_and_si512(v, mask));
  }
  const __mmask8 below = _mm512_test_epi64_mask(borrow, borrow);  // lanes where x < m: keep x
  for (int j = 0; j < L; ++j)
    _mm512_store_si512(x + 8 * j,
                       _mm512_mask_blend_epi64(below, _mm512_load_si512(d + 8 * j), _mm512_load_si512(x + 8 * j)));
  secure_wipe(d, sizeof d);
}

template <std::size_t Bits>
CA_IFMA_MB void mod_exp_mb8(limb* const out[kLanes], const limb* const base_in[kLanes],
                            const limb* const exp_in[kLanes], const IfmaModulus<Bits>* const mod_in[kLanes]) {
  using S = MbShape<Bits>;
  constexpr int L = S::L;
  using Memory = MbMemory<L>;
  if (!mod_in[0]) throw Error("rsa: the IFMA multi-buffer kernel needs lane 0");
  const limb* base[kLanes];
  const limb* exp[kLanes];
  const IfmaModulus<Bits>* mod[kLanes];
  for (int l = 0; l < kLanes; ++l) {  // unused lanes repeat lane 0 (public: which lanes are used)
    const bool used = mod_in[l] != nullptr;
    base[l] = used ? base_in[l] : base_in[0];
    exp[l] = used ? exp_in[l] : exp_in[0];
    mod[l] = used ? mod_in[l] : mod_in[0];
  }
  auto* mem = static_cast<Memory*>(std::aligned_alloc(64, sizeof(Memory)));
  if (!mem) throw std::bad_alloc();
  Memory& M = *mem;

  // The constants and the bases (into `operand`, as plain numbers), transposed.
  for (int l = 0; l < kLanes; ++l) {
    for (int j = 0; j < L; ++j) {
      M.m[8 * j + l] = mod[l]->m[j];
      M.rr[8 * j + l] = mod[l]->rr[j];
    }
    M.k0[l] = mod[l]->k0;
    put_lane<S>(M.operand, l, base[l]);
  }
  std::memset(M.one, 0, sizeof M.one);
  for (int l = 0; l < kLanes; ++l) M.one[l] = 1;
  const __m512i k0 = _mm512_load_si512(M.k0);

  // The table: R (= AMM(1, R^2)), base R (= AMM(base, R^2)), base^2 R, ... base^31 R, all mod m "almost".
  amm<L>(M.table[0], M.one, M.rr, M.m, k0);
  amm<L>(M.table[1], M.operand, M.rr, M.m, k0);
  for (int t = 2; t < kTable; ++t) amm<L>(M.table[t], M.table[t - 1], M.table[1], M.m, k0);

  // Fixed windows from the top of the Bits-bit exponents, each lane its own.
  constexpr int kBits = static_cast<int>(Bits);
  constexpr int kFirst = kBits % kWindow == 0 ? kWindow : kBits % kWindow;
  int pos = kBits - kFirst;
  for (int l = 0; l < kLanes; ++l) M.window[l] = algo::bn::exponent_window(exp[l], S::L64, pos, kFirst);
  lookup<L>(M.acc, M.table, M.window);
  while (pos > 0) {
    pos -= kWindow;
    for (int s = 0; s < kWindow; ++s) ams<L>(M.acc, M.acc, M.m, k0, M.square);
    for (int l = 0; l < kLanes; ++l) M.window[l] = algo::bn::exponent_window(exp[l], S::L64, pos, kWindow);
    lookup<L>(M.operand, M.table, M.window);
    amm<L>(M.acc, M.acc, M.operand, M.m, k0);
  }

  // Out of Montgomery form (AMM(x, 1) <= m), the one final subtraction, back to 64-bit limbs.
  amm<L>(M.acc, M.acc, M.one, M.m, k0);
  reduce_once<L>(M.acc, M.m);
  for (int l = 0; l < kLanes; ++l)
    if (mod_in[l]) get_lane<S>(out[l], M.acc, l);
  secure_wipe(mem, sizeof(Memory));
  std::free(mem);
}

#endif  // __x86_64__

}  // namespace

template <std::size_t Bits>
void ifma_mod_exp_mb8(limb* const out[kIfmaMbLanes], const limb* const base[kIfmaMbLanes],
                      const limb* const exp[kIfmaMbLanes], const IfmaModulus<Bits>* const mod[kIfmaMbLanes]) {
#if defined(__x86_64__)
  mod_exp_mb8<Bits>(out, base, exp, mod);
#else
  (void)out, (void)base, (void)exp, (void)mod;
  throw Error("rsa: the IFMA kernel needs x86-64");
#endif
}

#define CRYPTACCEL_IFMA_MB_INSTANTIATE(BITS)                                                                  \
  template void ifma_mod_exp_mb8<BITS>(limb* const[kIfmaMbLanes], const limb* const[kIfmaMbLanes],            \
                                       const limb* const[kIfmaMbLanes], const IfmaModulus<BITS>* const[kIfmaMbLanes]);
CRYPTACCEL_IFMA_MB_INSTANTIATE(1024)
CRYPTACCEL_IFMA_MB_INSTANTIATE(1536)
CRYPTACCEL_IFMA_MB_INSTANTIATE(2048)
#undef CRYPTACCEL_IFMA_MB_INSTANTIATE

}  // namespace cryptaccel::cpu
