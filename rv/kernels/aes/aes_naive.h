/* software-naive AES: byte-wise state, S-box lookups per byte, ShiftRows by byte moves, MixColumns with xtime,
 * byte-wise key expansion (the "naive reading of the specification" software of seed 000). */
#ifndef CA_RV_AES_NAIVE_H
#define CA_RV_AES_NAIVE_H

#include "aes_common.h"
#include "aes_sbox_init.h"

static uint8_t aes_sbox[256], aes_inv_sbox[256];

AES_API void aes_init(void) { aes_compute_sboxes(aes_sbox, aes_inv_sbox); }

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* w) {
  for (unsigned i = 0; i < AES_KEY_BYTES; ++i) w[i] = key[i];
  for (unsigned i = AES_NK; i < 4 * (AES_NR + 1); ++i) {
    uint8_t t[4] = {w[4 * i - 4], w[4 * i - 3], w[4 * i - 2], w[4 * i - 1]};
    if (i % AES_NK == 0) {
      uint8_t t0 = t[0]; /* RotWord */
      t[0] = t[1];
      t[1] = t[2];
      t[2] = t[3];
      t[3] = t0;
      for (unsigned b = 0; b < 4; ++b) t[b] = aes_sbox[t[b]]; /* SubWord */
      t[0] ^= aes_rcon[i / AES_NK - 1];
    } else if (AES_NK > 6 && i % AES_NK == 4) {
      for (unsigned b = 0; b < 4; ++b) t[b] = aes_sbox[t[b]];
    }
    for (unsigned b = 0; b < 4; ++b) w[4 * i + b] = w[4 * (i - AES_NK) + b] ^ t[b];
  }
}

/* Multiplications by the InvMixColumns coefficients from xtime chains. */
static inline uint8_t aes_mul9(uint8_t x) { return aes_xtime(aes_xtime(aes_xtime(x))) ^ x; }
static inline uint8_t aes_mul11(uint8_t x) { return aes_xtime(aes_xtime(aes_xtime(x))) ^ aes_xtime(x) ^ x; }
static inline uint8_t aes_mul13(uint8_t x) { return aes_xtime(aes_xtime(aes_xtime(x))) ^ aes_xtime(aes_xtime(x)) ^ x; }
static inline uint8_t aes_mul14(uint8_t x) {
  return aes_xtime(aes_xtime(aes_xtime(x))) ^ aes_xtime(aes_xtime(x)) ^ aes_xtime(x);
}

static void aes_inv_mix_columns(uint8_t* s) {
  for (unsigned c = 0; c < 4; ++c) {
    uint8_t* a = s + 4 * c;
    uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    a[0] = aes_mul14(a0) ^ aes_mul11(a1) ^ aes_mul13(a2) ^ aes_mul9(a3);
    a[1] = aes_mul9(a0) ^ aes_mul14(a1) ^ aes_mul11(a2) ^ aes_mul13(a3);
    a[2] = aes_mul13(a0) ^ aes_mul9(a1) ^ aes_mul14(a2) ^ aes_mul11(a3);
    a[3] = aes_mul11(a0) ^ aes_mul13(a1) ^ aes_mul9(a2) ^ aes_mul14(a3);
  }
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* w) {
  aes_expand_enc(key, w);
  for (unsigned r = 1; r < AES_NR; ++r) aes_inv_mix_columns(w + 16 * r);
}

static void aes_mix_columns(uint8_t* s) {
  for (unsigned c = 0; c < 4; ++c) {
    uint8_t* a = s + 4 * c;
    uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    uint8_t t = a0 ^ a1 ^ a2 ^ a3;
    a[0] = a0 ^ t ^ aes_xtime(a0 ^ a1);
    a[1] = a1 ^ t ^ aes_xtime(a1 ^ a2);
    a[2] = a2 ^ t ^ aes_xtime(a2 ^ a3);
    a[3] = a3 ^ t ^ aes_xtime(a3 ^ a0);
  }
}

/* State byte (row r, column c) is s[r + 4c]; ShiftRows moves row r left by r columns. */
static void aes_sub_shift_rows(uint8_t* s) {
  uint8_t t[16];
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned r = 0; r < 4; ++r) t[r + 4 * c] = aes_sbox[s[r + 4 * ((c + r) & 3)]];
  for (unsigned i = 0; i < 16; ++i) s[i] = t[i];
}

static void aes_inv_sub_shift_rows(uint8_t* s) {
  uint8_t t[16];
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned r = 0; r < 4; ++r) t[r + 4 * ((c + r) & 3)] = aes_inv_sbox[s[r + 4 * c]];
  for (unsigned i = 0; i < 16; ++i) s[i] = t[i];
}

static inline void aes_add_round_key(uint8_t* s, const uint8_t* k) {
  for (unsigned i = 0; i < 16; ++i) s[i] ^= k[i];
}

AES_API void aes_encrypt_block(const uint8_t* w, const uint8_t* in, uint8_t* out) {
  uint8_t s[16];
  for (unsigned i = 0; i < 16; ++i) s[i] = in[i];
  aes_add_round_key(s, w);
  for (unsigned r = 1; r < AES_NR; ++r) {
    aes_sub_shift_rows(s);
    aes_mix_columns(s);
    aes_add_round_key(s, w + 16 * r);
  }
  aes_sub_shift_rows(s);
  aes_add_round_key(s, w + 16 * AES_NR);
  for (unsigned i = 0; i < 16; ++i) out[i] = s[i];
}

/* The equivalent inverse cipher (FIPS-197 5.3.5) with the schedule of aes_expand_dec. */
AES_API void aes_decrypt_block(const uint8_t* dw, const uint8_t* in, uint8_t* out) {
  uint8_t s[16];
  for (unsigned i = 0; i < 16; ++i) s[i] = in[i];
  aes_add_round_key(s, dw + 16 * AES_NR);
  for (unsigned r = AES_NR - 1; r > 0; --r) {
    aes_inv_sub_shift_rows(s);
    aes_inv_mix_columns(s);
    aes_add_round_key(s, dw + 16 * r);
  }
  aes_inv_sub_shift_rows(s);
  aes_add_round_key(s, dw);
  for (unsigned i = 0; i < 16; ++i) out[i] = s[i];
}

#endif
