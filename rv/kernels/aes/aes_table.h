/* software-table and hybrid AES: one 256-entry 32-bit T-table per direction (Daemen-Rijmen single-table form, as in
 * seed 000's software kernel), the other three tables replaced by rotations of the first. Columns are little-endian
 * words (row 0 in the low byte), so RotWord is a rotate right by 8 and "row r moves to row r+1" a rotate left by 8.
 * software-table rotates with shifts; hybrid with Zbb/Zbkb ror/rori (ca_ror32), which is all that differs.
 *   Te0[x] = (2·S(x), S(x), S(x), 3·S(x))         rows 0..3
 *   Td0[x] = (14·Si(x), 9·Si(x), 13·Si(x), 11·Si(x))
 * The last encryption round takes S(x) from byte 1 of Te0[x]; the last decryption round uses a 256-byte inverse S-box. */
#ifndef CA_RV_AES_TABLE_H
#define CA_RV_AES_TABLE_H

#include "aes_common.h"
#include "aes_sbox_init.h"

static uint32_t aes_te0[256], aes_td0[256];
static uint8_t aes_inv_sbox[256];

AES_API void aes_init(void) {
  uint8_t sbox[256];
  aes_compute_sboxes(sbox, aes_inv_sbox);
  for (unsigned x = 0; x < 256; ++x) {
    uint8_t s = sbox[x], s2 = aes_xtime(s);
    aes_te0[x] = (uint32_t)s2 | (uint32_t)s << 8 | (uint32_t)s << 16 | (uint32_t)(s2 ^ s) << 24;
    uint8_t i = aes_inv_sbox[x], i2 = aes_xtime(i), i4 = aes_xtime(i2), i8 = aes_xtime(i4);
    aes_td0[x] = (uint32_t)(i8 ^ i4 ^ i2) | (uint32_t)(i8 ^ i) << 8 | (uint32_t)(i8 ^ i4 ^ i) << 16 |
                 (uint32_t)(i8 ^ i2 ^ i) << 24;
  }
}

#define ROL8(x) ca_ror32((x), 24)
#define ROL16(x) ca_ror32((x), 16)
#define ROL24(x) ca_ror32((x), 8)
#define B0(x) ((x) & 0xff)
#define B1(x) (((x) >> 8) & 0xff)
#define B2(x) (((x) >> 16) & 0xff)
#define B3(x) ((x) >> 24)
#define SBOX(x) ((aes_te0[(x)] >> 8) & 0xff)

static inline uint32_t aes_sub_word(uint32_t w) {
  return SBOX(B0(w)) | SBOX(B1(w)) << 8 | SBOX(B2(w)) << 16 | SBOX(B3(w)) << 24;
}

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* ks) {
  uint32_t* w = (uint32_t*)(ca_u32a*)ks;
  const ca_u32a* k = (const ca_u32a*)key;
  for (unsigned i = 0; i < AES_NK; ++i) w[i] = k[i];
  for (unsigned i = AES_NK; i < 4 * (AES_NR + 1); ++i) {
    uint32_t t = w[i - 1];
    if (i % AES_NK == 0)
      t = aes_sub_word(ca_ror32(t, 8)) ^ aes_rcon[i / AES_NK - 1];
    else if (AES_NK > 6 && i % AES_NK == 4)
      t = aes_sub_word(t);
    w[i] = w[i - AES_NK] ^ t;
  }
}

/* InvMixColumns of one column: Td0[S(x)] = InvMixColumns of (x, 0, 0, 0) because Td0 applies Si. */
static inline uint32_t aes_inv_mix_column(uint32_t w) {
  return aes_td0[SBOX(B0(w))] ^ ROL8(aes_td0[SBOX(B1(w))]) ^ ROL16(aes_td0[SBOX(B2(w))]) ^
         ROL24(aes_td0[SBOX(B3(w))]);
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* ks) {
  aes_expand_enc(key, ks);
  uint32_t* w = (uint32_t*)(ca_u32a*)ks;
  for (unsigned i = 4; i < 4 * AES_NR; ++i) w[i] = aes_inv_mix_column(w[i]);
}

AES_API void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u32a* rk = (const ca_u32a*)ks;
  const ca_u32a* src = (const ca_u32a*)in;
  uint32_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1], s2 = src[2] ^ rk[2], s3 = src[3] ^ rk[3];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk += 4;
    uint32_t t0 = aes_te0[B0(s0)] ^ ROL8(aes_te0[B1(s1)]) ^ ROL16(aes_te0[B2(s2)]) ^ ROL24(aes_te0[B3(s3)]) ^ rk[0];
    uint32_t t1 = aes_te0[B0(s1)] ^ ROL8(aes_te0[B1(s2)]) ^ ROL16(aes_te0[B2(s3)]) ^ ROL24(aes_te0[B3(s0)]) ^ rk[1];
    uint32_t t2 = aes_te0[B0(s2)] ^ ROL8(aes_te0[B1(s3)]) ^ ROL16(aes_te0[B2(s0)]) ^ ROL24(aes_te0[B3(s1)]) ^ rk[2];
    uint32_t t3 = aes_te0[B0(s3)] ^ ROL8(aes_te0[B1(s0)]) ^ ROL16(aes_te0[B2(s1)]) ^ ROL24(aes_te0[B3(s2)]) ^ rk[3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk += 4;
  ca_u32a* dst = (ca_u32a*)out;
  dst[0] = (SBOX(B0(s0)) | SBOX(B1(s1)) << 8 | SBOX(B2(s2)) << 16 | SBOX(B3(s3)) << 24) ^ rk[0];
  dst[1] = (SBOX(B0(s1)) | SBOX(B1(s2)) << 8 | SBOX(B2(s3)) << 16 | SBOX(B3(s0)) << 24) ^ rk[1];
  dst[2] = (SBOX(B0(s2)) | SBOX(B1(s3)) << 8 | SBOX(B2(s0)) << 16 | SBOX(B3(s1)) << 24) ^ rk[2];
  dst[3] = (SBOX(B0(s3)) | SBOX(B1(s0)) << 8 | SBOX(B2(s1)) << 16 | SBOX(B3(s2)) << 24) ^ rk[3];
}

#define ISBOX(x) ((uint32_t)aes_inv_sbox[(x)])

AES_API void aes_decrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u32a* rk = (const ca_u32a*)ks + 4 * AES_NR;
  const ca_u32a* src = (const ca_u32a*)in;
  uint32_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1], s2 = src[2] ^ rk[2], s3 = src[3] ^ rk[3];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk -= 4;
    uint32_t t0 = aes_td0[B0(s0)] ^ ROL8(aes_td0[B1(s3)]) ^ ROL16(aes_td0[B2(s2)]) ^ ROL24(aes_td0[B3(s1)]) ^ rk[0];
    uint32_t t1 = aes_td0[B0(s1)] ^ ROL8(aes_td0[B1(s0)]) ^ ROL16(aes_td0[B2(s3)]) ^ ROL24(aes_td0[B3(s2)]) ^ rk[1];
    uint32_t t2 = aes_td0[B0(s2)] ^ ROL8(aes_td0[B1(s1)]) ^ ROL16(aes_td0[B2(s0)]) ^ ROL24(aes_td0[B3(s3)]) ^ rk[2];
    uint32_t t3 = aes_td0[B0(s3)] ^ ROL8(aes_td0[B1(s2)]) ^ ROL16(aes_td0[B2(s1)]) ^ ROL24(aes_td0[B3(s0)]) ^ rk[3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk -= 4;
  ca_u32a* dst = (ca_u32a*)out;
  dst[0] = (ISBOX(B0(s0)) | ISBOX(B1(s3)) << 8 | ISBOX(B2(s2)) << 16 | ISBOX(B3(s1)) << 24) ^ rk[0];
  dst[1] = (ISBOX(B0(s1)) | ISBOX(B1(s0)) << 8 | ISBOX(B2(s3)) << 16 | ISBOX(B3(s2)) << 24) ^ rk[1];
  dst[2] = (ISBOX(B0(s2)) | ISBOX(B1(s1)) << 8 | ISBOX(B2(s0)) << 16 | ISBOX(B3(s3)) << 24) ^ rk[2];
  dst[3] = (ISBOX(B0(s3)) | ISBOX(B1(s2)) << 8 | ISBOX(B2(s1)) << 16 | ISBOX(B3(s0)) << 24) ^ rk[3];
}

#endif
