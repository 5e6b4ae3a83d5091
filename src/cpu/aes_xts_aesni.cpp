// AES-XTS with AES-NI from any block index (see aes_xts_aesni.hpp).
//
// Tweaks: IEEE 1619 reads a tweak as a little-endian 128-bit integer (x86 is little-endian), so T·α is a 128-bit
// shift left by one with the bit shifted out of bit 127 folded back as 0x87. Inside the bulk loop this runs on two
// 64-bit integer registers (eight_tweaks), one batch ahead, and the tweaks reach the AES lanes through a small stack
// buffer: on the EPYC (Zen 1) of bench/results the AES units and the vector shuffle/shift units share ports, and
// doubling in SSE registers (PSHUFD/PSRAD/PADDQ/PAND/PXOR per block, or a one-byte shift by α^8 per lane) ran at
// 0.70x OpenSSL's XTS per core, while integer doubling runs at 0.95-0.98x (AES-128) and 1.00x (AES-256) (cycles per
// byte, best of 3000 in-place 16 KiB calls against EVP_CipherUpdate in the same process, measured under load). The single steps outside the loop (T_m for ciphertext
// stealing) double in SSE registers (mul_alpha: the two carries become masks through PSHUFD and PSRAD).
//
// Eight blocks are in flight: their tweaks are XORed in and the eight go through each round key together (AESENC's
// latency is several cycles, its throughput one or two per cycle). Tweaks and the stealing blocks go through a
// scratch area on the stack that is wiped at the end; no branch or memory index depends on the key, tweak or data.
#include "cpu/aes_xts_aesni.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -W(maybe-)uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "algo/block_modes.hpp"
#include "algo/xts_tweak.hpp"
#include "common/cpu_features.hpp"
#include "cpu/aes_key_schedule.hpp"
#include "cpu/aes_vaes_rounds.hpp"
#include "cpu/ghash_pclmul.hpp"
#include "cryptaccel/types.hpp"
#include "common/target_region.hpp"

namespace cryptaccel::cpu {

AesXtsAesniKey::~AesXtsAesniKey() {
  secure_wipe(k1_enc, sizeof k1_enc);
  secure_wipe(k1_dec, sizeof k1_dec);
  secure_wipe(k2_enc, sizeof k2_enc);
}

bool aes_xts_aesni_available() { return cpu_features().aesni; }

namespace {

/// Whether the sixteen-block VAES bulk loop (vaes_bulk) may run: VAES, VPCLMULQDQ and AVX-512 F/BW, none hidden by
/// CRYPTACCEL_CPU_MASK.
bool vaes_bulk_available() {
  static const bool available = [] {
    const CpuFeatures& f = cpu_features();
    return has_vaes_avx512(f) && f.vpclmulqdq;
  }();
  return available;
}


constexpr std::size_t kBlock = 16;
constexpr int kLanes = 8;  // blocks in flight

/// α^(2^i), i < 64 (public), built once: as field elements, and as 16 bytes in GCM byte order for PCLMULQDQ.
struct AlphaPowers {
  algo::Gf128 pow2[algo::kXtsAlphaPowers];
  std::uint8_t pow2_bytes[algo::kXtsAlphaPowers][16];
  AlphaPowers() {
    algo::xts_alpha_pow_table(pow2);
    for (int i = 0; i < algo::kXtsAlphaPowers; ++i) algo::gf128_store(pow2[i], pow2_bytes[i]);
  }
};
const AlphaPowers& alpha_powers() {
  static const AlphaPowers table;
  return table;
}

/// t <- t·α^j (xts_tweak.hpp's representation and table; `j` is public, t secret). With PCLMULQDQ a product costs
/// tens of cycles instead of the portable multiply's hundreds, which a split data unit pays once per piece.
void mul_alpha_pow(std::uint8_t t[16], std::uint64_t j) {
  if (j == 0) return;
  const AlphaPowers& a = alpha_powers();
  if (!ghash_pclmul_available()) return algo::xts_mul_alpha_pow_portable(t, j, a.pow2);
  std::uint8_t g[16];
  algo::gf128_store(algo::xts_to_gf(t), g);
  for (int i = 0; i < algo::kXtsAlphaPowers && (j >> i) != 0; ++i)
    if ((j >> i) & 1u) gf128_mul_pclmul(g, a.pow2_bytes[i]);
  algo::gf_to_xts(algo::gf128_load(g), t);
  secure_wipe(g, sizeof g);
}

class AesniXtsSplitKey final : public engine::XtsSplitKey {
 public:
  explicit AesniXtsSplitKey(bytes_view key) { aes_xts_aesni_init(key_, key.data(), key.size()); }
  void crypt(Direction dir, const std::uint8_t iv[16], std::uint64_t first_block, const std::uint8_t* in,
             std::uint8_t* out, std::size_t len) const override {
    aes_xts_aesni_crypt(key_, dir, iv, first_block, in, out, len);
  }

 private:
  AesXtsAesniKey key_;  // wiped by its destructor
};

}  // namespace

void aes_xts_aesni_run(const CipherSpec& spec, Direction dir, CipherJob& job, std::size_t xts_unit) {
  (void)spec;  // the key length says AES-128 or AES-256
  AesXtsAesniKey key;
  aes_xts_aesni_init(key, job.key.data(), job.key.size(), dir == Direction::decrypt);
  const std::size_t len = job.in.size();
  const std::size_t unit = xts_unit == 0 ? len : xts_unit;
  std::uint8_t tweak[kBlock];
  std::memcpy(tweak, job.iv.data(), kBlock);
  for (std::size_t pos = 0; pos < len; pos += unit) {
    aes_xts_aesni_crypt(key, dir, tweak, 0, job.in.data() + pos, job.out.data() + pos, std::min(unit, len - pos));
    algo::le128_add(tweak, 1);
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

bool aes_xts_aesni_forced() {
  static const bool forced = [] {
    const char* env = std::getenv("CRYPTACCEL_CPU_XTS");
    return env && std::string_view(env) == "aesni";
  }();
  return forced && aes_xts_aesni_available();
}

bool aes_xts_aesni_vaes() { return vaes_bulk_available(); }

bool aes_xts_aesni_serves(std::size_t unit_bytes) {
  // With VAES the kernel outruns OpenSSL 3.0's AES-NI XTS at every size (2.0-3.0x per core at 64 KiB - 1 MiB on the
  // Xeon of bench/results/2026-11-27-xeon-2c-ifma-vaes), so it takes every unit; without, only the small ones.
  return aes_xts_aesni_forced() ||
         (aes_xts_aesni_available() && (unit_bytes <= kXtsKernelMaxUnit || vaes_bulk_available()));
}

std::unique_ptr<engine::XtsSplitKey> aes_xts_aesni_split_key(BlockCipher cipher, bytes_view key) {
  if ((cipher != BlockCipher::aes128 && cipher != BlockCipher::aes256) || !aes_xts_aesni_available()) return nullptr;
  if (key.size() != (cipher == BlockCipher::aes128 ? 32u : 64u)) return nullptr;
  return std::make_unique<AesniXtsSplitKey>(key);
}

}  // namespace cryptaccel::cpu

CA_TARGET_BEGIN("sse2,aes")

namespace cryptaccel::cpu {
namespace {

inline __m128i load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }


// --- blocks ---

/// The `N` blocks of `b` through all rounds of the schedule `rk` (encryption or decryption order).
template <int Rounds, bool Enc, int N>
inline void cipher(const std::uint8_t rk[15][16], __m128i* b) {
  const __m128i k0 = load(rk[0]);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) b[i] = _mm_xor_si128(b[i], k0);
#pragma GCC unroll 14
  for (int r = 1; r < Rounds; ++r) {
    const __m128i k = load(rk[r]);
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) b[i] = Enc ? _mm_aesenc_si128(b[i], k) : _mm_aesdec_si128(b[i], k);
  }
  const __m128i kl = load(rk[Rounds]);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) b[i] = Enc ? _mm_aesenclast_si128(b[i], kl) : _mm_aesdeclast_si128(b[i], kl);
}

/// t·α (see the top of this file).
inline __m128i mul_alpha(__m128i t) {
  const __m128i poly = _mm_set_epi32(0, 1, 0, 0x87);  // 32-bit lanes 3..0: bit 64 <- bit 63, 0x87 <- bit 127
  const __m128i carries = _mm_srai_epi32(_mm_shuffle_epi32(t, 0x13), 31);  // lane 0: bit 127, lane 2: bit 63
  return _mm_xor_si128(_mm_add_epi64(t, t), _mm_and_si128(carries, poly));
}

/// The stack area for tweaks and the stealing blocks (wiped by the caller).
struct Scratch {
  /// Tweaks of eight blocks as (low, high) 64-bit halves, double-buffered: one batch's tweaks are written while the
  /// batch before runs, so no load waits for the stores that made it.
  alignas(16) std::uint64_t tweaks[2][kLanes][2];
  alignas(16) std::uint8_t rest[kLanes * kBlock];   ///< fewer than 8 blocks, padded to 8
  alignas(16) std::uint8_t cc[kBlock], pp[kBlock];  ///< ciphertext stealing (IEEE 1619 §5.3.2 names)
};

/// Writes the tweaks T, T·α, ..., T·α^7 to `tw`, (lo, hi) = T on entry, and leaves T·α^8 in (lo, hi). Doubling in
/// 64-bit integer registers: the carry out of bit 127 becomes a mask (0 or all ones), never a branch.
inline void eight_tweaks(std::uint64_t& lo, std::uint64_t& hi, std::uint64_t (*tw)[2]) {
#pragma GCC unroll 8
  for (int i = 0; i < kLanes; ++i) {
    tw[i][0] = lo, tw[i][1] = hi;
    const std::uint64_t carry = 0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (carry & 0x87);
  }
}

/// Eight blocks at `in` -> `out` under the tweaks `tw` (eight_tweaks' layout). in == out allowed.
template <int Rounds, bool Enc>
inline void eight(const std::uint8_t rk[15][16], const std::uint8_t* in, std::uint8_t* out,
                  const std::uint64_t (*tw)[2]) {
  __m128i b[kLanes];
#pragma GCC unroll 8
  for (int i = 0; i < kLanes; ++i) b[i] = _mm_xor_si128(load(in + i * kBlock), _mm_load_si128(reinterpret_cast<const __m128i*>(tw[i])));
  cipher<Rounds, Enc, kLanes>(rk, b);
#pragma GCC unroll 8
  for (int i = 0; i < kLanes; ++i)
    store(out + i * kBlock, _mm_xor_si128(b[i], _mm_load_si128(reinterpret_cast<const __m128i*>(tw[i]))));
}

/// One block `x` under tweak `t`.
template <int Rounds, bool Enc>
inline __m128i one(const std::uint8_t rk[15][16], __m128i t, __m128i x) {
  x = _mm_xor_si128(x, t);
  cipher<Rounds, Enc, 1>(rk, &x);
  return _mm_xor_si128(x, t);
}

#define CA_XTS_VAES __attribute__((target("avx512f,avx512bw,vaes,vpclmulqdq,aes,sse4.1")))

/// Four registers of four tweaks each, times α^16: a 16-bit shift left of each 128-bit lane, the 16 bits shifted out
/// folded back through a carry-less multiply by 0x87 (x^128 = x^7 + x^2 + x + 1).
CA_XTS_VAES inline __m512i mul_alpha16(__m512i t) {
  const __m512i poly = _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87);
  const __m512i top = _mm512_bsrli_epi128(t, 14);  // bits 112..127 of each lane, at its bottom
  return _mm512_xor_si512(_mm512_bslli_epi128(t, 2), _mm512_clmulepi64_epi128(top, poly, 0x00));
}

/// Whole blocks of a data unit in groups of sixteen on VAES (four blocks per instruction, four registers in flight);
/// (lo, hi) is the first block's tweak on entry and the next block's on return. Returns the blocks done (a multiple
/// of 16; the rest is left to the AES-NI loop). No branch or address depends on the key, tweak or data.
template <int Rounds, bool Enc>
CA_XTS_VAES std::size_t vaes_bulk(const std::uint8_t rk[15][16], std::uint64_t& lo, std::uint64_t& hi,
                                  const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
  if (blocks < 16) return 0;
  alignas(64) std::uint64_t first[16][2];
  std::uint64_t l = lo, h = hi;
  for (int i = 0; i < 16; ++i) {  // T, T·α, ..., T·α^15, by doubling in integer registers (masks, no branches)
    first[i][0] = l, first[i][1] = h;
    const std::uint64_t carry = 0 - (h >> 63);
    h = (h << 1) | (l >> 63);
    l = (l << 1) ^ (carry & 0x87);
  }
  __m512i t[4];
  for (int k = 0; k < 4; ++k) t[k] = _mm512_load_si512(first[4 * k]);
  secure_wipe(first, sizeof first);
  __m512i key[15];
  vaes::broadcast_schedule<Rounds>(rk, key);
  std::size_t done = 0;
  for (; blocks - done >= 16; done += 16, in += 256, out += 256) {
    __m512i b[4];
    for (int k = 0; k < 4; ++k) b[k] = _mm512_xor_si512(_mm512_loadu_si512(in + 64 * k), t[k]);
    vaes::rounds<Rounds, Enc, 4>(b, key);
    for (int k = 0; k < 4; ++k) {
      _mm512_storeu_si512(out + 64 * k, _mm512_xor_si512(b[k], t[k]));
      t[k] = mul_alpha16(t[k]);
    }
  }
  alignas(16) std::uint64_t next[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(next), _mm512_castsi512_si128(t[0]));
  lo = next[0], hi = next[1];
  secure_wipe(next, sizeof next);
  vaes::wipe_schedule(key);
  for (__m512i& k : t) k = _mm512_setzero_si512();
  return done;
}

template <int Rounds, bool Enc>
void run(const AesXtsAesniKey& key, const std::uint8_t iv[16], std::uint64_t first_block, const std::uint8_t* in,
         std::uint8_t* out, std::size_t len) {
  const auto& rk = Enc ? key.k1_enc : key.k1_dec;
  Scratch s{};
  // T_j = E_K2(iv)·α^j: the power of α is public (a block index), the product constant time.
  alignas(16) std::uint8_t t_bytes[kBlock];
  __m128i t = load(iv);
  cipher<Rounds, true, 1>(key.k2_enc, &t);
  _mm_store_si128(reinterpret_cast<__m128i*>(t_bytes), t);
  mul_alpha_pow(t_bytes, first_block);

  const std::size_t r = len % kBlock;
  std::size_t blocks = len / kBlock - (r ? 1 : 0);  // with stealing, the last full block goes with the partial one
  // The tweaks of each batch of eight are computed while the batch before it runs (see Scratch).
  std::uint64_t lo, hi;
  std::memcpy(&lo, t_bytes, 8), std::memcpy(&hi, t_bytes + 8, 8);
  secure_wipe(t_bytes, sizeof t_bytes);
  if (vaes_bulk_available()) {  // sixteen blocks at a time on VAES; the rest below
    const std::size_t done = vaes_bulk<Rounds, Enc>(rk, lo, hi, in, out, blocks);
    blocks -= done, in += done * kBlock, out += done * kBlock;
  }
  eight_tweaks(lo, hi, s.tweaks[0]);
  for (; blocks >= 2 * kLanes; blocks -= 2 * kLanes, in += 2 * kLanes * kBlock, out += 2 * kLanes * kBlock) {
    eight_tweaks(lo, hi, s.tweaks[1]);
    eight<Rounds, Enc>(rk, in, out, s.tweaks[0]);
    eight_tweaks(lo, hi, s.tweaks[0]);
    eight<Rounds, Enc>(rk, in + kLanes * kBlock, out + kLanes * kBlock, s.tweaks[1]);
  }
  int cur = 0;
  if (blocks >= kLanes) {
    eight_tweaks(lo, hi, s.tweaks[1]);
    eight<Rounds, Enc>(rk, in, out, s.tweaks[0]);
    blocks -= kLanes, in += kLanes * kBlock, out += kLanes * kBlock;
    cur = 1;
  }
  lo = hi = 0;
  if (blocks) {  // 1..7 blocks: through the eight-block path on a copy
    std::memcpy(s.rest, in, blocks * kBlock);
    eight<Rounds, Enc>(rk, s.rest, s.rest, s.tweaks[cur]);
    std::memcpy(out, s.rest, blocks * kBlock);
    in += blocks * kBlock, out += blocks * kBlock;
  }
  t = _mm_load_si128(reinterpret_cast<const __m128i*>(s.tweaks[cur][blocks]));  // the next block's (blocks < 8)
  if (r) {
    // IEEE 1619 §5.3.2 / §5.4.2: the last full block is enciphered under T_{m-1} when encrypting and under T_m when
    // decrypting; its first r bytes become the partial block, the rest pads the partial input to a block that takes
    // the full block's place under the other tweak. The partial input is copied first (in == out allowed).
    const __m128i t_prev = t, t_last = mul_alpha(t);
    std::memcpy(s.pp, in + kBlock, r);
    const __m128i x = one<Rounds, Enc>(rk, Enc ? t_prev : t_last, load(in));
    store(s.cc, x);
    std::memcpy(s.pp + r, s.cc + r, kBlock - r);
    std::memcpy(out + kBlock, s.cc, r);
    store(out, one<Rounds, Enc>(rk, Enc ? t_last : t_prev, load(s.pp)));
  }
  secure_wipe(&s, sizeof s);
}

}  // namespace

void aes_xts_aesni_init(AesXtsAesniKey& key, const std::uint8_t* key_bytes, std::size_t key_len,
                        bool for_decryption) {
  const std::size_t half = key_len / 2;
  key.rounds = half == 16 ? 10 : 14;
  if (half == 16) {
    aes_schedule::expand128(key_bytes, key.k1_enc), aes_schedule::expand128(key_bytes + half, key.k2_enc);
  } else {
    aes_schedule::expand256(key_bytes, key.k1_enc), aes_schedule::expand256(key_bytes + half, key.k2_enc);
  }
  if (for_decryption) aes_schedule::inverse_schedule(key.k1_enc, key.rounds, key.k1_dec);
}

void aes_xts_aesni_crypt(const AesXtsAesniKey& key, Direction dir, const std::uint8_t iv[16],
                         std::uint64_t first_block, const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
  const bool enc = dir == Direction::encrypt;
  if (key.rounds == 10) {
    enc ? run<10, true>(key, iv, first_block, in, out, len) : run<10, false>(key, iv, first_block, in, out, len);
  } else {
    enc ? run<14, true>(key, iv, first_block, in, out, len) : run<14, false>(key, iv, first_block, in, out, len);
  }
}

}  // namespace cryptaccel::cpu

CA_TARGET_END
