/* Vector crypto instructions the compiler gets wrong, emitted with .insn (zvk kernels only).
 *
 * LLVM 19.1 selects vsha2ch for the __riscv_vsha2cl_vv_* intrinsics (both widths): the two instructions differ only
 * in funct6 (vsha2ch 101110, vsha2cl 101111) and the wrong one silently computes rounds with the high message words.
 * vsha2cl.vv vd, vs2, vs1 is written here as `.insn r OP-V, OPMVV (2), funct7 = funct6 << 1 | vm (1) = 0x5F`; the
 * element width comes from vtype as for any vector instruction: the caller's surrounding intrinsics (vadd of the
 * message words and constants just before, on the same vl and SEW) leave vtype set for it.
 * tests/python/test_rv_kernels.py scans every zvk ELF for the instruction words, so a toolchain that changes what
 * this emits (or a kernel that goes back to the intrinsic) fails the tests. */
#ifndef CA_RV_ZVK_INSN_H
#define CA_RV_ZVK_INSN_H

#include <riscv_vector.h>

/** vsha2cl.vv vd, vs2, vs1 (SEW 32). */
static inline vuint32m1_t zvk_vsha2cl_u32m1(vuint32m1_t vd, vuint32m1_t vs2, vuint32m1_t vs1) {
  __asm__(".insn r 0x77, 2, 0x5f, %0, %2, %1" : "+vr"(vd) : "vr"(vs2), "vr"(vs1));
  return vd;
}

/** vsha2cl.vv vd, vs2, vs1 (SEW 64, LMUL 2). */
static inline vuint64m2_t zvk_vsha2cl_u64m2(vuint64m2_t vd, vuint64m2_t vs2, vuint64m2_t vs1) {
  __asm__(".insn r 0x77, 2, 0x5f, %0, %2, %1" : "+vr"(vd) : "vr"(vs2), "vr"(vs1));
  return vd;
}

#endif
