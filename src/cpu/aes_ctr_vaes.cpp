// See aes_ctr_vaes.hpp.
#include "cpu/aes_ctr_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "cpu/aes_key_schedule.hpp"
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

/// Four blocks (one register) through every round: the key schedule broadcast to each 128-bit lane.
template <int Rounds>
inline __m512i encrypt4(__m512i b, const __m512i* rk) {
  b = _mm512_xor_si512(b, rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < Rounds; ++r) b = _mm512_aesenc_epi128(b, rk[r]);
  return _mm512_aesenclast_epi128(b, rk[Rounds]);
}

/// CTR over `len` bytes from counter (hi, lo), whose low half does not wrap before the last block.
template <int Rounds>
void ctr_stretch(const __m512i* rk, std::uint64_t hi, std::uint64_t lo, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  const __m512i reverse = _mm512_load_si512(kReverseLanes);
  const __m512i step4 = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
  const __m512i step16 = _mm512_set_epi64(0, 16, 0, 16, 0, 16, 0, 16);
  const auto h = static_cast<long long>(hi);
  __m512i c0 = _mm512_set_epi64(h, static_cast<long long>(lo + 3), h, static_cast<long long>(lo + 2), h,
                                static_cast<long long>(lo + 1), h, static_cast<long long>(lo));
  __m512i c1 = _mm512_add_epi64(c0, step4), c2 = _mm512_add_epi64(c1, step4), c3 = _mm512_add_epi64(c2, step4);
  // Sixteen blocks at a time: four independent registers through each round key.
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i b0 = _mm512_xor_si512(_mm512_shuffle_epi8(c0, reverse), rk[0]);
    __m512i b1 = _mm512_xor_si512(_mm512_shuffle_epi8(c1, reverse), rk[0]);
    __m512i b2 = _mm512_xor_si512(_mm512_shuffle_epi8(c2, reverse), rk[0]);
    __m512i b3 = _mm512_xor_si512(_mm512_shuffle_epi8(c3, reverse), rk[0]);
#pragma GCC unroll 14
    for (int r = 1; r < Rounds; ++r) {
      b0 = _mm512_aesenc_epi128(b0, rk[r]);
      b1 = _mm512_aesenc_epi128(b1, rk[r]);
      b2 = _mm512_aesenc_epi128(b2, rk[r]);
      b3 = _mm512_aesenc_epi128(b3, rk[r]);
    }
    b0 = _mm512_aesenclast_epi128(b0, rk[Rounds]);
    b1 = _mm512_aesenclast_epi128(b1, rk[Rounds]);
    b2 = _mm512_aesenclast_epi128(b2, rk[Rounds]);
    b3 = _mm512_aesenclast_epi128(b3, rk[Rounds]);
    _mm512_storeu_si512(out, _mm512_xor_si512(b0, _mm512_loadu_si512(in)));
    _mm512_storeu_si512(out + 64, _mm512_xor_si512(b1, _mm512_loadu_si512(in + 64)));
    _mm512_storeu_si512(out + 128, _mm512_xor_si512(b2, _mm512_loadu_si512(in + 128)));
    _mm512_storeu_si512(out + 192, _mm512_xor_si512(b3, _mm512_loadu_si512(in + 192)));
    c0 = _mm512_add_epi64(c0, step16), c1 = _mm512_add_epi64(c1, step16);
    c2 = _mm512_add_epi64(c2, step16), c3 = _mm512_add_epi64(c3, step16);
  }
  // The rest, four blocks at a time, the last piece through masked loads and stores (no read or write past len).
  for (; len > 0; c0 = _mm512_add_epi64(c0, step4)) {
    const std::size_t n = std::min<std::size_t>(len, 64);
    const __mmask64 bytes = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
    const __m512i keystream = encrypt4<Rounds>(_mm512_shuffle_epi8(c0, reverse), rk);
    _mm512_mask_storeu_epi8(out, bytes, _mm512_xor_si512(keystream, _mm512_maskz_loadu_epi8(bytes, in)));
    len -= n, in += n, out += n;
  }
}

template <int Rounds>
void ctr(const std::uint8_t round_keys[15][16], const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
         std::size_t len) {
  __m512i rk[15];
  for (int r = 0; r <= Rounds; ++r)
    rk[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(round_keys[r])));
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
  for (__m512i& k : rk) k = _mm512_setzero_si512();
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
