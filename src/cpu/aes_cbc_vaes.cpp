// See aes_cbc_vaes.hpp.
#include "cpu/aes_cbc_vaes.hpp"

// GCC 12's AVX-512 intrinsics build results from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports
// (a false positive in the compiler's own headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "cpu/aes_key_schedule.hpp"
#include "cpu/cpu_features.hpp"

namespace cryptaccel::cpu {

bool aes_cbc_vaes_serves(const CipherSpec& spec) {
  static const bool available = [] {
    const CpuFeatures& f = cpu_features();
    return f.aesni && f.avx512f && f.avx512bw && f.vaes;
  }();
  return available && spec.mode == Mode::cbc &&
         (spec.cipher == BlockCipher::aes128 || spec.cipher == BlockCipher::aes256);
}

}  // namespace cryptaccel::cpu

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,vaes,aes,sse4.1")

namespace cryptaccel::cpu {
namespace {

/// The 128-bit lanes of `hi:lo` one lane up: lane 0 takes lo's lane 3 (the block before hi's first).
inline __m512i previous_blocks(__m512i hi, __m512i lo) { return _mm512_alignr_epi64(hi, lo, 6); }

template <int Rounds>
void cbc_decrypt(const std::uint8_t dk[15][16], const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len) {
  __m512i rk[15];
  for (int r = 0; r <= Rounds; ++r)
    rk[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(dk[r])));
  // `last` holds the ciphertext block before the next one to decrypt in its top lane (the IV at first).
  __m512i last = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(iv)));
  for (; len >= 256; len -= 256, in += 256, out += 256) {
    __m512i c[4], b[4];
    for (int k = 0; k < 4; ++k) c[k] = _mm512_loadu_si512(in + 64 * k);  // all loaded before any store: in place
    for (int k = 0; k < 4; ++k) b[k] = _mm512_xor_si512(c[k], rk[0]);
#pragma GCC unroll 14
    for (int r = 1; r < Rounds; ++r)
      for (int k = 0; k < 4; ++k) b[k] = _mm512_aesdec_epi128(b[k], rk[r]);
    for (int k = 0; k < 4; ++k) b[k] = _mm512_aesdeclast_epi128(b[k], rk[Rounds]);
    _mm512_storeu_si512(out, _mm512_xor_si512(b[0], previous_blocks(c[0], last)));
    for (int k = 1; k < 4; ++k) _mm512_storeu_si512(out + 64 * k, _mm512_xor_si512(b[k], previous_blocks(c[k], c[k - 1])));
    last = c[3];
  }
  // The rest, four blocks at a time, the last group through masked loads and stores (len is whole blocks).
  for (; len > 0;) {
    const std::size_t n = len < 64 ? len : 64;
    const __mmask8 lanes = static_cast<__mmask8>((1u << (n / 8)) - 1);  // 64-bit lanes: two per block
    const __m512i c = _mm512_maskz_loadu_epi64(lanes, in);
    __m512i b = _mm512_xor_si512(c, rk[0]);
#pragma GCC unroll 14
    for (int r = 1; r < Rounds; ++r) b = _mm512_aesdec_epi128(b, rk[r]);
    b = _mm512_aesdeclast_epi128(b, rk[Rounds]);
    _mm512_mask_storeu_epi64(out, lanes, _mm512_xor_si512(b, previous_blocks(c, last)));
    // The block before the next group is this group's top lane: a group short of four blocks is the last one.
    last = c;
    len -= n, in += n, out += n;
  }
  for (__m512i& k : rk) k = _mm512_setzero_si512();
}

}  // namespace

void aes_cbc_vaes_decrypt(bytes_view key, const std::uint8_t iv[16], const std::uint8_t* in, std::uint8_t* out,
                          std::size_t len) {
  alignas(16) std::uint8_t ek[15][16], dk[15][16];
  if (key.size() == 16) {
    aes_schedule::expand128(key.data(), ek);
    aes_schedule::inverse_schedule(ek, 10, dk);
    cbc_decrypt<10>(dk, iv, in, out, len);
  } else {
    aes_schedule::expand256(key.data(), ek);
    aes_schedule::inverse_schedule(ek, 14, dk);
    cbc_decrypt<14>(dk, iv, in, out, len);
  }
  secure_wipe(ek, sizeof ek);
  secure_wipe(dk, sizeof dk);
}

}  // namespace cryptaccel::cpu

#pragma GCC pop_options
