// See aes_gcm_vaes.hpp.
#include "cpu/aes_gcm_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -W(maybe-)uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "algo/bits.hpp"
#include "algo/block_modes.hpp"
#include "common/ct.hpp"
#include "cpu/aes_key_schedule.hpp"
#include "cpu/aes_vaes_rounds.hpp"
#include "common/cpu_features.hpp"
#include "cpu/ghash_pclmul.hpp"
#include "cpu/ghash_pclmul_inline.hpp"
#include "cryptaccel/types.hpp"
#include "common/target_region.hpp"

namespace cryptaccel::cpu {

bool aes_gcm_vaes_available() {
  const CpuFeatures& f = cpu_features();
  return has_vaes_avx512(f) && f.pclmulqdq && f.ssse3 && f.vpclmulqdq;
}

bool aes_gcm_vaes_serves(const CipherSpec& spec) {
  static const bool available = aes_gcm_vaes_available();
  return available && spec.mode == Mode::gcm && spec.is_aes();
}

}  // namespace cryptaccel::cpu

CA_TARGET_BEGIN("avx512f,avx512bw,vaes,vpclmulqdq,aes,pclmul,sse4.1,ssse3")

namespace cryptaccel::cpu {
namespace {

constexpr std::size_t kBlock = 16;

/// The mask of the first n (0..64) bytes of a register.
inline __mmask64 first_bytes(std::size_t n) { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }

/// A key's AES schedule broadcast to the four lanes, and its powers of H.
struct Keys {
  __m512i rk[15];
  const GhashPclmulKey* gk;
};

/// The last 1..16 blocks of a stretch (len 1..256 bytes) in R = ceil(len / 64) registers: counter mode through
/// masked loads and stores (nothing read or written past len) and, when Hash, the ciphertext into y, zero-padded as
/// GCM pads it.
template <int Rounds, bool Encrypt, bool Hash, int R>
void tail(const Keys& keys, const vaes::CounterLanes& ctr, const std::uint8_t* in, std::uint8_t* out,
          std::size_t len, __m128i& y) {
  __m512i b[R], data[R];  // keystream; the input, then (encrypting) the output
  __mmask64 m[R];
  for (int r = 0; r < R; ++r) {
    const std::size_t at = 64 * static_cast<std::size_t>(r);
    m[r] = first_bytes(len - at);
    b[r] = ctr.blocks(r);
    data[r] = _mm512_maskz_loadu_epi8(m[r], in + at);
  }
  // y absorbs the ciphertext in data[] (zero past len): the input when decrypting, the output when encrypting.
  const auto hash_data = [&] {
    ghash::Powers4 p[R];
    ghash::load_powers4<R>(*keys.gk, static_cast<int>((len + kBlock - 1) / kBlock), p);
    __m512i x[R];
    for (int r = 0; r < R; ++r) x[r] = ghash::reflect4(data[r]);
    y = ghash::absorb4<R>(p, y, x);
    ghash::wipe_powers4<R>(p);
  };
  if constexpr (Hash && !Encrypt) hash_data();
  vaes::rounds<Rounds, true, R>(b, keys.rk);
  for (int r = 0; r < R; ++r) {
    const __m512i o = _mm512_maskz_mov_epi8(m[r], _mm512_xor_si512(b[r], data[r]));
    _mm512_mask_storeu_epi8(out + 64 * static_cast<std::size_t>(r), m[r], o);
    if constexpr (Encrypt) data[r] = o;
  }
  if constexpr (Hash && Encrypt) hash_data();
  for (__m512i& v : b) v = _mm512_setzero_si512();  // keystream
}

/// Counter mode from counter (hi, lo) over `len` bytes, whose low 32 bits do not wrap before the last block, and
/// (when Hash) GHASH of the ciphertext into y. Sixteen blocks per step: AES on four registers and the previous
/// sixteen ciphertext blocks' GHASH are independent, so the core runs them side by side.
template <int Rounds, bool Encrypt, bool Hash>
void stretch(const Keys& keys, std::uint64_t hi, std::uint64_t lo, const std::uint8_t* in, std::uint8_t* out,
             std::size_t len, __m128i& y) {
  vaes::CounterLanes ctr(hi, lo);
  ghash::Powers4 p[4];
  if (Hash && len >= 256) ghash::load_powers4<4>(*keys.gk, 16, p);
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i b[4], x[4];
    for (int k = 0; k < 4; ++k) b[k] = ctr.blocks(k);
    if constexpr (!Encrypt) {  // the ciphertext is the input: hash it before the output may overwrite it
      for (int k = 0; k < 4; ++k) x[k] = _mm512_loadu_si512(in + 64 * k);
      if constexpr (Hash) {
        __m512i h[4];
        for (int k = 0; k < 4; ++k) h[k] = ghash::reflect4(x[k]);
        y = ghash::absorb4<4>(p, y, h);
      }
    }
    vaes::rounds<Rounds, true, 4>(b, keys.rk);
    for (int k = 0; k < 4; ++k) {
      const __m512i src = Encrypt ? _mm512_loadu_si512(in + 64 * k) : x[k];
      const __m512i o = _mm512_xor_si512(b[k], src);
      _mm512_storeu_si512(out + 64 * k, o);
      if constexpr (Encrypt) x[k] = ghash::reflect4(o);
    }
    if constexpr (Encrypt && Hash) y = ghash::absorb4<4>(p, y, x);
    ctr.advance16();
  }
  ghash::wipe_powers4<4>(p);
  switch ((len + 63) / 64) {
    case 1: return tail<Rounds, Encrypt, Hash, 1>(keys, ctr, in, out, len, y);
    case 2: return tail<Rounds, Encrypt, Hash, 2>(keys, ctr, in, out, len, y);
    case 3: return tail<Rounds, Encrypt, Hash, 3>(keys, ctr, in, out, len, y);
    case 4: return tail<Rounds, Encrypt, Hash, 4>(keys, ctr, in, out, len, y);
    default: return;
  }
}

/// GCM's counter mode from `counter` (inc32: only the low 32 bits count, wrapping mod 2^32) over `len` bytes, and
/// (when Hash) GHASH of the ciphertext into y_bytes (GCM byte order). Every piece but a message's last is whole
/// blocks, so only the message's end pads.
template <int Rounds, bool Encrypt, bool Hash>
void crypt(const Keys& keys, const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
           std::size_t len, std::uint8_t y_bytes[16]) {
  __m128i y = Hash ? ghash::reflect(ghash::load(y_bytes)) : _mm_setzero_si128();
  const std::uint64_t hi = algo::load_be64(counter);
  std::uint64_t lo = algo::load_be64(counter + 8);
  while (len > 0) {
    // Blocks until the low 32 bits wrap; the counter is public, so branching on it is fine.
    const std::uint64_t until_wrap = (std::uint64_t{1} << 32) - (lo & 0xffffffffu);
    const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(len, until_wrap * kBlock));
    stretch<Rounds, Encrypt, Hash>(keys, hi, lo, in, out, bytes, y);
    lo = (lo & ~std::uint64_t{0xffffffffu}) | ((lo + until_wrap) & 0xffffffffu);
    len -= bytes, in += bytes, out += bytes;
  }
  if constexpr (Hash) ghash::store(y_bytes, ghash::reflect(y));
  y = _mm_setzero_si128();
}

/// E_K of the blocks in the lanes of one register.
template <int Rounds>
__m512i encrypt4(const Keys& keys, __m512i blocks) {
  vaes::rounds<Rounds, true, 1>(&blocks, keys.rk);
  return blocks;
}

/// The AES schedule of a 16-, 24- or 32-byte key; returns the number of rounds.
int expand(bytes_view key, std::uint8_t rk[15][16]) { return aes_schedule::expand(key.data(), key.size(), rk); }

/// Blocks of `len` bytes, rounded up.
std::size_t blocks_of(std::size_t len) { return (len + kBlock - 1) / kBlock; }

/// GCM over one whole job with an expanded key.
template <int Rounds>
void run_job(const std::uint8_t round_keys[15][16], Direction dir, CipherJob& job) {
  Keys keys;
  vaes::broadcast_schedule<Rounds>(round_keys, keys.rk);
  GhashPclmulKey gk;
  keys.gk = &gk;
  const std::size_t len = job.in.size();
  const bool short_iv = job.iv.size() == 12;
  // Lanes: 0^128 (its encryption is H) and, with a 96-bit IV, J0 = IV || 0^31 || 1.
  alignas(64) std::uint8_t blocks[64] = {};
  if (short_iv) {
    std::memcpy(blocks + 16, job.iv.data(), 12);
    blocks[31] = 1;
  }
  _mm512_store_si512(blocks, encrypt4<Rounds>(keys, _mm512_load_si512(blocks)));
  // The powers of H this message needs: ghash_pclmul and the kernel take at most min(16, blocks) at a time.
  const std::size_t most_blocks =
      std::max({blocks_of(len), blocks_of(job.aad.size()), short_iv ? 1 : blocks_of(job.iv.size()), std::size_t{1}});
  ghash_pclmul_init(gk, blocks, std::min(most_blocks, GhashPclmulKey::kMaxPowers));
  alignas(16) std::uint8_t j0[16] = {}, ej0[16], y[16] = {}, lengths[16];
  if (short_iv) {
    std::memcpy(j0, job.iv.data(), 12);
    j0[15] = 1;
    std::memcpy(ej0, blocks + 16, 16);
  } else {  // J0 = GHASH(IV || 0-pad || [0]_64 || [8 * |IV|]_64)
    ghash_pclmul(gk, j0, job.iv.data(), job.iv.size());
    std::memset(lengths, 0, 8);
    algo::store_be64(lengths + 8, static_cast<std::uint64_t>(job.iv.size()) * 8);
    ghash_pclmul(gk, j0, lengths, 16);
    _mm512_store_si512(blocks, encrypt4<Rounds>(keys, _mm512_zextsi128_si512(ghash::load(j0))));
    std::memcpy(ej0, blocks, 16);
  }
  ghash_pclmul(gk, y, job.aad.data(), job.aad.size());
  std::uint8_t counter[16];
  std::memcpy(counter, j0, 16);
  algo::ctr32_add(counter, 1);
  if (dir == Direction::encrypt) {
    crypt<Rounds, true, true>(keys, counter, job.in.data(), job.out.data(), len, y);
  } else {
    crypt<Rounds, false, true>(keys, counter, job.in.data(), job.out.data(), len, y);
  }
  algo::store_be64(lengths, static_cast<std::uint64_t>(job.aad.size()) * 8);
  algo::store_be64(lengths + 8, static_cast<std::uint64_t>(len) * 8);
  ghash_pclmul(gk, y, lengths, 16);
  for (std::size_t i = 0; i < 16; ++i) y[i] ^= ej0[i];  // the full tag
  bool ok = true;
  if (dir == Direction::encrypt) {
    std::memcpy(job.tag.data(), y, job.tag.size());
  } else if (!ct::equal(y, job.tag.data(), job.tag.size())) {
    secure_wipe(job.out.data(), len);  // decrypted before the tag was known: wiped, never released
    ok = false;
  }
  vaes::wipe_schedule(keys.rk);
  for (std::uint8_t* p : {blocks, j0, ej0, y, counter}) secure_wipe(p, p == blocks ? sizeof blocks : 16);
  if (!ok) {
    job.status = JobStatus::auth_failed;
    job.out_len = 0;
    job.error = "authentication failed: tag mismatch";
    return;
  }
  job.out_len = len;
  job.status = JobStatus::ok;
}

/// The split/stream building blocks of one key (engine::GcmSplitKey): const, safe on several threads at once.
class VaesGcmSplitKey final : public engine::GcmSplitKey {
 public:
  explicit VaesGcmSplitKey(bytes_view key) : rounds_(expand(key, rk_)) {
    alignas(64) std::uint8_t h[64] = {};
    with_keys([&](const Keys& keys, auto rounds) {
      _mm512_store_si512(h, encrypt4<decltype(rounds)::value>(keys, _mm512_setzero_si512()));
    });
    ghash_pclmul_init(gk_, h);
    secure_wipe(h, sizeof h);
  }
  ~VaesGcmSplitKey() override { secure_wipe(rk_, sizeof rk_); }

  void encrypt_block(const std::uint8_t in[16], std::uint8_t out[16]) const override {
    alignas(64) std::uint8_t b[64];
    with_keys([&](const Keys& keys, auto rounds) {
      _mm512_store_si512(b, encrypt4<decltype(rounds)::value>(keys, _mm512_zextsi128_si512(ghash::load(in))));
    });
    std::memcpy(out, b, 16);
    secure_wipe(b, sizeof b);
  }
  void ctr32(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out,
             std::size_t len) const override {
    dispatch<true, false>(counter, in, out, len, nullptr);
  }
  void ghash(std::uint8_t y[16], const std::uint8_t* data, std::size_t len) const override {
    ghash_pclmul(gk_, y, data, len);
  }
  void gf_mul(std::uint8_t x[16], const std::uint8_t y[16]) const override { gf128_mul_pclmul(x, y); }
  void encrypt_and_hash(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                        std::uint8_t hash[16]) const override {
    std::memset(hash, 0, 16);
    dispatch<true, true>(counter, in, out, len, hash);
  }
  void hash_and_decrypt(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                        std::uint8_t hash[16]) const override {
    std::memset(hash, 0, 16);
    dispatch<false, true>(counter, in, out, len, hash);
  }

 private:
  /// Calls f(keys, rounds) with the schedule broadcast to registers (wiped afterwards) and the round count as an
  /// std::integral_constant.
  template <typename F>
  void with_keys(F&& f) const {
    aes_schedule::with_rounds(rounds_, [&](auto rounds) {
      Keys keys;
      keys.gk = &gk_;
      vaes::broadcast_schedule<decltype(rounds)::value>(rk_, keys.rk);
      f(keys, rounds);
      vaes::wipe_schedule(keys.rk);
    });
  }
  template <bool Encrypt, bool Hash>
  void dispatch(const std::uint8_t counter[16], const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                std::uint8_t* hash) const {
    with_keys([&](const Keys& keys, auto rounds) {
      crypt<decltype(rounds)::value, Encrypt, Hash>(keys, counter, in, out, len, hash);
    });
  }

  alignas(16) std::uint8_t rk_[15][16];
  int rounds_;
  GhashPclmulKey gk_;
};

}  // namespace

void aes_gcm_vaes_run(const CipherSpec&, Direction dir, CipherJob& job) {
  alignas(16) std::uint8_t rk[15][16];
  aes_schedule::with_rounds(expand(job.key, rk), [&](auto rounds) { run_job<decltype(rounds)::value>(rk, dir, job); });
  secure_wipe(rk, sizeof rk);
}

std::unique_ptr<engine::GcmSplitKey> aes_gcm_vaes_split_key(BlockCipher cipher, bytes_view key) {
  if (!aes_gcm_vaes_serves(CipherSpec{cipher, Mode::gcm, false})) return nullptr;
  return std::make_unique<VaesGcmSplitKey>(key);
}

}  // namespace cryptaccel::cpu

CA_TARGET_END
