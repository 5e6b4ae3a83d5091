/* reference AES: portable constant-time C (seed 001's role of OpenSSL's constant-time C AES). The S-box is computed,
 * not looked up: SubBytes(x) = affine(x^-1) on all bytes of a machine word at once (common/gf256_packed.h);
 * ShiftRows moves bytes between fixed positions; MixColumns and InvMixColumns are xtime combinations of the columns
 * as 32-bit words (two columns per word on RV64). Decryption is the equivalent inverse cipher with the schedule dw.
 * Nothing here branches on or indexes by key or data. */
#ifndef CA_RV_AES_REF_H
#define CA_RV_AES_REF_H

#include "../common/gf256_packed.h"
#include "aes_common.h"

#define AES_WORDS (16 / sizeof(gfw_t)) /* machine words per block */

/* Byte rotations inside each 32-bit column of a word (lane 0 = the column's first byte, in the low bits). */
#define COL_MASK_HI8 ((gfw_t)0xff000000ff000000ULL)
static inline gfw_t col_rotr8(gfw_t x) { return ((x >> 8) & ~COL_MASK_HI8) | ((x << 24) & COL_MASK_HI8); }
static inline gfw_t col_rotr16(gfw_t x) {
  const gfw_t hi = (gfw_t)0xffff0000ffff0000ULL;
  return ((x >> 16) & ~hi) | ((x << 16) & hi);
}

/** SubBytes of every byte of a word. */
static inline gfw_t ref_sub(gfw_t x) {
  gfw_t i = gf_inv(x, 0x1b);
  return i ^ gf_rotl8(i, 1) ^ gf_rotl8(i, 2) ^ gf_rotl8(i, 3) ^ gf_rotl8(i, 4) ^ GF_SPLAT(0x63);
}

/** InvSubBytes of every byte of a word: the inverse affine map, then inversion. */
static inline gfw_t ref_inv_sub(gfw_t x) {
  gfw_t a = gf_rotl8(x, 1) ^ gf_rotl8(x, 3) ^ gf_rotl8(x, 6) ^ GF_SPLAT(0x05);
  return gf_inv(a, 0x1b);
}

/** MixColumns of the columns in a word: out_i = 2a_i ^ 3a_(i+1) ^ a_(i+2) ^ a_(i+3). */
static inline gfw_t ref_mix(gfw_t x) {
  gfw_t r8 = col_rotr8(x);
  return gf_xtime(x ^ r8, 0x1b) ^ r8 ^ col_rotr16(x ^ r8);
}

/** InvMixColumns: u = 4·(a_i ^ a_(i+2)) added to a_i and a_(i+2), then MixColumns (FIPS-197's factorisation). */
static inline gfw_t ref_inv_mix(gfw_t x) {
  gfw_t u = gf_xtime(gf_xtime(x ^ col_rotr16(x), 0x1b), 0x1b);
  return ref_mix(x ^ u);
}

static inline void ref_shift_rows(uint8_t* s) {
  uint8_t t[16];
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned r = 0; r < 4; ++r) t[r + 4 * c] = s[r + 4 * ((c + r) & 3)];
  for (unsigned i = 0; i < 16; ++i) s[i] = t[i];
}

static inline void ref_inv_shift_rows(uint8_t* s) {
  uint8_t t[16];
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned r = 0; r < 4; ++r) t[r + 4 * ((c + r) & 3)] = s[r + 4 * c];
  for (unsigned i = 0; i < 16; ++i) s[i] = t[i];
}

AES_API void aes_init(void) {}

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* ks) {
  uint32_t* w = (uint32_t*)(ca_u32a*)ks;
  for (unsigned i = 0; i < AES_NK; ++i) w[i] = ca_load_le32(key + 4 * i);
  for (unsigned i = AES_NK; i < 4 * (AES_NR + 1); ++i) {
    uint32_t t = w[i - 1];
    if (i % AES_NK == 0) {
      t = (uint32_t)ref_sub((gfw_t)((t >> 8) | (t << 24))) ^ aes_rcon[i / AES_NK - 1]; /* RotWord, SubWord, Rcon */
    } else if (AES_NK > 6 && i % AES_NK == 4) {
      t = (uint32_t)ref_sub((gfw_t)t);
    }
    w[i] = w[i - AES_NK] ^ t;
  }
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* ks) {
  aes_expand_enc(key, ks);
  for (unsigned r = 1; r < AES_NR; ++r) {
    ca_uxa* k = (ca_uxa*)(ks + 16 * r);
    for (unsigned j = 0; j < AES_WORDS; ++j) k[j] = ref_inv_mix(k[j]);
  }
}

AES_API void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  gfw_t s[AES_WORDS];
  const ca_uxa* rk = (const ca_uxa*)ks;
  for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ((const ca_uxa*)in)[j] ^ rk[j];
  for (unsigned r = 1; r <= AES_NR; ++r) {
    for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ref_sub(s[j]);
    ref_shift_rows((uint8_t*)s);
    if (r != AES_NR)
      for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ref_mix(s[j]);
    for (unsigned j = 0; j < AES_WORDS; ++j) s[j] ^= rk[AES_WORDS * r + j];
  }
  for (unsigned j = 0; j < AES_WORDS; ++j) ((ca_uxa*)out)[j] = s[j];
}

AES_API void aes_decrypt_block(const uint8_t* dks, const uint8_t* in, uint8_t* out) {
  gfw_t s[AES_WORDS];
  const ca_uxa* rk = (const ca_uxa*)dks;
  for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ((const ca_uxa*)in)[j] ^ rk[AES_WORDS * AES_NR + j];
  for (unsigned r = AES_NR; r-- > 0;) {
    for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ref_inv_sub(s[j]);
    ref_inv_shift_rows((uint8_t*)s);
    if (r != 0)
      for (unsigned j = 0; j < AES_WORDS; ++j) s[j] = ref_inv_mix(s[j]);
    for (unsigned j = 0; j < AES_WORDS; ++j) s[j] ^= rk[AES_WORDS * r + j];
  }
  for (unsigned j = 0; j < AES_WORDS; ++j) ((ca_uxa*)out)[j] = s[j];
}

#endif
