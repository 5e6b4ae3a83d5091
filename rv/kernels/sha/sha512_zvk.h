/* zvk SHA-512 (Zvknhb + Zvkb), n 128-byte blocks per call: as sha256_zvk.h with SEW 64 (element groups of
 * 4 x e64 = 256 bits: LMUL 2, so that VLEN 128 works too). 80 rounds = 20 groups of vadd + vsha2cl + vsha2ch, 16 of them
 * followed by vmerge + vsha2ms; the round constants (20 groups: too many to keep in registers beside the state and
 * schedule) are loaded per group with vle64 inside the round statement (as intrinsics the compiler hoisted all 20
 * loads out of the block loop and spilled them). */
#ifndef CA_RV_SHA512_ZVK_H
#define CA_RV_SHA512_ZVK_H

#include "../common/zvk_insn.h"

typedef uint64_t __attribute__((may_alias)) zvk_u64;

/* As sha256_zvk.h: indices into h[0..7] of f, e, b, a, h, g, d, c, and back (vrgather over one LMUL-4 group). */
static const uint64_t sha512_gather[8] = {5, 4, 1, 0, 7, 6, 3, 2};
static const uint64_t sha512_scatter[8] = {3, 2, 7, 6, 1, 0, 5, 4};

/* Four rounds as in sha256_zvk.h, the round constants loaded inside the statement (vle64 of group g); vtype (e64, m2,
 * vl 4) comes from the block's vle64/vrev8 intrinsics. */
#define SHA512_4ROUNDS(g, w0)                                                          \
  do {                                                                                 \
    vuint64m2_t t_;                                                                    \
    __asm__("vle64.v %[t], (%[kp])\n\t"                                                \
            "vadd.vv %[t], %[t], %[ww]\n\t" ZVK_VSHA2CL("%[s1]", "%[s0]", "%[t]")      \
            "vsha2ch.vv %[s0], %[s1], %[t]"                                            \
            : [s0] "+vr"(s0), [s1] "+vr"(s1), [t] "=&vr"(t_)                           \
            : [kp] "r"(K512 + 4 * (g)), [ww] "vr"(w0), "m"(K512[4 * (g)]));              \
  } while (0)
#define SHA512_SCHEDULE(w0, w1, w2, w3)                                                \
  do {                                                                                 \
    vuint64m2_t m_;                                                                    \
    __asm__("vmerge.vvm %[m], %[c_], %[b_], %[v0]\n\t"                                \
            "vsha2ms.vv %[a_], %[m], %[d_]"                                            \
            : [a_] "+vr"(w0), [m] "=&vr"(m_)                                           \
            : [b_] "vr"(w1), [c_] "vr"(w2), [d_] "vr"(w3), [v0] "vm"(first));          \
  } while (0)
#define SHA512_16ROUNDS(g)                                       \
  SHA512_4ROUNDS(g, w0); SHA512_SCHEDULE(w0, w1, w2, w3);        \
  SHA512_4ROUNDS(g + 1, w1); SHA512_SCHEDULE(w1, w2, w3, w0);    \
  SHA512_4ROUNDS(g + 2, w2); SHA512_SCHEDULE(w2, w3, w0, w1);    \
  SHA512_4ROUNDS(g + 3, w3); SHA512_SCHEDULE(w3, w0, w1, w2)

static void sha512_blocks(uint64_t h[8], const uint8_t* p, uint32_t n) {
  if (n == 0) return;
  vbool32_t first = __riscv_vmseq_vx_u64m2_b32(__riscv_vid_v_u64m2(4), 0, 4);
  const vuint64m4_t hv = __riscv_vle64_v_u64m4((const zvk_u64*)h, 8);
  const vuint64m4_t g = __riscv_vrgather_vv_u64m4(hv, __riscv_vle64_v_u64m4(sha512_gather, 8), 8);
  vuint64m2_t s0 = __riscv_vlmul_trunc_v_u64m4_u64m2(g);
  vuint64m2_t s1 = __riscv_vlmul_trunc_v_u64m4_u64m2(__riscv_vslidedown_vx_u64m4(g, 4, 8));
  for (; n > 0; --n, p += 128) {
    const vuint64m2_t p0 = s0, p1 = s1;
    vuint64m2_t w0 = __riscv_vrev8_v_u64m2(__riscv_vle64_v_u64m2((const zvk_u64*)p, 4), 4);
    vuint64m2_t w1 = __riscv_vrev8_v_u64m2(__riscv_vle64_v_u64m2((const zvk_u64*)p + 4, 4), 4);
    vuint64m2_t w2 = __riscv_vrev8_v_u64m2(__riscv_vle64_v_u64m2((const zvk_u64*)p + 8, 4), 4);
    vuint64m2_t w3 = __riscv_vrev8_v_u64m2(__riscv_vle64_v_u64m2((const zvk_u64*)p + 12, 4), 4);
    SHA512_16ROUNDS(0);
    SHA512_16ROUNDS(4);
    SHA512_16ROUNDS(8);
    SHA512_16ROUNDS(12);
    SHA512_4ROUNDS(16, w0);
    SHA512_4ROUNDS(17, w1);
    SHA512_4ROUNDS(18, w2);
    SHA512_4ROUNDS(19, w3);
    s0 = __riscv_vadd_vv_u64m2(s0, p0, 4);
    s1 = __riscv_vadd_vv_u64m2(s1, p1, 4);
  }
  vuint64m4_t both = __riscv_vslideup_vx_u64m4(__riscv_vlmul_ext_v_u64m2_u64m4(s0),
                                               __riscv_vlmul_ext_v_u64m2_u64m4(s1), 4, 8);
  both = __riscv_vrgather_vv_u64m4(both, __riscv_vle64_v_u64m4(sha512_scatter, 8), 8);
  __riscv_vse64_v_u64m4((zvk_u64*)h, both, 8);
}

#endif
