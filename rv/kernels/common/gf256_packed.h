/* Constant-time GF(2^8) arithmetic on the bytes of a machine word in parallel (4 bytes on RV32, 8 on RV64), for the
 * `reference` variant's S-boxes: no table, no data-dependent branch or index. The field is GF(2)[x]/(x^8 + poly),
 * `poly` the low 8 bits of the reduction polynomial (0x1B for AES, 0xF5 for SM4).
 *
 * Inversion is x^254 by the addition chain 2, 3, 6, 12, 15, 240, 252, 254 (7 squarings and 4 multiplications, every
 * one a full shift-and-add multiplication of 8 steps); 0 maps to 0 as the S-boxes require. */
#ifndef CA_RV_GF256_PACKED_H
#define CA_RV_GF256_PACKED_H

#include <stdint.h>

typedef uintptr_t gfw_t; /* one byte lane per byte of the word */

#define GF_L01 ((gfw_t)0x0101010101010101ULL)
#define GF_L7F ((gfw_t)0x7f7f7f7f7f7f7f7fULL)

/** x * a in every byte lane. */
static inline gfw_t gf_xtime(gfw_t a, unsigned poly) {
  return ((a & GF_L7F) << 1) ^ (((a >> 7) & GF_L01) * (gfw_t)poly);
}

/** a * b in every byte lane: 8 conditional additions done with masks. */
static inline gfw_t gf_mul(gfw_t a, gfw_t b, unsigned poly) {
  gfw_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    gfw_t m = (b >> i) & GF_L01;
    m = (m << 8) - m; /* 0xFF in each lane whose bit i of b is set (the top lane's carry falls off the word) */
    r ^= a & m;
    a = gf_xtime(a, poly);
  }
  return r;
}

/** a^-1 in every byte lane (0 for 0). */
static inline gfw_t gf_inv(gfw_t x, unsigned poly) {
  gfw_t x2 = gf_mul(x, x, poly);
  gfw_t x3 = gf_mul(x2, x, poly);
  gfw_t x6 = gf_mul(x3, x3, poly);
  gfw_t x12 = gf_mul(x6, x6, poly);
  gfw_t x15 = gf_mul(x12, x3, poly);
  gfw_t x240 = x15;
  for (int i = 0; i < 4; ++i) x240 = gf_mul(x240, x240, poly);
  gfw_t x252 = gf_mul(x240, x12, poly);
  return gf_mul(x252, x2, poly);
}

/** Rotation left by k (0 < k < 8) of every byte lane. */
static inline gfw_t gf_rotl8(gfw_t x, unsigned k) {
  const gfw_t lo = GF_L01 * (gfw_t)((1u << k) - 1u); /* the k low bits of each lane */
  return ((x << k) & ~lo) | ((x >> (8 - k)) & lo);
}

/** A byte constant in every lane. */
#define GF_SPLAT(c) (GF_L01 * (gfw_t)(c))

#endif
