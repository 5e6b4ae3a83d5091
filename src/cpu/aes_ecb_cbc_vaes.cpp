// See aes_ecb_cbc_vaes.hpp.
#include "cpu/aes_ecb_cbc_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -W(maybe-)uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "common/ct.hpp"
#include "cpu/aes_key_schedule.hpp"
#include "cpu/aes_vaes_rounds.hpp"
#include "common/cpu_features.hpp"
#include "common/target_region.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::cpu {

namespace {

bool vaes_available() {
  static const bool available = has_vaes_avx512(cpu_features());
  return available;
}

}  // namespace

bool aes_cbc_vaes_serves(const CipherSpec& spec) {
  return vaes_available() && spec.mode == Mode::cbc && spec.is_aes();
}

bool aes_ecb_cbc_vaes_serves(const CipherSpec& spec) {
  return vaes_available() && (spec.mode == Mode::ecb || spec.mode == Mode::cbc) && spec.is_aes();
}

}  // namespace cryptaccel::cpu

CA_TARGET_BEGIN("avx512f,avx512bw,vaes,aes,sse4.1")

namespace cryptaccel::cpu {
namespace {

/// The 128-bit lanes of `hi:lo` one lane up: lane 0 takes lo's lane 3 (the block before hi's first).
inline __m512i previous_blocks(__m512i hi, __m512i lo) { return _mm512_alignr_epi64(hi, lo, 6); }

template <int Rounds>
void cbc_decrypt(const std::uint8_t dk[15][16], const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  __m512i rk[15];
  vaes::broadcast_schedule<Rounds>(dk, rk);
  // `last` holds the ciphertext block before the next one to decrypt in its top lane (the IV at first).
  __m512i last = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(iv)));
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i c[4], b[4];
    for (int k = 0; k < 4; ++k) b[k] = c[k] = _mm512_loadu_si512(in + 64 * k);  // all loaded before any store
    vaes::rounds<Rounds, false, 4>(b, rk);
    _mm512_storeu_si512(out, _mm512_xor_si512(b[0], previous_blocks(c[0], last)));
    for (int k = 1; k < 4; ++k) _mm512_storeu_si512(out + 64 * k, _mm512_xor_si512(b[k], previous_blocks(c[k], c[k - 1])));
    last = c[3];
  }
  // The rest, four blocks at a time, the last group through masked loads and stores (len is whole blocks).
  for (; len > 0;) {
    const std::size_t n = len < 64 ? len : 64;
    const __mmask8 lanes = static_cast<__mmask8>((1u << (n / 8)) - 1);  // 64-bit lanes: two per block
    const __m512i c = _mm512_maskz_loadu_epi64(lanes, in);
    __m512i b = c;
    vaes::rounds<Rounds, false, 1>(&b, rk);
    _mm512_mask_storeu_epi64(out, lanes, _mm512_xor_si512(b, previous_blocks(c, last)));
    // The block before the next group is this group's top lane: a group short of four blocks is the last one.
    last = c;
    len -= n, in += n, out += n;
  }
  vaes::wipe_schedule(rk);
}

/// ECB over `len` bytes (whole blocks) with the schedule `rk` (encryption or decryption order).
template <int Rounds, bool Enc>
void ecb(const std::uint8_t keys[15][16], const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
  __m512i rk[15];
  vaes::broadcast_schedule<Rounds>(keys, rk);
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i b[4];
    for (int k = 0; k < 4; ++k) b[k] = _mm512_loadu_si512(in + 64 * k);
    vaes::rounds<Rounds, Enc, 4>(b, rk);
    for (int k = 0; k < 4; ++k) _mm512_storeu_si512(out + 64 * k, b[k]);
  }
  for (; len > 0;) {
    const std::size_t n = len < 64 ? len : 64;
    const auto lanes = static_cast<__mmask8>((1u << (n / 8)) - 1);
    __m512i b = _mm512_maskz_loadu_epi64(lanes, in);
    vaes::rounds<Rounds, Enc, 1>(&b, rk);
    _mm512_mask_storeu_epi64(out, lanes, b);
    len -= n, in += n, out += n;
  }
  vaes::wipe_schedule(rk);
}

/// CBC encryption of `len` bytes (whole blocks), one block after the other; `chain` is the IV on entry and the last
/// ciphertext block on return.
template <int Rounds>
void cbc_encrypt(const std::uint8_t keys[15][16], std::uint8_t chain[16], const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  __m128i rk[15];
  for (int r = 0; r <= Rounds; ++r) rk[r] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keys[r]));
  __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(chain));
  for (; len >= 16; len -= 16, in += 16, out += 16) {
    c = _mm_xor_si128(_mm_xor_si128(c, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in))), rk[0]);
#pragma GCC unroll 14
    for (int r = 1; r < Rounds; ++r) c = _mm_aesenc_si128(c, rk[r]);
    c = _mm_aesenclast_si128(c, rk[Rounds]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), c);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(chain), c);
  for (__m128i& k : rk) k = _mm_setzero_si128();
}

template <int Rounds>
void run_job(const CipherSpec& spec, Direction dir, CipherJob& job, const std::uint8_t ek[15][16],
             const std::uint8_t dk[15][16]) {
  const std::size_t len = job.in.size();
  const bool cbc = spec.mode == Mode::cbc;
  std::uint8_t* out = job.out.data();
  if (dir == Direction::encrypt) {
    const std::size_t full = len / 16 * 16;
    alignas(16) std::uint8_t chain[16] = {};
    if (cbc) std::memcpy(chain, job.iv.data(), 16);
    if (cbc) cbc_encrypt<Rounds>(ek, chain, job.in.data(), out, full);
    else ecb<Rounds, true>(ek, job.in.data(), out, full);
    job.out_len = full;
    if (spec.padding) {  // the last block: the rest of the input, then PKCS#7 (16 - rest bytes of that value)
      alignas(16) std::uint8_t last[16];
      const std::size_t rest = len - full;
      copy_bytes(last, job.in.data() + full, rest);
      std::memset(last + rest, static_cast<int>(16 - rest), 16 - rest);
      if (cbc) cbc_encrypt<Rounds>(ek, chain, last, out + full, 16);
      else ecb<Rounds, true>(ek, last, out + full, 16);
      secure_wipe(last, sizeof last);
      job.out_len += 16;
    }
    secure_wipe(chain, sizeof chain);
  } else {
    if (cbc) cbc_decrypt<Rounds>(dk, job.iv.data(), job.in.data(), out, len);
    else ecb<Rounds, false>(dk, job.in.data(), out, len);
    job.out_len = len;
    if (spec.padding) {
      const std::size_t pad = ct::pkcs7_pad_length(out + len - 16);
      if (pad == 0) {
        secure_wipe(out, len);  // no plaintext is released with a padding error
        job.status = JobStatus::bad_decrypt;
        job.error = "bad decrypt: invalid padding";
        return;
      }
      job.out_len = len - pad;
    }
  }
  job.status = JobStatus::ok;
}

}  // namespace

void aes_ecb_cbc_vaes_run(const CipherSpec& spec, Direction dir, CipherJob& job) {
  alignas(16) std::uint8_t ek[15][16], dk[15][16];
  const int rounds = aes_schedule::expand(job.key.data(), job.key.size(), ek);
  if (dir == Direction::decrypt) aes_schedule::inverse_schedule(ek, rounds, dk);
  aes_schedule::with_rounds(rounds, [&](auto r) { run_job<decltype(r)::value>(spec, dir, job, ek, dk); });
  secure_wipe(ek, sizeof ek);
  secure_wipe(dk, sizeof dk);
}

void aes_cbc_vaes_decrypt(bytes_view key, const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                          std::size_t len) {
  alignas(16) std::uint8_t ek[15][16], dk[15][16];
  const int rounds = aes_schedule::expand(key.data(), key.size(), ek);
  aes_schedule::inverse_schedule(ek, rounds, dk);
  aes_schedule::with_rounds(rounds, [&](auto r) { cbc_decrypt<decltype(r)::value>(dk, iv, in, out, len); });
  secure_wipe(ek, sizeof ek);
  secure_wipe(dk, sizeof dk);
}

}  // namespace cryptaccel::cpu

CA_TARGET_END
