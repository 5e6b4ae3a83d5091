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

/// Zeroes a broadcast schedule (key material in registers and their spill slots).
CA_VAES_ROUNDS inline void wipe_schedule(__m512i rk[15]) {
  for (int r = 0; r < 15; ++r) rk[r] = _mm512_setzero_si512();
}

}  // namespace cryptaccel::cpu::vaes
