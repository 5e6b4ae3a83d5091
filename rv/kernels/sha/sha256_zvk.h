/* zvk SHA-256 (Zvknha/Zvknhb + Zvkb), n 64-byte blocks per call. The state lives in two element groups in the
 * order the instructions want it: {a,b,e,f} and {c,d,g,h} (a in the highest element), gathered from and scattered
 * back to h[8] with vrgather over the eight state words in one LMUL-2 group (no indexed loads: not every core or
 * simulator has them). Four rounds take vadd (W + K) + vsha2cl + vsha2ch; the next four schedule
 * words take vmerge + vsha2ms. The 64 round constants stay in 16 registers for the whole call; message words are
 * loaded with vle32 and byte-swapped with vrev8. */
#ifndef CA_RV_SHA256_ZVK_H
#define CA_RV_SHA256_ZVK_H

#include "../common/zvk_insn.h"

typedef uint32_t __attribute__((may_alias)) zvk_u32;

/* Indices into h[0..7] of f, e, b, a (elements 0..3 of {a,b,e,f}), then of h, g, d, c; and back: element i of
 * h[] from the concatenation {a,b,e,f} ++ {c,d,g,h}. */
static const uint32_t sha256_gather[8] = {5, 4, 1, 0, 7, 6, 3, 2};
static const uint32_t sha256_scatter[8] = {3, 2, 7, 6, 1, 0, 5, 4};

/* Four rounds: t = W + K; vsha2cl (rounds with W[0], W[1]) into {c,d,g,h}, which becomes the new {a,b,e,f};
 * vsha2ch (W[2], W[3]). One asm statement (common/zvk_insn.h); vtype (e32, m1, vl 4) is the one the block's
 * vle32/vrev8 intrinsics set, and nothing between the groups changes it. */
#define SHA256_4ROUNDS(k, w0)                                                          \
  do {                                                                                 \
    vuint32m1_t t_;                                                                    \
    __asm__("vadd.vv %[t], %[kk], %[ww]\n\t" ZVK_VSHA2CL("%[s1]", "%[s0]", "%[t]")      \
            "vsha2ch.vv %[s0], %[s1], %[t]"                                            \
            : [s0] "+vr"(s0), [s1] "+vr"(s1), [t] "=&vr"(t_)                           \
            : [kk] "vr"(k), [ww] "vr"(w0));                                              \
  } while (0)
/* w0 <- the next four schedule words from w0..w3 = W[t..t+15]: vs2 = {W[t+11], W[t+10], W[t+9], W[t+4]} by vmerge
 * under the mask {1,0,0,0} in v0, vs1 = W[t+12..t+15]. */
#define SHA256_SCHEDULE(w0, w1, w2, w3)                                                \
  do {                                                                                 \
    vuint32m1_t m_;                                                                    \
    __asm__("vmerge.vvm %[m], %[c_], %[b_], %[v0]\n\t"                                \
            "vsha2ms.vv %[a_], %[m], %[d_]"                                            \
            : [a_] "+vr"(w0), [m] "=&vr"(m_)                                           \
            : [b_] "vr"(w1), [c_] "vr"(w2), [d_] "vr"(w3), [v0] "vm"(first));          \
  } while (0)

static void sha256_blocks(uint32_t h[8], const uint8_t* p, uint32_t n) {
  if (n == 0) return;
  const zvk_u32* kp = (const zvk_u32*)K256;
  vuint32m1_t k0 = __riscv_vle32_v_u32m1(kp, 4), k1 = __riscv_vle32_v_u32m1(kp + 4, 4);
  vuint32m1_t k2 = __riscv_vle32_v_u32m1(kp + 8, 4), k3 = __riscv_vle32_v_u32m1(kp + 12, 4);
  vuint32m1_t k4 = __riscv_vle32_v_u32m1(kp + 16, 4), k5 = __riscv_vle32_v_u32m1(kp + 20, 4);
  vuint32m1_t k6 = __riscv_vle32_v_u32m1(kp + 24, 4), k7 = __riscv_vle32_v_u32m1(kp + 28, 4);
  vuint32m1_t k8 = __riscv_vle32_v_u32m1(kp + 32, 4), k9 = __riscv_vle32_v_u32m1(kp + 36, 4);
  vuint32m1_t k10 = __riscv_vle32_v_u32m1(kp + 40, 4), k11 = __riscv_vle32_v_u32m1(kp + 44, 4);
  vuint32m1_t k12 = __riscv_vle32_v_u32m1(kp + 48, 4), k13 = __riscv_vle32_v_u32m1(kp + 52, 4);
  vuint32m1_t k14 = __riscv_vle32_v_u32m1(kp + 56, 4), k15 = __riscv_vle32_v_u32m1(kp + 60, 4);
  vbool32_t first = __riscv_vmseq_vx_u32m1_b32(__riscv_vid_v_u32m1(4), 0, 4);
  const vuint32m2_t hv = __riscv_vle32_v_u32m2((const zvk_u32*)h, 8);
  const vuint32m2_t gi = __riscv_vle32_v_u32m2(sha256_gather, 8);
  const vuint32m2_t g = __riscv_vrgather_vv_u32m2(hv, gi, 8); /* {f,e,b,a, h,g,d,c} */
  vuint32m1_t s0 = __riscv_vlmul_trunc_v_u32m2_u32m1(g);
  vuint32m1_t s1 = __riscv_vlmul_trunc_v_u32m2_u32m1(__riscv_vslidedown_vx_u32m2(g, 4, 8));
  for (; n > 0; --n, p += 64) {
    const vuint32m1_t p0 = s0, p1 = s1;
    vuint32m1_t w0 = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)p, 4), 4);
    vuint32m1_t w1 = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)p + 4, 4), 4);
    vuint32m1_t w2 = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)p + 8, 4), 4);
    vuint32m1_t w3 = __riscv_vrev8_v_u32m1(__riscv_vle32_v_u32m1((const zvk_u32*)p + 12, 4), 4);
    SHA256_4ROUNDS(k0, w0); SHA256_SCHEDULE(w0, w1, w2, w3);
    SHA256_4ROUNDS(k1, w1); SHA256_SCHEDULE(w1, w2, w3, w0);
    SHA256_4ROUNDS(k2, w2); SHA256_SCHEDULE(w2, w3, w0, w1);
    SHA256_4ROUNDS(k3, w3); SHA256_SCHEDULE(w3, w0, w1, w2);
    SHA256_4ROUNDS(k4, w0); SHA256_SCHEDULE(w0, w1, w2, w3);
    SHA256_4ROUNDS(k5, w1); SHA256_SCHEDULE(w1, w2, w3, w0);
    SHA256_4ROUNDS(k6, w2); SHA256_SCHEDULE(w2, w3, w0, w1);
    SHA256_4ROUNDS(k7, w3); SHA256_SCHEDULE(w3, w0, w1, w2);
    SHA256_4ROUNDS(k8, w0); SHA256_SCHEDULE(w0, w1, w2, w3);
    SHA256_4ROUNDS(k9, w1); SHA256_SCHEDULE(w1, w2, w3, w0);
    SHA256_4ROUNDS(k10, w2); SHA256_SCHEDULE(w2, w3, w0, w1);
    SHA256_4ROUNDS(k11, w3); SHA256_SCHEDULE(w3, w0, w1, w2);
    SHA256_4ROUNDS(k12, w0);
    SHA256_4ROUNDS(k13, w1);
    SHA256_4ROUNDS(k14, w2);
    SHA256_4ROUNDS(k15, w3);
    s0 = __riscv_vadd_vv_u32m1(s0, p0, 4);
    s1 = __riscv_vadd_vv_u32m1(s1, p1, 4);
  }
  vuint32m2_t both = __riscv_vslideup_vx_u32m2(__riscv_vlmul_ext_v_u32m1_u32m2(s0),
                                               __riscv_vlmul_ext_v_u32m1_u32m2(s1), 4, 8);
  both = __riscv_vrgather_vv_u32m2(both, __riscv_vle32_v_u32m2(sha256_scatter, 8), 8);
  __riscv_vse32_v_u32m2((zvk_u32*)h, both, 8);
}

#endif
