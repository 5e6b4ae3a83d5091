// SM4-CBC encryption, one block after another, with the round chain cut from about 14 to 8 cycles.
//
// A round is X_(i+4) = X_i ^ L(S(X_(i+1) ^ X_(i+2) ^ X_(i+3) ^ rk_i)), and with GFNI the S-box is
//   S(x) = Post * inv(Pre * x ^ 0x3e) ^ 0xd3        (sm4_simd_kernel.hpp: GF2P8AFFINEQB, then GF2P8AFFINEINVQB)
// so the plain round is a chain of XOR, affine (5 cycles), affine-inverse (5), rotations and XORs. Here the words are
// carried in Pre's basis instead, Z_k = Pre * X_k (Pre applied to each byte; it is linear, so it commutes with XOR):
//   y_i     = Z_(i+1) ^ Z_(i+2) ^ Z_(i+3) ^ rk'_i                      rk'_i = Pre * rk_i ^ 0x3e3e3e3e
//   Z_(i+4) = Z_i ^ M * inv(y_i) ^ kc                                   M = Pre . L . Post,  kc = Pre * L(0xd3d3d3d3)
// L commutes with rotating a word by whole bytes, and Pre and Post act on each byte alike, so the 32x32-bit map M is
// M * u = H0 u ^ rotl8(H1 u) ^ rotl16(H2 u) ^ rotl24(H3 u) with 8x8-bit matrices Hk applied to each byte: four
// GF2P8AFFINEINVQB (inversion and Hk in one instruction, all four from y at once), three PSHUFB byte rotations and
// XORs. With the XORs that do not depend on the round's S-box output done off the chain, y_(i+1) follows y_i after
// one affine-inverse, one shuffle and two XORs. The CBC chain stays in Pre's basis as well (the next block's input is
// Pre * P ^ Pre * C); ciphertext leaves through Pre's inverse off the chain.
//
// Registers hold one 32-bit word in lane 0 (the other lanes carry along unused). Every step is a fixed sequence of
// register instructions: no secret-dependent branch or memory index. Compiled for SSSE3 + GFNI by the pragma below;
// callers check CPUID (sm4_cbc_gfni_available).
#include "cpu/sm4_cbc_gfni.hpp"
#include "cpu/sm4_gfni_affine.hpp"

#include <array>
#include <cstring>

#include <immintrin.h>

#include "common/cpu_features.hpp"
#include "cryptaccel/types.hpp"
#include "common/target_region.hpp"

namespace cryptaccel::cpu {
namespace {

// --- the matrices, derived at compile time -----------------------------------------------------------------------

/// The GFNI S-box's matrices and constants (sm4_gfni_affine.hpp), under the names this file's algebra uses.
constexpr std::uint64_t kPre = kGfniPre, kPost = kGfniPost;
constexpr std::uint8_t kPreC = kGfniPreC, kPostC = kGfniPostC;

/// GF2P8AFFINEQB on one byte, without the constant: bit i of the result is the parity of (byte 7 - i of m) & x.
constexpr std::uint8_t affine_byte(std::uint64_t m, std::uint8_t x) {
  std::uint8_t out = 0;
  for (int i = 0; i < 8; ++i) {
    const unsigned row = static_cast<std::uint8_t>(m >> (8 * (7 - i))) & x;
    out |= static_cast<std::uint8_t>((__builtin_popcount(row) & 1) << i);
  }
  return out;
}
constexpr std::uint32_t affine_word(std::uint64_t m, std::uint32_t v) {
  std::uint32_t out = 0;
  for (int b = 0; b < 4; ++b) out |= static_cast<std::uint32_t>(affine_byte(m, static_cast<std::uint8_t>(v >> (8 * b)))) << (8 * b);
  return out;
}
constexpr std::uint32_t rotl(std::uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }
/// SM4's linear transform L (GB/T 32907 §6.2).
constexpr std::uint32_t sm4_l(std::uint32_t v) { return v ^ rotl(v, 2) ^ rotl(v, 10) ^ rotl(v, 18) ^ rotl(v, 24); }
/// M = Pre . L . Post on a word (u: the inverses of the four S-box inputs).
constexpr std::uint32_t m_word(std::uint32_t u) { return affine_word(kPre, sm4_l(affine_word(kPost, u))); }

/// The instruction form (row i in byte 7 - i) of the 8x8 matrix whose column b is cols[b].
constexpr std::uint64_t matrix_from_columns(const std::array<std::uint8_t, 8>& cols) {
  std::uint64_t m = 0;
  for (int i = 0; i < 8; ++i) {
    std::uint64_t row = 0;
    for (int b = 0; b < 8; ++b) row |= static_cast<std::uint64_t>((cols[b] >> i) & 1) << b;
    m |= row << (8 * (7 - i));
  }
  return m;
}

/// H0..H3: Hk's column b is byte k of M applied to bit b of byte 0.
constexpr std::array<std::uint64_t, 4> derive_h() {
  std::array<std::uint64_t, 4> h{};
  for (int k = 0; k < 4; ++k) {
    std::array<std::uint8_t, 8> cols{};
    for (int b = 0; b < 8; ++b) cols[b] = static_cast<std::uint8_t>(m_word(1u << b) >> (8 * k));
    h[k] = matrix_from_columns(cols);
  }
  return h;
}
constexpr std::array<std::uint64_t, 4> kH = derive_h();

/// Whether M * u = H0 u ^ rotl8(H1 u) ^ rotl16(H2 u) ^ rotl24(H3 u) for every basis vector u of the word (so for all).
constexpr bool h_decomposes_m() {
  for (int bit = 0; bit < 32; ++bit) {
    const std::uint32_t u = 1u << bit;
    std::uint32_t sum = 0;
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t hk = affine_word(kH[k], u);
      sum ^= k == 0 ? hk : rotl(hk, 8 * k);
    }
    if (sum != m_word(u)) return false;
  }
  return true;
}
static_assert(h_decomposes_m(), "M must split into byte-wise matrices and byte rotations");

/// Pre's inverse (ciphertext out of Pre's basis): column b is the byte that Pre maps to bit b.
constexpr std::uint64_t derive_pre_inverse() {
  std::array<std::uint8_t, 8> cols{};
  for (int b = 0; b < 8; ++b)
    for (int x = 0; x < 256; ++x)
      if (affine_byte(kPre, static_cast<std::uint8_t>(x)) == (1u << b)) cols[b] = static_cast<std::uint8_t>(x);
  return matrix_from_columns(cols);
}
constexpr std::uint64_t kPreInverse = derive_pre_inverse();
static_assert(affine_byte(kPreInverse, affine_byte(kPre, 0x5a)) == 0x5a && affine_byte(kPreInverse, affine_byte(kPre, 0xc3)) == 0xc3);

/// kc = Pre * L(Post's constant in every byte).
constexpr std::uint32_t kKc = affine_word(kPre, sm4_l(0x01010101u * kPostC));

/// PSHUFB masks: rotl(w, 8k) on each little-endian 32-bit word (byte j from byte j - k), and the byte swap.
struct Masks {
  alignas(16) std::uint8_t rot[4][16];
  alignas(16) std::uint8_t bswap32[16];
};
constexpr Masks make_masks() {
  Masks m{};
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 16; ++i) m.rot[k][i] = static_cast<std::uint8_t>((i & ~3) | ((i - k) & 3));
  for (int i = 0; i < 16; ++i) m.bswap32[i] = static_cast<std::uint8_t>((i & ~3) | (3 - (i & 3)));
  return m;
}
alignas(16) constexpr Masks kMasks = make_masks();

}  // namespace

CA_TARGET_BEGIN("ssse3,gfni")

namespace {

inline __m128i load_mask(const std::uint8_t* m) { return _mm_load_si128(reinterpret_cast<const __m128i*>(m)); }
/// `v`, opaque to the optimizer: keeps an XOR's operands as written (the compiler would otherwise reassociate them).
inline __m128i pinned(__m128i v) {
  __asm__("" : "+x"(v));
  return v;
}

}  // namespace

void sm4_cbc_encrypt_gfni(const std::uint32_t rk[32], std::uint8_t chain[16], const std::uint8_t* in,
                          std::uint8_t* out, std::size_t nblocks) {
  const __m128i pre = _mm_set1_epi64x(static_cast<long long>(kPre));
  const __m128i pre_inv = _mm_set1_epi64x(static_cast<long long>(kPreInverse));
  const __m128i h0 = _mm_set1_epi64x(static_cast<long long>(kH[0])), h1 = _mm_set1_epi64x(static_cast<long long>(kH[1]));
  const __m128i h2 = _mm_set1_epi64x(static_cast<long long>(kH[2])), h3 = _mm_set1_epi64x(static_cast<long long>(kH[3]));
  const __m128i rot8 = load_mask(kMasks.rot[1]), rot16 = load_mask(kMasks.rot[2]), rot24 = load_mask(kMasks.rot[3]);
  const __m128i bswap = load_mask(kMasks.bswap32);
  const __m128i kc = _mm_cvtsi32_si128(static_cast<int>(kKc));

  // rk'_i = Pre * rk_i ^ 0x3e in every byte (rk holds the words as integers: little-endian lanes already).
  alignas(16) std::uint32_t rkz[32];
  for (int g = 0; g < 8; ++g) {
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rk + 4 * g));
    _mm_store_si128(reinterpret_cast<__m128i*>(rkz + 4 * g), _mm_gf2p8affine_epi64_epi8(r, pre, kPreC));
  }
  const auto rk_at = [&](int i) { return _mm_cvtsi32_si128(static_cast<int>(rkz[i])); };

  // The previous ciphertext block in Pre's basis, word j in lane j.
  __m128i c = _mm_gf2p8affine_epi64_epi8(
      _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(chain)), bswap), pre, 0);
  for (std::size_t n = 0; n < nblocks; ++n) {
    const __m128i p = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * n)), bswap);
    const __m128i zin = _mm_xor_si128(_mm_gf2p8affine_epi64_epi8(p, pre, 0), c);  // Pre * (P ^ C)
    __m128i z[4] = {zin, _mm_shuffle_epi32(zin, 1), _mm_shuffle_epi32(zin, 2), _mm_shuffle_epi32(zin, 3)};
    __m128i y = _mm_xor_si128(_mm_xor_si128(z[1], z[2]), _mm_xor_si128(z[3], rk_at(0)));
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      // Four products Hk * inv(y), from y at once; their sum with the byte rotations is M * inv(y). (H1 equals H2:
      // the compiler computes that product once.)
      const __m128i p0 = _mm_gf2p8affineinv_epi64_epi8(y, h0, 0);
      const __m128i p1 = _mm_shuffle_epi8(_mm_gf2p8affineinv_epi64_epi8(y, h1, 0), rot8);
      const __m128i p2 = _mm_shuffle_epi8(_mm_gf2p8affineinv_epi64_epi8(y, h2, 0), rot16);
      const __m128i p3 = _mm_shuffle_epi8(_mm_gf2p8affineinv_epi64_epi8(y, h3, 0), rot24);
      const __m128i zi_kc = _mm_xor_si128(z[i & 3], kc);
      if (i < 31) {
        // y_(i+1) = Z_(i+2) ^ Z_(i+3) ^ rk'_(i+1) ^ Z_(i+4), with Z_(i+4) = Z_i ^ kc ^ M inv(y_i). `ready` does not
        // wait for the products; p0 (no shuffle) comes a cycle before the others. The order of the XORs is the
        // chain's length (two after the shuffles), so it is pinned against reassociation.
        const __m128i ready = _mm_xor_si128(_mm_xor_si128(z[(i + 2) & 3], z[(i + 3) & 3]),
                                            _mm_xor_si128(rk_at(i + 1), zi_kc));
        const __m128i a = pinned(_mm_xor_si128(ready, p0));
        const __m128i b = pinned(_mm_xor_si128(p1, p2));
        y = _mm_xor_si128(pinned(_mm_xor_si128(a, p3)), b);
      }
      z[i & 3] = _mm_xor_si128(_mm_xor_si128(zi_kc, p0), _mm_xor_si128(_mm_xor_si128(p1, p2), p3));  // Z_(i+4)
    }
    // Ciphertext words in Pre's basis: (Z35, Z34, Z33, Z32), held in ring slots 3, 2, 1, 0.
    c = _mm_unpacklo_epi64(_mm_unpacklo_epi32(z[3], z[2]), _mm_unpacklo_epi32(z[1], z[0]));
    const __m128i ct = _mm_shuffle_epi8(_mm_gf2p8affine_epi64_epi8(c, pre_inv, 0), bswap);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * n), ct);
  }
  const __m128i last = _mm_shuffle_epi8(_mm_gf2p8affine_epi64_epi8(c, pre_inv, 0), bswap);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(chain), last);
  secure_wipe(rkz, sizeof rkz);
}

CA_TARGET_END

bool sm4_cbc_gfni_available() {
  const CpuFeatures& f = cpu_features();
  return f.ssse3 && f.gfni;
}

}  // namespace cryptaccel::cpu
