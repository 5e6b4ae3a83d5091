// GHASH with PCLMULQDQ, and sixteen blocks per reduction on VPCLMULQDQ where the CPU has it. The arithmetic and its
// derivation are in ghash_pclmul_inline.hpp.
#include "cpu/ghash_pclmul.hpp"

#include <cstring>

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "common/cpu_features.hpp"
#include "cpu/ghash_pclmul_inline.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cpu {
namespace {

using namespace ghash;

/// r(H) -> r(H * x^-1 mod g), on the two 64-bit halves of a reflected value.
inline void twist(std::uint64_t v[2]) {
  const std::uint64_t mask = 0 - (v[1] >> 63);
  v[1] = (v[1] << 1) | (v[0] >> 63);
  v[0] <<= 1;
  v[1] ^= kK & mask;
  v[0] ^= 1 & mask;
}

CA_GHASH_PCLMUL inline __m128i karatsuba_operand(__m128i h) { return _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4E)); }

/// y absorbs the whole 256-byte groups of `data` (sixteen blocks, four registers, one reduction each: the chain
/// through y, a multiply and a reduction, is the limit, so the more blocks per reduction the better); returns the
/// bytes absorbed (a multiple of 256).
CA_GHASH_VPCLMUL std::size_t absorb_groups_vpclmul(const GhashPclmulKey& key, __m128i& y, const std::uint8_t* data,
                                                   std::size_t len) {
  if (len < 256) return 0;
  Powers4 p[4];
  load_powers4<4>(key, 16, p);
  std::size_t done = 0;
  for (; len - done >= 256; done += 256) {
    __m512i x[4];
    for (int r = 0; r < 4; ++r) x[r] = reflect4(_mm512_loadu_si512(data + done + 64 * r));
    y = absorb4<4>(p, y, x);
  }
  wipe_powers4<4>(p);
  return done;
}

bool vpclmul_available() {
  static const bool available = [] {
    const CpuFeatures& f = cpu_features();
    return f.vpclmulqdq && f.avx512f && f.avx512bw && f.pclmulqdq && f.ssse3;
  }();
  return available;
}

CA_GHASH_PCLMUL void init(GhashPclmulKey& key, const std::uint8_t h[16], std::size_t count) {
  std::memset(key.powers, 0, sizeof key.powers);
  std::memset(key.karatsuba, 0, sizeof key.karatsuba);
  alignas(16) std::uint64_t v[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(v), reflect(load(h)));
  twist(v);
  const __m128i h1 = _mm_load_si128(reinterpret_cast<const __m128i*>(v));
  const __m128i h1k = karatsuba_operand(h1);
  __m128i power = reflect(load(h));  // r(H^j), untwisted
  for (std::size_t j = 1; j <= count; ++j) {
    if (j > 1) {
      Acc a;
      mul_add(a, power, h1, h1k);
      power = reduce(a);
    }
    _mm_store_si128(reinterpret_cast<__m128i*>(v), power);
    twist(v);
    const __m128i twisted = _mm_load_si128(reinterpret_cast<const __m128i*>(v));
    const std::size_t at = GhashPclmulKey::kMaxPowers - j;
    _mm_store_si128(reinterpret_cast<__m128i*>(key.powers[at]), twisted);
    _mm_store_si128(reinterpret_cast<__m128i*>(key.karatsuba[at]), karatsuba_operand(twisted));
  }
  v[0] = v[1] = 0;
  __asm__ __volatile__("" : : "r"(v) : "memory");
}

CA_GHASH_PCLMUL void update(const GhashPclmulKey& key, std::uint8_t y_bytes[16], const std::uint8_t* data,
                            std::size_t len) {
  __m128i y = reflect(load(y_bytes));
  if (vpclmul_available()) {  // sixteen blocks per step on VPCLMULQDQ; what is left below
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

CA_GHASH_PCLMUL void mul(std::uint8_t x[16], const std::uint8_t y[16]) {
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

GhashPclmulKey::~GhashPclmulKey() { secure_wipe(this, sizeof *this); }

bool ghash_pclmul_available() {
  const CpuFeatures& f = cpu_features();
  return f.pclmulqdq && f.ssse3;
}

void ghash_pclmul_init(GhashPclmulKey& key, const std::uint8_t h[16], std::size_t count) { init(key, h, count); }

void ghash_pclmul(const GhashPclmulKey& key, std::uint8_t y[16], const std::uint8_t* data, std::size_t len) {
  update(key, y, data, len);
}

void gf128_mul_pclmul(std::uint8_t x[16], const std::uint8_t y[16]) { mul(x, y); }

}  // namespace cryptaccel::cpu
