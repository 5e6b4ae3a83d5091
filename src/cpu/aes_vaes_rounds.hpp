// The AES rounds on VAES (four blocks per ZMM register, one per 128-bit lane), shared by the cpu engine's VAES kernels
// (aes_ctr_vaes.cpp, aes_ecb_cbc_vaes.cpp, the XTS kernel's bulk loop in aes_xts_aesni.cpp): the schedule broadcast to
// every lane once per call, and N registers taken through each round key together (AESENC's latency is several
// cycles, its throughput one or two per cycle, so four independent registers keep the unit busy).
#pragma once
#include <immintrin.h>

#include <cstdint>

#define CA_VAES_ROUNDS __attribute__((target("avx512f,avx512bw,vaes,aes,sse4.1")))

namespace cryptaccel::cpu::vaes {

/// `keys` (Rounds + 1 round keys of 16 bytes, encryption or decryption order) broadcast to the four lanes of `rk`.
template <int Rounds>
CA_VAES_ROUNDS inline void broadcast_schedule(const std::uint8_t keys[15][16], __m512i rk[15]) {
  for (int r = 0; r <= Rounds; ++r)
    rk[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(keys[r])));
}

/// The N registers of `b` through every round: AddRoundKey, Rounds - 1 full rounds, the last round; encryption with
/// an encryption schedule, or the equivalent inverse cipher with its schedule (aes_key_schedule.hpp).
template <int Rounds, bool Enc, int N>
CA_VAES_ROUNDS inline void rounds(__m512i* b, const __m512i* rk) {
  for (int k = 0; k < N; ++k) b[k] = _mm512_xor_si512(b[k], rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < Rounds; ++r)
    for (int k = 0; k < N; ++k) b[k] = Enc ? _mm512_aesenc_epi128(b[k], rk[r]) : _mm512_aesdec_epi128(b[k], rk[r]);
  for (int k = 0; k < N; ++k)
    b[k] = Enc ? _mm512_aesenclast_epi128(b[k], rk[Rounds]) : _mm512_aesdeclast_epi128(b[k], rk[Rounds]);
}

/// Sixteen consecutive 128-bit big-endian counter blocks (CTR's and GCM's) for the counter-mode kernels
/// (aes_ctr_vaes.cpp, aes_gcm_vaes.cpp), four per register: each counter is kept as two little-endian 64-bit lanes
/// (low half, high half) so that counting is a 64-bit add, and byte-reversed into block order when used. The caller
/// keeps the low half from wrapping inside a stretch (the counter is public, so it may branch on it).
struct CounterLanes {
  __m512i c[4];  ///< blocks 4k..4k+3 of the next sixteen in c[k]

  /// Counters lo, lo + 1, ..., lo + 15 under the high half hi.
  CA_VAES_ROUNDS CounterLanes(std::uint64_t hi, std::uint64_t lo) {
    const auto h = static_cast<long long>(hi);
    c[0] = _mm512_set_epi64(h, static_cast<long long>(lo + 3), h, static_cast<long long>(lo + 2), h,
                            static_cast<long long>(lo + 1), h, static_cast<long long>(lo));
    for (int k = 1; k < 4; ++k) c[k] = _mm512_add_epi64(c[k - 1], _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4));
  }
  /// The four counter blocks of register k, in block (big-endian) byte order.
  CA_VAES_ROUNDS __m512i blocks(int k) const {
    const __m128i reverse = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_shuffle_epi8(c[k], _mm512_broadcast_i32x4(reverse));
  }
  /// On to the next sixteen.
  CA_VAES_ROUNDS void advance16() {
    for (__m512i& v : c) v = _mm512_add_epi64(v, _mm512_set_epi64(0, 16, 0, 16, 0, 16, 0, 16));
  }
};

/// Zeroes a broadcast schedule (key material in registers and their spill slots).
CA_VAES_ROUNDS inline void wipe_schedule(__m512i rk[15]) {
  for (int r = 0; r < 15; ++r) rk[r] = _mm512_setzero_si512();
}

}  // namespace cryptaccel::cpu::vaes
