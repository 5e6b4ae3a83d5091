// Constant-time bitsliced AES block function (the default AES path of the `ref` engine and the GPU's
// bitsliced kernel). Layout: 8 bit-planes of type W; block b occupies bits [16b, 16b+16) of every plane and
// its byte k (FIPS-197 input order, k = row + 4*column) sits at bit 16b + k. W = uint64_t processes 4 blocks,
// W = uint32_t 2 blocks. ShiftRows is then a per-row rotation inside 16-bit lanes and MixColumns a rotation
// inside 4-bit nibbles; SubBytes is GF(2^8) inversion on planes. No tables, no secret-dependent branches.
#pragma once
#include <cstdint>

#include "algo/aes_key_schedule.hpp"
#include "algo/aes_sbox.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// Number of 16-byte blocks one bitsliced call processes for plane type W.
template <class W>
inline constexpr int kAesLanes = static_cast<int>(sizeof(W) * 8 / 16);

/// Replicates a 16-bit pattern into every 16-bit lane of W.
template <class W>
CA_HD constexpr W rep16(unsigned pattern) {
  W r = 0;
  for (unsigned i = 0; i < sizeof(W) * 8; i += 16) r |= static_cast<W>(pattern & 0xFFFFu) << i;
  return r;
}

/// Rotates every 16-bit lane right by s (1..15): new bit q = old bit (q + s) mod 16.
template <class W>
CA_HD W rotr_lane16(W x, int s) {
  const unsigned lo = 0xFFFFu >> s;  // bits that stay in the lane after >> s
  return ((x >> s) & rep16<W>(lo)) | ((x << (16 - s)) & rep16<W>(~lo & 0xFFFFu));
}

/// Rotates every 4-bit nibble right by k (1..3): new row r of a column = old row (r + k) mod 4.
template <class W>
CA_HD W rotr_nibble(W x, int k) {
  const unsigned lo = (0xFu >> k) * 0x1111u;
  return ((x >> k) & rep16<W>(lo)) | ((x << (4 - k)) & rep16<W>(~lo & 0xFFFFu));
}

template <class W>
CA_HD W aes_shift_rows_plane(W x) {
  return (x & rep16<W>(0x1111)) | rotr_lane16(x & rep16<W>(0x2222), 4) | rotr_lane16(x & rep16<W>(0x4444), 8) |
         rotr_lane16(x & rep16<W>(0x8888), 12);
}

template <class W>
CA_HD W aes_inv_shift_rows_plane(W x) {
  return (x & rep16<W>(0x1111)) | rotr_lane16(x & rep16<W>(0x2222), 12) | rotr_lane16(x & rep16<W>(0x4444), 8) |
         rotr_lane16(x & rep16<W>(0x8888), 4);
}

/// Multiplication by x in GF(2^8) on planes (xtime): shift up one plane, fold bit 7 into bits 0, 1, 3, 4.
template <class W>
CA_HD void aes_xtime_planes(const W in[8], W out[8]) {
  const W hi = in[7];
  out[7] = in[6], out[6] = in[5], out[5] = in[4];
  out[4] = in[3] ^ hi, out[3] = in[2] ^ hi, out[2] = in[1], out[1] = in[0] ^ hi, out[0] = hi;
}

/// MixColumns: out_r = 2(a_r ^ a_(r+1)) ^ a_(r+1) ^ a_(r+2) ^ a_(r+3).
template <class W>
CA_HD void aes_mix_columns_planes(W s[8]) {
  W a1[8], t[8], xt[8];
  for (int i = 0; i < 8; ++i) {
    a1[i] = rotr_nibble(s[i], 1);
    t[i] = s[i] ^ a1[i];
  }
  aes_xtime_planes(t, xt);
  for (int i = 0; i < 8; ++i) s[i] = xt[i] ^ a1[i] ^ rotr_nibble(s[i], 2) ^ rotr_nibble(s[i], 3);
}

/// InvMixColumns = MixColumns after a_r ^= 4(a_r ^ a_(r+2)) (the 5/4 pre-multiplication of FIPS-197 decompositions).
template <class W>
CA_HD void aes_inv_mix_columns_planes(W s[8]) {
  W t[8], x2[8], x4[8];
  for (int i = 0; i < 8; ++i) t[i] = s[i] ^ rotr_nibble(s[i], 2);
  aes_xtime_planes(t, x2);
  aes_xtime_planes(x2, x4);
  for (int i = 0; i < 8; ++i) s[i] ^= x4[i];
  aes_mix_columns_planes(s);
}

/// Round keys in plane form, each replicated into every block lane of W.
template <class W>
struct AesPlaneKeys {
  W rk[15][8];
  int rounds;
};

template <class W>
CA_HD void aes_plane_keys(const AesRoundKeys& keys, AesPlaneKeys<W>& out) {
  out.rounds = keys.rounds;
  for (int r = 0; r <= keys.rounds; ++r) {
    std::uint16_t p16[8];
    std::uint8_t bits[8][16];
    for (int i = 0; i < 8; ++i) {
      p16[i] = 0;
      for (int k = 0; k < 16; ++k) bits[i][k] = (keys.bytes[r][k] >> i) & 1u;
      for (int k = 0; k < 16; ++k) p16[i] = static_cast<std::uint16_t>(p16[i] | (bits[i][k] << k));
      out.rk[r][i] = rep16<W>(p16[i]);
    }
  }
}

template <class W>
CA_HD void aes_add_round_key(W s[8], const W rk[8]) {
  for (int i = 0; i < 8; ++i) s[i] ^= rk[i];
}

/// Encrypts `n` (1..kAesLanes<W>) contiguous 16-byte blocks.
template <class W>
CA_HD void aes_encrypt_blocks_bitsliced(const AesPlaneKeys<W>& k, const std::uint8_t* in, std::uint8_t* out, int n) {
  W s[8];
  bytes_to_planes(in, 16 * n, s);
  aes_add_round_key(s, k.rk[0]);
  for (int r = 1; r < k.rounds; ++r) {
    aes_sbox_planes(s);
    for (int i = 0; i < 8; ++i) s[i] = aes_shift_rows_plane(s[i]);
    aes_mix_columns_planes(s);
    aes_add_round_key(s, k.rk[r]);
  }
  aes_sbox_planes(s);
  for (int i = 0; i < 8; ++i) s[i] = aes_shift_rows_plane(s[i]);
  aes_add_round_key(s, k.rk[k.rounds]);
  planes_to_bytes(s, 16 * n, out);
}

/// Decrypts `n` (1..kAesLanes<W>) contiguous 16-byte blocks (straight inverse cipher, FIPS-197 §5.3).
template <class W>
CA_HD void aes_decrypt_blocks_bitsliced(const AesPlaneKeys<W>& k, const std::uint8_t* in, std::uint8_t* out, int n) {
  W s[8];
  bytes_to_planes(in, 16 * n, s);
  aes_add_round_key(s, k.rk[k.rounds]);
  for (int r = k.rounds - 1; r >= 1; --r) {
    for (int i = 0; i < 8; ++i) s[i] = aes_inv_shift_rows_plane(s[i]);
    aes_inv_sbox_planes(s);
    aes_add_round_key(s, k.rk[r]);
    aes_inv_mix_columns_planes(s);
  }
  for (int i = 0; i < 8; ++i) s[i] = aes_inv_shift_rows_plane(s[i]);
  aes_inv_sbox_planes(s);
  aes_add_round_key(s, k.rk[0]);
  planes_to_bytes(s, 16 * n, out);
}

}  // namespace cryptaccel::algo
