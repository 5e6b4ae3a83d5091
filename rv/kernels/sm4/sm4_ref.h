/* reference SM4: portable constant-time C. τ (the S-box on the four bytes of a word) is computed as
 * S(x) = A·inv(A·x ^ C) ^ C in GF(2^8)/(x^8+x^7+x^6+x^5+x^4+x^2+1), A the circulant matrix of src/algo/sm4.hpp and
 * C = 0xD3, on all bytes of the word at once (common/gf256_packed.h). Unlike the seed's reference (OpenSSL's SM4,
 * a table S-box: "SM4 is not constant-time"), nothing here is indexed by key or data. */
#ifndef CA_RV_SM4_REF_H
#define CA_RV_SM4_REF_H

#include "../common/gf256_packed.h"
#include "sm4_common.h"

/** SM4's affine map on every byte lane: out_i = x_i ^ x_(i+1) ^ x_(i+2) ^ x_(i+5) ^ x_(i+7) ^ 0xD3_i. */
static inline gfw_t sm4_affine(gfw_t x) {
  return x ^ gf_rotl8(x, 7) ^ gf_rotl8(x, 6) ^ gf_rotl8(x, 3) ^ gf_rotl8(x, 1) ^ GF_SPLAT(0xD3);
}

static inline uint32_t sm4_tau(uint32_t x) {
  return (uint32_t)sm4_affine(gf_inv(sm4_affine((gfw_t)x), 0xF5));
}

static inline uint32_t rol32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

SM4_API void sm4_expand(const uint8_t* key, uint8_t* ks_enc, uint8_t* ks_dec) {
  uint32_t* rk = (uint32_t*)(ca_u32a*)ks_enc;
  uint32_t* drk = (uint32_t*)(ca_u32a*)ks_dec;
  uint32_t k[4];
  for (unsigned i = 0; i < 4; ++i) k[i] = sm4_load_be32(key + 4 * i) ^ sm4_fk[i];
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t ck = 0;
    for (unsigned j = 0; j < 4; ++j) ck = (ck << 8) | (((4 * i + j) * 7) & 0xff);
    uint32_t b = sm4_tau(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck);
    k[i & 3] ^= b ^ rol32(b, 13) ^ rol32(b, 23);
    rk[i] = k[i & 3];
  }
  for (unsigned i = 0; i < 32; ++i) drk[i] = rk[31 - i];
}

/** One block with the round keys rk[0..31] in the order given (reversed for decryption). */
SM4_API void sm4_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const uint32_t* rk = (const uint32_t*)(const ca_u32a*)ks;
  uint32_t x[4];
  for (unsigned i = 0; i < 4; ++i) x[i] = sm4_load_be32(in + 4 * i);
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t b = sm4_tau(x[(i + 1) & 3] ^ x[(i + 2) & 3] ^ x[(i + 3) & 3] ^ rk[i]);
    x[i & 3] ^= b ^ rol32(b, 2) ^ rol32(b, 10) ^ rol32(b, 18) ^ rol32(b, 24);
  }
  for (unsigned i = 0; i < 4; ++i) sm4_store_be32(out + 4 * i, x[3 - i]);
}

#endif
