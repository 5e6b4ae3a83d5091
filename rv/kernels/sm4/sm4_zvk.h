/* zvk SM4 (Zvksed + Zvkb): a block is one element group of 4 x e32 holding the big-endian words X0..X3 (loaded bytes
 * byte-reversed with vrev8). Key expansion: vsm4k.vi four round keys at a time (8 instructions); vsm4r.vs runs four
 * rounds with the round keys of one group. The result X35..X32 is put back in order with vrgather (index vid ^ 3,
 * which reverses the words of every group) and vrev8. The decryption schedule is the encryption one reversed. */
#ifndef CA_RV_SM4_ZVK_H
#define CA_RV_SM4_ZVK_H

#include "sm4_common.h"

#define SM4_HAVE_ECB_MANY 1

typedef uint32_t __attribute__((may_alias)) zvk_u32;

SM4_API void sm4_expand(const uint8_t* key, uint8_t* ks_enc, uint8_t* ks_dec) {
  zvk_u32* rk = (zvk_u32*)ks_enc;
  zvk_u32* drk = (zvk_u32*)ks_dec;
  vuint32m1_t k = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)key, 4), 4);
  k = __riscv_vxor_vv_u32m1(k, __riscv_vle32_v_u32m1(sm4_fk, 4), 4);
  vuint32m1_t rev = __riscv_vxor_vx_u32m1(__riscv_vid_v_u32m1(4), 3, 4);
#define SM4K(r)                                                                      \
  k = __riscv_vsm4k_vi_u32m1(k, (r), 4);                                             \
  __riscv_vse32_v_u32m1(rk + 4 * (r), k, 4);                                         \
  __riscv_vse32_v_u32m1(drk + 4 * (7 - (r)), __riscv_vrgather_vv_u32m1(k, rev, 4), 4)
  SM4K(0); SM4K(1); SM4K(2); SM4K(3); SM4K(4); SM4K(5); SM4K(6); SM4K(7);
#undef SM4K
}

#define SM4_RK_ALL                                                                                           \
  const zvk_u32* rkp = (const zvk_u32*)ks;                                                                   \
  vuint32m1_t k0 = __riscv_vle32_v_u32m1(rkp, 4), k1 = __riscv_vle32_v_u32m1(rkp + 4, 4);                   \
  vuint32m1_t k2 = __riscv_vle32_v_u32m1(rkp + 8, 4), k3 = __riscv_vle32_v_u32m1(rkp + 12, 4);              \
  vuint32m1_t k4 = __riscv_vle32_v_u32m1(rkp + 16, 4), k5 = __riscv_vle32_v_u32m1(rkp + 20, 4);             \
  vuint32m1_t k6 = __riscv_vle32_v_u32m1(rkp + 24, 4), k7 = __riscv_vle32_v_u32m1(rkp + 28, 4)
#define SM4_ROUNDS(s, T, vl)                                                                                 \
  s = __riscv_vsm4r_vs_u32m1_##T(s, k0, vl); s = __riscv_vsm4r_vs_u32m1_##T(s, k1, vl);                      \
  s = __riscv_vsm4r_vs_u32m1_##T(s, k2, vl); s = __riscv_vsm4r_vs_u32m1_##T(s, k3, vl);                      \
  s = __riscv_vsm4r_vs_u32m1_##T(s, k4, vl); s = __riscv_vsm4r_vs_u32m1_##T(s, k5, vl);                      \
  s = __riscv_vsm4r_vs_u32m1_##T(s, k6, vl); s = __riscv_vsm4r_vs_u32m1_##T(s, k7, vl)

SM4_API void sm4_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  SM4_RK_ALL;
  vuint32m1_t s = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)in, 4), 4);
  SM4_ROUNDS(s, u32m1, 4);
  vuint32m1_t rev = __riscv_vxor_vx_u32m1(__riscv_vid_v_u32m1(4), 3, 4);
  s = __riscv_vrev8_v_u32m1(__riscv_vrgather_vv_u32m1(s, rev, 4), 4);
  __riscv_vse32_v_u32m1((zvk_u32*)out, s, 4);
}

/** ECB over n blocks in place, VLMAX/4 blocks (e32, LMUL 4) per instruction. */
SM4_API void sm4_ecb_many(const uint8_t* ks, uint8_t* data, uint32_t n) {
  SM4_RK_ALL;
  zvk_u32* p = (zvk_u32*)data;
  for (size_t left = 4 * (size_t)n; left > 0;) {
    size_t vl = __riscv_vsetvl_e32m4(left);
    vuint32m4_t s = __riscv_vrev8_v_u32m4(__riscv_vle32_v_u32m4(p, vl), vl);
    SM4_ROUNDS(s, u32m4, vl);
    vuint32m4_t rev = __riscv_vxor_vx_u32m4(__riscv_vid_v_u32m4(vl), 3, vl);
    s = __riscv_vrev8_v_u32m4(__riscv_vrgather_vv_u32m4(s, rev, vl), vl);
    __riscv_vse32_v_u32m4(p, s, vl);
    p += vl;
    left -= vl;
  }
}

#endif
