// SM4 on SIMD registers with the AES-NI S-box, written once over a vector type V (128-bit SSE in sm4_aesni_sse.cpp,
// 2 x 128-bit lanes of AVX2 in sm4_aesni_avx2.cpp). Each including file compiles it for its own ISA with
// `#pragma GCC target` before including it: everything here is in an anonymous namespace (internal linkage per
// file), so no function compiled for one ISA can be picked by the linker for another.
//
// Layout: a group of V::kBlocks blocks is held transposed as four registers X0..X3, register j holding word j of every
// block (big-endian words, byte-swapped to native integers). A round is then the same instruction sequence for all
// blocks: X_(i+4) = X_i ^ L(tau(X_(i+1) ^ X_(i+2) ^ X_(i+3) ^ rk_i)).
//
// tau (the S-box on every byte) without tables: the SM4 S-box is affine-equivalent to the AES S-box,
//   S_sm4(x) = M2 * S_aes(M1 * x ^ c1) ^ c2
// (scripts/derive_sm4_aesni_affine.py derives M1, c1, M2, c2 and checks all 256 inputs). The affine maps are two
// PSHUFB nibble lookups each (tables in registers); S_aes is AESENCLAST with an all-zero round key, which also
// applies ShiftRows. ShiftRows only permutes bytes, and the post-affine map is bytewise, so it is undone afterwards
// by one PSHUFB merged with each of the byte rotations that L needs (INV_SR, INV_SR o rol8/16/24).
// With GFNI (V::kGfni: sm4_gfni_sse.cpp, sm4_gfni_avx512.cpp) tau is two instructions instead,
//   S_sm4(x) = M3 * inv(M1 * x ^ c1) ^ C   (GF2P8AFFINEQB, then GF2P8AFFINEINVQB, which inverts in AES's field)
// with nothing to undo, and L's rotations are V::rol32 (VPROLD on AVX-512).
// Every step is a fixed instruction sequence over registers: no secret-dependent branch or memory index.
//
// Requires, before inclusion: <cstddef>, <cstdint>, <cstring>, <immintrin.h> and the target pragma.

#include "cpu/sm4_gfni_affine.hpp"

namespace cryptaccel::cpu {
namespace {

/// Nibble tables of the affine maps (scripts/derive_sm4_aesni_affine.py): f(x) = LO[x & 15] ^ HI[x >> 4].
alignas(16) constexpr std::uint8_t kPreLo[16] = {0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07,
                                                 0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98};
alignas(16) constexpr std::uint8_t kPreHi[16] = {0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37,
                                                 0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f};
alignas(16) constexpr std::uint8_t kPostLo[16] = {0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20,
                                                  0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47};
alignas(16) constexpr std::uint8_t kPostHi[16] = {0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d,
                                                  0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed};

// The GFNI form of the S-box: kGfniPre, kGfniPost and their constants (sm4_gfni_affine.hpp).

/// PSHUFB masks, each built from AES's ShiftRows permutation: AESENCLAST's output byte j is S(input byte kSr[j]).
struct ShuffleMasks {
  alignas(16) std::uint8_t inv_sr[4][16];  ///< [k]: undo ShiftRows, then rotate each 32-bit word left by 8k bits
  alignas(16) std::uint8_t bswap32[16];    ///< byte-swap each 32-bit word
};
constexpr ShuffleMasks make_masks() {
  constexpr std::uint8_t kSr[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};
  std::uint8_t inv[16] = {};
  for (int j = 0; j < 16; ++j) inv[kSr[j]] = static_cast<std::uint8_t>(j);
  ShuffleMasks m{};
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 16; ++i)  // rotl(w, 8k): byte b of a little-endian word comes from byte b - k
      m.inv_sr[k][i] = inv[(i & ~3) | ((i - k) & 3)];
  for (int i = 0; i < 16; ++i) m.bswap32[i] = static_cast<std::uint8_t>((i & ~3) | (3 - (i & 3)));
  return m;
}
alignas(16) constexpr ShuffleMasks kMasks = make_masks();

/// The constants one round needs, loaded into registers once per call.
template <class V>
struct Sm4Consts {
  using R = typename V::R;
  R pre_lo, pre_hi, post_lo, post_hi, low_nibbles, rot0, rot8, rot16, rot24;  // AES-NI S-box
  R gf_pre, gf_post;                                                          // GFNI S-box

  // A user-provided constructor, so that it is compiled under this file's target pragma (an implicit one is not).
  inline Sm4Consts() {
    if constexpr (V::kGfni) {
      gf_pre = V::set1_64(kGfniPre), gf_post = V::set1_64(kGfniPost);
    } else {
      pre_lo = V::table(kPreLo), pre_hi = V::table(kPreHi), post_lo = V::table(kPostLo), post_hi = V::table(kPostHi);
      low_nibbles = V::set1_8(0x0F), rot0 = V::table(kMasks.inv_sr[0]), rot8 = V::table(kMasks.inv_sr[1]);
      rot16 = V::table(kMasks.inv_sr[2]), rot24 = V::table(kMasks.inv_sr[3]);
    }
  }

  /// An affine map given by its nibble tables.
  inline R affine(R x, R lo, R hi) const {
    return V::xor_(V::shuffle(lo, V::and_(x, low_nibbles)), V::shuffle(hi, V::and_(V::srl16(x, 4), low_nibbles)));
  }
  /// tau, with ShiftRows still applied on the AES-NI path (undone by the rot* masks); plain tau with GFNI.
  inline R tau_shifted(R x) const {
    if constexpr (V::kGfni)
      return V::template gf_affine_inv<kGfniPostC>(V::template gf_affine<kGfniPreC>(x, gf_pre), gf_post);
    else
      return affine(V::aesenclast_zero(affine(x, pre_lo, pre_hi)), post_lo, post_hi);
  }
  /// tau on every byte.
  inline R tau(R x) const {
    if constexpr (V::kGfni) return tau_shifted(x);
    else return V::shuffle(tau_shifted(x), rot0);
  }
  /// acc ^ L(tau(x)), L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24. AES-NI path: = B ^ B<<<24 ^ (B ^ B<<<8 ^
  /// B<<<16)<<<2, the byte rotations merged into the ShiftRows shuffles and the rotate by 2, the longest path, XORed
  /// last. GFNI path: four rotations and two three-way XORs.
  inline R t_xor(R x, R acc) const {
    if constexpr (V::kGfni) {
      const R b = tau_shifted(x);
      return V::xor_(V::xor3(acc, b, V::template rol32<24>(b)),
                     V::xor3(V::template rol32<2>(b), V::template rol32<10>(b), V::template rol32<18>(b)));
    } else {
      const R s = tau_shifted(x);
      const R b = V::shuffle(s, rot0);
      const R t = V::xor_(V::xor_(b, V::shuffle(s, rot8)), V::shuffle(s, rot16));
      return V::xor_(V::xor_(V::xor_(acc, b), V::shuffle(s, rot24)), V::xor_(V::sll32(t, 2), V::srl32(t, 30)));
    }
  }
};

/// SM4 over `Sets` independent groups of V::kBlocks blocks (two groups hide the latency of one round's chain).
template <class V, int Sets>
struct Sm4Kernel {
  using R = typename V::R;
  static constexpr int kBlocks = Sets * V::kBlocks;
  static constexpr std::size_t kBytes = 16 * static_cast<std::size_t>(kBlocks);

  /// Four rows (V::kBlocks blocks as V lays them out) into words X0..X3, or back: a 4x4 transpose of 32-bit words
  /// in every 128-bit lane (its own inverse).
  static inline void transpose(R r[4]) {
    const R t0 = V::unpacklo32(r[0], r[1]), t1 = V::unpackhi32(r[0], r[1]);
    const R t2 = V::unpacklo32(r[2], r[3]), t3 = V::unpackhi32(r[2], r[3]);
    r[0] = V::unpacklo64(t0, t2), r[1] = V::unpackhi64(t0, t2);
    r[2] = V::unpacklo64(t1, t3), r[3] = V::unpackhi64(t1, t3);
  }
  static inline void load(const std::uint8_t* in, R x[Sets][4]) {
    const R bswap = V::table(kMasks.bswap32);
    for (int s = 0; s < Sets; ++s) {
      for (int j = 0; j < 4; ++j) x[s][j] = V::shuffle(V::load_row(in, s, j), bswap);
      transpose(x[s]);
    }
  }
  /// Stores R = (X35, X34, X33, X32), optionally XORed with `xor_in` (CTR): out = xor_in ^ keystream.
  static inline void store(std::uint8_t* out, const std::uint8_t* xor_in, R x[Sets][4]) {
    const R bswap = V::table(kMasks.bswap32);
    for (int s = 0; s < Sets; ++s) {
      R r[4] = {x[s][3], x[s][2], x[s][1], x[s][0]};
      transpose(r);
      for (int j = 0; j < 4; ++j) {
        R row = V::shuffle(r[j], bswap);
        if (xor_in) row = V::xor_(row, V::load_row(xor_in, s, j));
        V::store_row(out, s, j, row);
      }
    }
  }
  static inline void rounds(const Sm4Consts<V>& c, const std::uint32_t rk[32], R x[Sets][4]) {
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const R k = V::set1_32(rk[i]);
      for (int s = 0; s < Sets; ++s)
        // X_(i+3), written by the previous round, comes last: one XOR on the round-to-round dependency chain.
        x[s][i & 3] = c.t_xor(V::xor_(V::xor_(V::xor_(x[s][(i + 1) & 3], x[s][(i + 2) & 3]), k), x[s][(i + 3) & 3]),
                              x[s][i & 3]);
    }
  }

  /// Encrypts (or, with the round keys reversed, decrypts) kBlocks blocks.
  static inline void crypt(const Sm4Consts<V>& c, const std::uint32_t rk[32], const std::uint8_t* in,
                           std::uint8_t* out) {
    R x[Sets][4];
    load(in, x);
    rounds(c, rk, x);
    store(out, nullptr, x);
  }

  /// Counter blocks w, w+1, ... (w: the counter block as four big-endian words) straight into transposed form; only
  /// valid when the low word does not wrap inside the group (all of GCM's inc32 groups, most of CTR's).
  static inline void counters_no_carry(const std::uint32_t w[4], R x[Sets][4]) {
    for (int s = 0; s < Sets; ++s) {
      x[s][0] = V::set1_32(w[0]), x[s][1] = V::set1_32(w[1]), x[s][2] = V::set1_32(w[2]);
      x[s][3] = V::add32(V::set1_32(w[3] + static_cast<std::uint32_t>(s * V::kBlocks)), V::iota());
    }
  }
};

/// Adds n to the counter words: the low word only (GCM's inc32), or all 128 bits (CTR).
inline void counter_add(std::uint32_t w[4], std::uint32_t n, bool inc32) {
  const std::uint32_t before = w[3];
  w[3] += n;
  if (inc32) return;
  std::uint32_t carry = w[3] < before;  // counters are public: branches on them leak nothing secret
  for (int i = 2; i >= 0 && carry; --i) carry = ++w[i] == 0;
}

inline std::uint32_t be32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline void put_be32(std::uint8_t* p, std::uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

/// Zeroes a stack buffer in a way the compiler cannot drop (keystream and key words left on the stack).
inline void wipe(void* p, std::size_t n) {
  std::memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

/// ECB over any number of blocks: groups of K (two register groups), then at most one group of K1 (one register
/// group, half the work for a short tail), the last one zero-padded.
template <class K, class K1, class V>
void sm4_crypt_any(const std::uint32_t rk[32], const std::uint8_t* in, std::uint8_t* out, std::size_t nblocks) {
  const Sm4Consts<V> c;
  for (; nblocks >= static_cast<std::size_t>(K::kBlocks); nblocks -= K::kBlocks, in += K::kBytes, out += K::kBytes)
    K::crypt(c, rk, in, out);
  if (nblocks > static_cast<std::size_t>(K1::kBlocks)) {  // between one and two register groups: one more K
    alignas(32) std::uint8_t buf[K::kBytes] = {};
    std::memcpy(buf, in, 16 * nblocks);
    K::crypt(c, rk, buf, buf);
    std::memcpy(out, buf, 16 * nblocks);
    wipe(buf, sizeof buf);
    return;
  }
  if (nblocks == static_cast<std::size_t>(K1::kBlocks)) return K1::crypt(c, rk, in, out);
  if (nblocks == 0) return;
  alignas(32) std::uint8_t buf[K1::kBytes] = {};
  std::memcpy(buf, in, 16 * nblocks);
  K1::crypt(c, rk, buf, buf);
  std::memcpy(out, buf, 16 * nblocks);
  wipe(buf, sizeof buf);
}

/// One group of kernel K in counter mode: the keystream for the counter words `w` XORed into `len` (<= K::kBytes)
/// bytes; `w` is advanced past the blocks used.
template <class K, class V>
inline void sm4_ctr_group(const Sm4Consts<V>& c, const std::uint32_t rk[32], std::uint32_t w[4], bool inc32,
                          const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
  typename V::R x[K::kBlocks / V::kBlocks][4];
  alignas(32) std::uint8_t buf[K::kBytes];
  constexpr auto last = static_cast<std::uint32_t>(K::kBlocks - 1);
  if (inc32 || w[3] <= 0xFFFFFFFFu - last) {
    K::counters_no_carry(w, x);
  } else {  // the low word wraps inside this group and carries into the higher words
    std::uint32_t v[4] = {w[0], w[1], w[2], w[3]};
    for (int b = 0; b < K::kBlocks; ++b, counter_add(v, 1, false))
      for (int i = 0; i < 4; ++i) put_be32(buf + 16 * b + 4 * i, v[i]);
    K::load(buf, x);
  }
  K::rounds(c, rk, x);
  if (len == K::kBytes) {
    K::store(out, in, x);
  } else {
    K::store(buf, nullptr, x);
    for (std::size_t i = 0; i < len; ++i) out[i] = in[i] ^ buf[i];
    wipe(buf, sizeof buf);
  }
  counter_add(w, static_cast<std::uint32_t>((len + 15) / 16), inc32);
}

/// CTR over `len` bytes: out = in ^ E(counter), E(counter + 1), ...; `counter` (16 bytes, big-endian) is advanced
/// past the blocks used. `inc32`: GCM's counter (the low 32 bits wrap alone); otherwise one 128-bit counter.
/// Groups of K, then a short tail with K1 (one register group).
template <class K, class K1, class V>
void sm4_ctr_any(const std::uint32_t rk[32], std::uint8_t counter[16], bool inc32, const std::uint8_t* in,
                 std::uint8_t* out, std::size_t len) {
  const Sm4Consts<V> c;
  std::uint32_t w[4];
  for (int i = 0; i < 4; ++i) w[i] = be32(counter + 4 * i);
  for (; len >= K::kBytes; len -= K::kBytes, in += K::kBytes, out += K::kBytes)
    sm4_ctr_group<K>(c, rk, w, inc32, in, out, K::kBytes);
  if (len > K1::kBytes) sm4_ctr_group<K>(c, rk, w, inc32, in, out, len);
  else if (len) sm4_ctr_group<K1>(c, rk, w, inc32, in, out, len);
  for (int i = 0; i < 4; ++i) put_be32(counter + 4 * i, w[i]);
  wipe(w, sizeof w);
}

/// The 32 encryption round keys, with tau evaluated by the same S-box routine on a broadcast word (ShiftRows then
/// permutes equal columns: it is the identity, so no shuffle is needed).
template <class V>
void sm4_expand_key_simd(const std::uint8_t key[16], std::uint32_t rk[32]) {
  const Sm4Consts<V> c;
  constexpr std::uint32_t kFk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
  std::uint32_t k[4];
  for (int i = 0; i < 4; ++i) k[i] = be32(key + 4 * i) ^ kFk[i];
  for (int i = 0; i < 32; ++i) {
    std::uint32_t ck = 0;  // CK_i's byte j is (4i + j) * 7 mod 256
    for (int j = 0; j < 4; ++j) ck = (ck << 8) | ((4u * i + j) * 7u & 0xFFu);
    const std::uint32_t in = k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck;
    const std::uint32_t b = V::low32(c.tau_shifted(V::set1_32(in)));
    k[i & 3] ^= b ^ ((b << 13) | (b >> 19)) ^ ((b << 23) | (b >> 9));
    rk[i] = k[i & 3];
  }
  wipe(k, sizeof k);
}

}  // namespace
}  // namespace cryptaccel::cpu
