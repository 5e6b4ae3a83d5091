// GHASH with PCLMULQDQ. Derivation of the arithmetic (checked by tests/cpp/test_ghash_pclmul.cpp against the
// portable bit-serial multiply in src/algo/ghash.hpp):
//
// GCM numbers the bits of a block from the most significant bit of byte 0 (coefficient of x^0). Byte-reversing a
// block (PSHUFB) and reading it as a 128-bit integer puts the coefficient of x^k at bit 127 - k: the bit-reflected
// form r(a). A carry-less product of reflected operands is reflected too: clmul(r(a), r(b)) holds c_k, the
// coefficients of c = a*b, at bit 254 - k.
//
// Twisted key: with H~ = H * x^-1 mod g (g = x^128 + x^7 + x^2 + x + 1), clmul(r(a), r(H~)) holds the coefficient
// of x^k of a*H at bit 255 - k: the product already sits in "256-bit reflected" position, with no 1-bit shift of
// the 256-bit result. r(H * x^-1) = r(H) << 1, XOR 0xC2000000_00000000_00000000_00000001 (= r(x^-1) = r(x^127 + x^6
// + x + 1)) when the bit shifted out (the coefficient of x^0) was set; done once per key, masks instead of branches.
//
// Reduction of a 256-bit E = [E3:E2:E1:E0] (64-bit words, c_k at bit 255 - k): the low 128 bits are the
// coefficients of x^128..x^255. Read as a polynomial in y = 2 (bit order), reducing modulo g becomes cancelling the
// low 128 bits with multiples of g*(y) = y^128 + y^127 + y^126 + y^121 + 1 = y^128 + y^64 * K + 1,
// K = 0xC200000000000000. Cancelling E0 adds E0 * g*: E1 ^= lo(K*E0), E2 ^= hi(K*E0) ^ E0. Cancelling the new E1
// likewise: E2 ^= lo(K*E1), E3 ^= hi(K*E1) ^ E1. In registers each step is
//     fold(X) = swap64(X) ^ clmul(X.lo, K),   result = [E3:E2] ^ fold(fold([E1:E0])).
// No Montgomery factor appears: in reflected order the low bits are the high powers, so this is exact reduction.
//
// Aggregation: 8 blocks are absorbed as Y' = (Y ^ C1)*H^8 ^ C2*H^7 ^ ... ^ C8*H; the 8 unreduced Karatsuba
// products are XORed and reduced once.
#include "cpu/ghash_pclmul.hpp"

#include <cstring>

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "cpu/cpu_features.hpp"
#include "cryptaccel/types.hpp"

#pragma GCC push_options
#pragma GCC target("pclmul,ssse3")

namespace cryptaccel::cpu {
namespace {

constexpr std::uint64_t kK = 0xC200000000000000ull;

inline __m128i reflect(__m128i v) {
  return _mm_shuffle_epi8(v, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
}
inline __m128i load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

/// Unreduced Karatsuba sums: low, high and middle products.
struct Acc {
  __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128(), mid = _mm_setzero_si128();
};

/// acc += x * h (h twisted, hk its Karatsuba middle operand).
inline void mul_add(Acc& a, __m128i x, __m128i h, __m128i hk) {
  a.lo = _mm_xor_si128(a.lo, _mm_clmulepi64_si128(x, h, 0x00));
  a.hi = _mm_xor_si128(a.hi, _mm_clmulepi64_si128(x, h, 0x11));
  const __m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4E));
  a.mid = _mm_xor_si128(a.mid, _mm_clmulepi64_si128(xk, hk, 0x00));
}

inline __m128i fold(__m128i x, __m128i k) {
  return _mm_xor_si128(_mm_shuffle_epi32(x, 0x4E), _mm_clmulepi64_si128(x, k, 0x00));
}

/// The reduced product of the sums in `a`, in reflected form.
inline __m128i reduce(const Acc& a) {
  const __m128i mid = _mm_xor_si128(a.mid, _mm_xor_si128(a.lo, a.hi));
  const __m128i e_lo = _mm_xor_si128(a.lo, _mm_slli_si128(mid, 8));
  const __m128i e_hi = _mm_xor_si128(a.hi, _mm_srli_si128(mid, 8));
  const __m128i k = _mm_cvtsi64_si128(static_cast<long long>(kK));
  return _mm_xor_si128(e_hi, fold(fold(e_lo, k), k));
}

/// r(H) -> r(H * x^-1 mod g), on the two 64-bit halves of a reflected value.
inline void twist(std::uint64_t v[2]) {
  const std::uint64_t mask = 0 - (v[1] >> 63);
  v[1] = (v[1] << 1) | (v[0] >> 63);
  v[0] <<= 1;
  v[1] ^= kK & mask;
  v[0] ^= 1 & mask;
}

inline __m128i karatsuba_operand(__m128i h) { return _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4E)); }

/// y (reflected) absorbs n (1..8) blocks at p.
inline __m128i absorb(const GhashPclmulKey& key, __m128i y, const std::uint8_t* p, int n) {
  Acc a;
  for (int i = 0; i < n; ++i) {
    __m128i x = reflect(load(p + 16 * i));
    if (i == 0) x = _mm_xor_si128(x, y);
    const int power = n - 1 - i;  // block i is multiplied by H^(n - i)
    mul_add(a, x, _mm_load_si128(reinterpret_cast<const __m128i*>(key.powers[power])),
            _mm_load_si128(reinterpret_cast<const __m128i*>(key.karatsuba[power])));
  }
  return reduce(a);
}

}  // namespace
}  // namespace cryptaccel::cpu

#pragma GCC pop_options

// The same aggregation on VPCLMULQDQ: eight blocks per step in two ZMM registers (four blocks each, one carry-less
// multiply instruction per Karatsuba product for all four), the four lanes' sums XORed into one and reduced once,
// as absorb() does for eight blocks one at a time.
#define CA_GHASH_VPCLMUL __attribute__((target("avx512f,avx512bw,vpclmulqdq,pclmul,ssse3")))

namespace cryptaccel::cpu {
namespace {

/// The 128-bit lanes of `v` in reverse order (lane 0 <-> lane 3, 1 <-> 2).
CA_GHASH_VPCLMUL inline __m512i reverse_lanes(__m512i v) { return _mm512_shuffle_i64x2(v, v, 0x1B); }

/// XOR of the four 128-bit lanes.
CA_GHASH_VPCLMUL inline __m128i xor_lanes(__m512i v) {
  const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/// y absorbs the whole 256-byte groups of `data` (sixteen blocks, four registers, one reduction each: the chain
/// through y, a multiply and a reduction, is the limit, so the more blocks per reduction the better); returns the
/// bytes absorbed (a multiple of 256).
CA_GHASH_VPCLMUL std::size_t absorb_groups_vpclmul(const GhashPclmulKey& key, __m128i& y, const std::uint8_t* data,
                                                   std::size_t len) {
  if (len < 256) return 0;
  const __m512i reflect4 = _mm512_broadcast_i32x4(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  // Register r (blocks 4r..4r+3 of a group) takes H^(16-4r)..H^(13-4r): powers[15-4r]..powers[12-4r] (powers[i]
  // is H^(i+1)), lanes reversed.
  __m512i h[4], k[4];
  for (int r = 0; r < 4; ++r) {
    h[r] = reverse_lanes(_mm512_load_si512(key.powers[12 - 4 * r]));
    k[r] = reverse_lanes(_mm512_load_si512(key.karatsuba[12 - 4 * r]));
  }
  std::size_t done = 0;
  for (; len - done >= 256; done += 256) {
    __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512(), mid = _mm512_setzero_si512();
    for (int r = 0; r < 4; ++r) {
      __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512(data + done + 64 * r), reflect4);
      if (r == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
      lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, h[r], 0x00));
      hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, h[r], 0x11));
      const __m512i xk = _mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC));
      mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128(xk, k[r], 0x00));
    }
    Acc a;
    a.lo = xor_lanes(lo), a.hi = xor_lanes(hi), a.mid = xor_lanes(mid);
    y = reduce(a);
  }
  return done;
}

bool vpclmul_available() {
  static const bool available = [] {
    const CpuFeatures& f = cpu_features();
    return f.vpclmulqdq && f.avx512f && f.avx512bw && f.pclmulqdq && f.ssse3;
  }();
  return available;
}

}  // namespace
}  // namespace cryptaccel::cpu

#pragma GCC push_options
#pragma GCC target("pclmul,ssse3")

namespace cryptaccel::cpu {
namespace {

void init(GhashPclmulKey& key, const std::uint8_t h[16]) {
  alignas(16) std::uint64_t v[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(v), reflect(load(h)));
  twist(v);
  const __m128i h1 = _mm_load_si128(reinterpret_cast<const __m128i*>(v));
  const __m128i h1k = karatsuba_operand(h1);
  __m128i power = reflect(load(h));  // r(H^i), untwisted
  for (int i = 0; i < 16; ++i) {
    if (i > 0) {
      Acc a;
      mul_add(a, power, h1, h1k);
      power = reduce(a);
    }
    _mm_store_si128(reinterpret_cast<__m128i*>(v), power);
    twist(v);
    const __m128i twisted = _mm_load_si128(reinterpret_cast<const __m128i*>(v));
    _mm_store_si128(reinterpret_cast<__m128i*>(key.powers[i]), twisted);
    _mm_store_si128(reinterpret_cast<__m128i*>(key.karatsuba[i]), karatsuba_operand(twisted));
  }
  v[0] = v[1] = 0;
  __asm__ __volatile__("" : : "r"(v) : "memory");
}

void update(const GhashPclmulKey& key, std::uint8_t y_bytes[16], const std::uint8_t* data, std::size_t len) {
  __m128i y = reflect(load(y_bytes));
  if (vpclmul_available()) {  // eight blocks per step on VPCLMULQDQ; what is left below
    const std::size_t done = absorb_groups_vpclmul(key, y, data, len);
    data += done, len -= done;
  }
  for (; len >= 128; len -= 128, data += 128) y = absorb(key, y, data, 8);
  if (const std::size_t whole = len / 16) {
    y = absorb(key, y, data, static_cast<int>(whole));
    data += 16 * whole, len -= 16 * whole;
  }
  if (len) {
    alignas(16) std::uint8_t last[16] = {};
    std::memcpy(last, data, len);
    y = absorb(key, y, last, 1);
    std::memset(last, 0, sizeof last);
    __asm__ __volatile__("" : : "r"(last) : "memory");
  }
  store(y_bytes, reflect(y));
}

void mul(std::uint8_t x[16], const std::uint8_t y[16]) {
  alignas(16) std::uint64_t v[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(v), reflect(load(y)));
  twist(v);
  const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i*>(v));
  Acc a;
  mul_add(a, reflect(load(x)), h, karatsuba_operand(h));
  store(x, reflect(reduce(a)));
  v[0] = v[1] = 0;
  __asm__ __volatile__("" : : "r"(v) : "memory");
}

}  // namespace
}  // namespace cryptaccel::cpu

#pragma GCC pop_options

namespace cryptaccel::cpu {

GhashPclmulKey::~GhashPclmulKey() { secure_wipe(this, sizeof *this); }

bool ghash_pclmul_available() {
  const CpuFeatures& f = cpu_features();
  return f.pclmulqdq && f.ssse3;
}

void ghash_pclmul_init(GhashPclmulKey& key, const std::uint8_t h[16]) { init(key, h); }

void ghash_pclmul(const GhashPclmulKey& key, std::uint8_t y[16], const std::uint8_t* data, std::size_t len) {
  update(key, y, data, len);
}

void gf128_mul_pclmul(std::uint8_t x[16], const std::uint8_t y[16]) { mul(x, y); }

}  // namespace cryptaccel::cpu
