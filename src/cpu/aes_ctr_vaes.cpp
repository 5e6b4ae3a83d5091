// See aes_ctr_vaes.hpp.
#include "cpu/aes_ctr_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "cpu/aes_key_schedule.hpp"
#include "cpu/aes_vaes_rounds.hpp"
#include "cpu/cpu_features.hpp"
#include "cryptaccel/types.hpp"

namespace cryptaccel::cpu {

bool aes_ctr_vaes_available() {
  const CpuFeatures& f = cpu_features();
  return f.aesni && f.avx512f && f.avx512bw && f.vaes;
}

bool aes_ctr_vaes_serves(const CipherSpec& spec) {
  static const bool available = aes_ctr_vaes_available();
  return available && spec.mode == Mode::ctr &&
         (spec.cipher == BlockCipher::aes128 || spec.cipher == BlockCipher::aes256);
}

}  // namespace cryptaccel::cpu

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,vaes,aes,sse4.1")

namespace cryptaccel::cpu {
namespace {

/// Byte indices that reverse each 16-byte lane: a counter held as two little-endian 64-bit halves (low, high)
/// becomes the big-endian 128-bit counter block.
alignas(64) constexpr std::uint8_t kReverseLanes[64] = {
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

std::uint64_t load_be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

/// CTR over `len` bytes from counter (hi, lo), whose low half does not wrap before the last block.
template <int Rounds>
void ctr_stretch(const __m512i* rk, std::uint64_t hi, std::uint64_t lo, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  const __m512i reverse = _mm512_load_si512(kReverseLanes);
  const __m512i step4 = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
  const __m512i step16 = _mm512_set_epi64(0, 16, 0, 16, 0, 16, 0, 16);
  const auto h = static_cast<long long>(hi);
  __m512i c[4];  // the counters of blocks 0-3, 4-7, 8-11, 12-15 of the next sixteen
  c[0] = _mm512_set_epi64(h, static_cast<long long>(lo + 3), h, static_cast<long long>(lo + 2), h,
                          static_cast<long long>(lo + 1), h, static_cast<long long>(lo));
  for (int k = 1; k < 4; ++k) c[k] = _mm512_add_epi64(c[k - 1], step4);
  // Sixteen blocks at a time: four independent registers through each round key.
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i b[4];
    for (int k = 0; k < 4; ++k) b[k] = _mm512_shuffle_epi8(c[k], reverse);
    vaes::rounds<Rounds, true, 4>(b, rk);
    for (int k = 0; k < 4; ++k) {
      _mm512_storeu_si512(out + 64 * k, _mm512_xor_si512(b[k], _mm512_loadu_si512(in + 64 * k)));
      c[k] = _mm512_add_epi64(c[k], step16);
    }
  }
  // The rest, four blocks at a time, the last piece through masked loads and stores (no read or write past len).
  for (; len > 0; c[0] = _mm512_add_epi64(c[0], step4)) {
    const std::size_t n = std::min<std::size_t>(len, 64);
    const __mmask64 bytes = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
    __m512i keystream = _mm512_shuffle_epi8(c[0], reverse);
    vaes::rounds<Rounds, true, 1>(&keystream, rk);
    _mm512_mask_storeu_epi8(out, bytes, _mm512_xor_si512(keystream, _mm512_maskz_loadu_epi8(bytes, in)));
    len -= n, in += n, out += n;
  }
}

template <int Rounds>
void ctr(const std::uint8_t round_keys[15][16], const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  __m512i rk[15];
  vaes::broadcast_schedule<Rounds>(round_keys, rk);
  std::uint64_t hi = load_be64(iv), lo = load_be64(iv + 8);
  while (len > 0) {
    // Blocks until the low half wraps (2^64 - lo; lo == 0: more than any length).
    const std::uint64_t until_wrap = 0 - lo;
    const std::size_t blocks = (len + 15) / 16;
    const std::size_t take = until_wrap != 0 && until_wrap < blocks ? static_cast<std::size_t>(until_wrap) : blocks;
    const std::size_t bytes = std::min(len, 16 * take);
    ctr_stretch<Rounds>(rk, hi, lo, in, out, bytes);
    lo += take;
    hi += lo == 0 ? 1 : 0;  // the counter is public: a branch on it is fine
    len -= bytes, in += bytes, out += bytes;
  }
  vaes::wipe_schedule(rk);
}

}  // namespace

void aes_ctr_vaes_run(const CipherSpec& spec, CipherJob& job) {
  alignas(16) std::uint8_t rk[15][16];
  const std::size_t len = job.in.size();
  if (spec.cipher == BlockCipher::aes128) {
    aes_schedule::expand128(job.key.data(), rk);
    ctr<10>(rk, job.iv.data(), job.in.data(), job.out.data(), len);
  } else {
    aes_schedule::expand256(job.key.data(), rk);
    ctr<14>(rk, job.iv.data(), job.in.data(), job.out.data(), len);
  }
  secure_wipe(rk, sizeof rk);
  job.out_len = len;
  job.status = JobStatus::ok;
}

}  // namespace cryptaccel::cpu

#pragma GCC pop_options
