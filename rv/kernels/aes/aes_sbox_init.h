/* The AES S-box and its inverse, computed at start-up (outside the measured region) for the software variants:
 * walking GF(2^8)* with the generator 3 and its inverse at the same time gives each element's inverse, to which the
 * affine map of FIPS-197 5.1.1 is applied. */
#ifndef CA_RV_AES_SBOX_INIT_H
#define CA_RV_AES_SBOX_INIT_H

#include <stdint.h>

static inline uint8_t aes_rotl8(uint8_t x, unsigned n) { return (uint8_t)((x << n) | (x >> (8 - n))); }

static void aes_compute_sboxes(uint8_t sbox[256], uint8_t inv_sbox[256]) {
  uint8_t p = 1, q = 1;
  do {
    p = (uint8_t)(p ^ (p << 1) ^ ((p & 0x80) ? 0x1b : 0)); /* p *= 3 */
    q ^= (uint8_t)(q << 1);                                /* q /= 3 */
    q ^= (uint8_t)(q << 2);
    q ^= (uint8_t)(q << 4);
    if (q & 0x80) q ^= 0x09;
    /* q = p^-1; the affine transformation of FIPS-197 (5.1). */
    uint8_t s = (uint8_t)(q ^ aes_rotl8(q, 1) ^ aes_rotl8(q, 2) ^ aes_rotl8(q, 3) ^ aes_rotl8(q, 4) ^ 0x63);
    sbox[p] = s;
  } while (p != 1);
  sbox[0] = 0x63;
  for (unsigned i = 0; i < 256; ++i) inv_sbox[sbox[i]] = (uint8_t)i;
}

#endif
