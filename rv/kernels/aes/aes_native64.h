/* native AES on RV64 with Zkne/Zknd: the state is two 64-bit halves (columns 0-1, 2-3); aes64esm/aes64es give one
 * half of a round from both, aes64dsm/aes64ds the same for the equivalent inverse cipher. Key expansion with
 * aes64ks1i (RotWord/SubWord/Rcon of the high word; rnum 0xA = SubWord only, AES-256's middle step) and aes64ks2 (the
 * XOR chain); the decryption round keys with aes64im. rnum must be an immediate, hence the unrolled macros. */
#ifndef CA_RV_AES_NATIVE64_H
#define CA_RV_AES_NATIVE64_H

#include "aes_common.h"

#if __riscv_xlen != 64 || !defined(__riscv_zkne) || !defined(__riscv_zknd)
#error "aes_native64.h needs RV64 with Zkne and Zknd"
#endif

AES_API void aes_init(void) {}

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* ks) {
  uint64_t* rk = (uint64_t*)(ca_u64a*)ks;
  const ca_u64a* k = (const ca_u64a*)key;
#if AES_KEYBITS == 128
  rk[0] = k[0];
  rk[1] = k[1];
#define AES128_STEP(i)                                   \
  do {                                                   \
    uint64_t t = __riscv_aes64ks1i(rk[2 * (i) + 1], (i)); \
    rk[2 * (i) + 2] = __riscv_aes64ks2(t, rk[2 * (i)]);   \
    rk[2 * (i) + 3] = __riscv_aes64ks2(rk[2 * (i) + 2], rk[2 * (i) + 1]); \
  } while (0)
  AES128_STEP(0);
  AES128_STEP(1);
  AES128_STEP(2);
  AES128_STEP(3);
  AES128_STEP(4);
  AES128_STEP(5);
  AES128_STEP(6);
  AES128_STEP(7);
  AES128_STEP(8);
  AES128_STEP(9);
#undef AES128_STEP
#else
  rk[0] = k[0];
  rk[1] = k[1];
  rk[2] = k[2];
  rk[3] = k[3];
  /* Step i derives w[8i+8 .. 8i+15] (rk[4i+4 .. 4i+7]); the last step (i = 6) needs only its first half. */
#define AES256_HALF1(i)                                                      \
  do {                                                                       \
    uint64_t t = __riscv_aes64ks1i(rk[4 * (i) + 3], (i));                    \
    rk[4 * (i) + 4] = __riscv_aes64ks2(t, rk[4 * (i)]);                      \
    rk[4 * (i) + 5] = __riscv_aes64ks2(rk[4 * (i) + 4], rk[4 * (i) + 1]);    \
  } while (0)
#define AES256_HALF2(i)                                                      \
  do {                                                                       \
    uint64_t t = __riscv_aes64ks1i(rk[4 * (i) + 5], 0xA);                    \
    rk[4 * (i) + 6] = __riscv_aes64ks2(t, rk[4 * (i) + 2]);                  \
    rk[4 * (i) + 7] = __riscv_aes64ks2(rk[4 * (i) + 6], rk[4 * (i) + 3]);    \
  } while (0)
  AES256_HALF1(0);
  AES256_HALF2(0);
  AES256_HALF1(1);
  AES256_HALF2(1);
  AES256_HALF1(2);
  AES256_HALF2(2);
  AES256_HALF1(3);
  AES256_HALF2(3);
  AES256_HALF1(4);
  AES256_HALF2(4);
  AES256_HALF1(5);
  AES256_HALF2(5);
  AES256_HALF1(6);
#undef AES256_HALF1
#undef AES256_HALF2
#endif
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* ks) {
  aes_expand_enc(key, ks);
  uint64_t* rk = (uint64_t*)(ca_u64a*)ks;
  for (unsigned i = 2; i < 2 * AES_NR; ++i) rk[i] = __riscv_aes64im(rk[i]);
}

AES_API void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u64a* rk = (const ca_u64a*)ks;
  const ca_u64a* src = (const ca_u64a*)in;
  uint64_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk += 2;
    uint64_t n0 = __riscv_aes64esm(s0, s1) ^ rk[0];
    uint64_t n1 = __riscv_aes64esm(s1, s0) ^ rk[1];
    s0 = n0;
    s1 = n1;
  }
  rk += 2;
  ca_u64a* dst = (ca_u64a*)out;
  dst[0] = __riscv_aes64es(s0, s1) ^ rk[0];
  dst[1] = __riscv_aes64es(s1, s0) ^ rk[1];
}

AES_API void aes_decrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u64a* rk = (const ca_u64a*)ks + 2 * AES_NR;
  const ca_u64a* src = (const ca_u64a*)in;
  uint64_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk -= 2;
    uint64_t n0 = __riscv_aes64dsm(s0, s1) ^ rk[0];
    uint64_t n1 = __riscv_aes64dsm(s1, s0) ^ rk[1];
    s0 = n0;
    s1 = n1;
  }
  rk -= 2;
  ca_u64a* dst = (ca_u64a*)out;
  dst[0] = __riscv_aes64ds(s0, s1) ^ rk[0];
  dst[1] = __riscv_aes64ds(s1, s0) ^ rk[1];
}

#endif
