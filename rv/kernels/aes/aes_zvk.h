/* zvk AES (Zvkned): the state of a block is one element group (4 x e32, the block's bytes in memory order).
 * Key schedule in memory like the other variants (w[], FIPS-197 byte order), computed with vaeskf1 (AES-128) or
 * vaeskf2 (AES-256); decryption uses the same w[] in reverse with vaesdm/vaesdf (the standard inverse cipher: Zvkned
 * applies InvMixColumns after AddRoundKey), so aes_expand_dec is aes_expand_enc.
 * One block (aes_encrypt_block, CBC/CTR) loads the round keys and runs vaesz + vaesem... + vaesef with vl = 4.
 * ECB over n blocks (aes_ecb_encrypt_many) keeps the round keys in registers and processes up to VLMAX/4 blocks per
 * instruction (LMUL = 4, the .vs forms broadcast the round key's element group to every block). */
#ifndef CA_RV_AES_ZVK_H
#define CA_RV_AES_ZVK_H

#include "aes_common.h"

#define AES_HAVE_ECB_MANY 1

typedef uint32_t __attribute__((may_alias)) zvk_u32;

AES_API void aes_init(void) {}

#define RK_LOAD(i) vuint32m1_t k##i = __riscv_vle32_v_u32m1((const zvk_u32*)ks + 4 * (i), 4)

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* ks) {
  zvk_u32* w = (zvk_u32*)ks;
  vuint32m1_t a = __riscv_vle32_v_u32m1((const zvk_u32*)key, 4);
  __riscv_vse32_v_u32m1(w, a, 4);
#if AES_KEYBITS == 128
#define KF1(r)                                  \
  a = __riscv_vaeskf1_vi_u32m1(a, (r), 4);       \
  __riscv_vse32_v_u32m1(w + 4 * (r), a, 4)
  KF1(1); KF1(2); KF1(3); KF1(4); KF1(5); KF1(6); KF1(7); KF1(8); KF1(9); KF1(10);
#undef KF1
#else
  vuint32m1_t b = __riscv_vle32_v_u32m1((const zvk_u32*)key + 4, 4);
  __riscv_vse32_v_u32m1(w + 4, b, 4);
  /* vaeskf2.vi vd, vs2, r: vd holds round key r-2 and receives round key r; vs2 holds round key r-1. */
#define KF2(r, older, newer)                                 \
  older = __riscv_vaeskf2_vi_u32m1(older, newer, (r), 4);    \
  __riscv_vse32_v_u32m1(w + 4 * (r), older, 4)
  KF2(2, a, b); KF2(3, b, a); KF2(4, a, b); KF2(5, b, a); KF2(6, a, b); KF2(7, b, a); KF2(8, a, b);
  KF2(9, b, a); KF2(10, a, b); KF2(11, b, a); KF2(12, a, b); KF2(13, b, a); KF2(14, a, b);
#undef KF2
#endif
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* ks) { aes_expand_enc(key, ks); }

#if AES_KEYBITS == 128
#define RK_ALL RK_LOAD(0); RK_LOAD(1); RK_LOAD(2); RK_LOAD(3); RK_LOAD(4); RK_LOAD(5); RK_LOAD(6); RK_LOAD(7); \
  RK_LOAD(8); RK_LOAD(9); RK_LOAD(10)
#define ENC_MIDDLE(s, T, vl) s = __riscv_vaesem_vs_u32m1_##T(s, k1, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k2, vl); \
  s = __riscv_vaesem_vs_u32m1_##T(s, k3, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k4, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k5, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k6, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k7, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k8, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k9, vl)
#define DEC_MIDDLE(s, T, vl) s = __riscv_vaesdm_vs_u32m1_##T(s, k9, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k8, vl); \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k7, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k6, vl);                        \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k5, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k4, vl);                        \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k3, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k2, vl);                        \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k1, vl)
#define K_LAST k10
#else
#define RK_ALL RK_LOAD(0); RK_LOAD(1); RK_LOAD(2); RK_LOAD(3); RK_LOAD(4); RK_LOAD(5); RK_LOAD(6); RK_LOAD(7); \
  RK_LOAD(8); RK_LOAD(9); RK_LOAD(10); RK_LOAD(11); RK_LOAD(12); RK_LOAD(13); RK_LOAD(14)
#define ENC_MIDDLE(s, T, vl) s = __riscv_vaesem_vs_u32m1_##T(s, k1, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k2, vl); \
  s = __riscv_vaesem_vs_u32m1_##T(s, k3, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k4, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k5, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k6, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k7, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k8, vl);                        \
  s = __riscv_vaesem_vs_u32m1_##T(s, k9, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k10, vl);                       \
  s = __riscv_vaesem_vs_u32m1_##T(s, k11, vl); s = __riscv_vaesem_vs_u32m1_##T(s, k12, vl);                      \
  s = __riscv_vaesem_vs_u32m1_##T(s, k13, vl)
#define DEC_MIDDLE(s, T, vl) s = __riscv_vaesdm_vs_u32m1_##T(s, k13, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k12, vl); \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k11, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k10, vl);                        \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k9, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k8, vl);                          \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k7, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k6, vl);                          \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k5, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k4, vl);                          \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k3, vl); s = __riscv_vaesdm_vs_u32m1_##T(s, k2, vl);                          \
  s = __riscv_vaesdm_vs_u32m1_##T(s, k1, vl)
#define K_LAST k14
#endif

#define ENC_ALL(s, T, vl)                               \
  s = __riscv_vaesz_vs_u32m1_##T(s, k0, vl);            \
  ENC_MIDDLE(s, T, vl);                                 \
  s = __riscv_vaesef_vs_u32m1_##T(s, K_LAST, vl)
#define DEC_ALL(s, T, vl)                               \
  s = __riscv_vaesz_vs_u32m1_##T(s, K_LAST, vl);        \
  DEC_MIDDLE(s, T, vl);                                 \
  s = __riscv_vaesdf_vs_u32m1_##T(s, k0, vl)

AES_API void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  RK_ALL;
  vuint32m1_t s = __riscv_vle32_v_u32m1((const zvk_u32*)in, 4);
  ENC_ALL(s, u32m1, 4);
  __riscv_vse32_v_u32m1((zvk_u32*)out, s, 4);
}

AES_API void aes_decrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  RK_ALL;
  vuint32m1_t s = __riscv_vle32_v_u32m1((const zvk_u32*)in, 4);
  DEC_ALL(s, u32m1, 4);
  __riscv_vse32_v_u32m1((zvk_u32*)out, s, 4);
}

/** ECB encryption of n blocks in place, VLMAX/4 blocks (e32, LMUL 4) per instruction. */
AES_API void aes_ecb_encrypt_many(const uint8_t* ks, uint8_t* data, uint32_t n) {
  RK_ALL;
  zvk_u32* p = (zvk_u32*)data;
  for (size_t left = 4 * (size_t)n; left > 0;) {
    size_t vl = __riscv_vsetvl_e32m4(left);
    vuint32m4_t s = __riscv_vle32_v_u32m4(p, vl);
    ENC_ALL(s, u32m4, vl);
    __riscv_vse32_v_u32m4(p, s, vl);
    p += vl;
    left -= vl;
  }
}

/** ECB decryption of n blocks in place. */
AES_API void aes_ecb_decrypt_many(const uint8_t* ks, uint8_t* data, uint32_t n) {
  RK_ALL;
  zvk_u32* p = (zvk_u32*)data;
  for (size_t left = 4 * (size_t)n; left > 0;) {
    size_t vl = __riscv_vsetvl_e32m4(left);
    vuint32m4_t s = __riscv_vle32_v_u32m4(p, vl);
    DEC_ALL(s, u32m4, vl);
    __riscv_vse32_v_u32m4(p, s, vl);
    p += vl;
    left -= vl;
  }
}

#endif
