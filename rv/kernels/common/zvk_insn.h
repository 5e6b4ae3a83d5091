/* Vector crypto instructions the compiler gets wrong, emitted with .insn (zvk kernels only).
 *
 * LLVM 19.1 selects vsha2ch for the __riscv_vsha2cl_vv_* intrinsics (both widths): the two instructions differ only
 * in funct6 (vsha2ch 101110, vsha2cl 101111) and the wrong one silently computes rounds with the high message words.
 * The SHA-2 kernels therefore write each group of four rounds as one asm statement (sha/sha256_zvk.h,
 * sha/sha512_zvk.h) with vsha2cl.vv vd, vs2, vs1 spelled as
 *   .insn r OP-VE (0x77), OPMVV (2), funct7 = funct6 << 1 | vm (1) = 0x5F, vd, vs1, vs2
 * (ZVK_VSHA2CL below). A whole group in one statement also keeps vtype: after every asm statement the compiler
 * re-establishes vtype with a vsetivli before its next vector intrinsic, which per-instruction asm would cost once
 * per group. tests/python/test_rv_kernels.py counts vsha2cl and vsha2ch in every zvk ELF, so a toolchain or kernel
 * change that brings the wrong instruction back fails the tests. */
#ifndef CA_RV_ZVK_INSN_H
#define CA_RV_ZVK_INSN_H

#include <riscv_vector.h>

/** Assembler text of vsha2cl.vv VD, VS2, VS1 for asm operand names, e.g. ZVK_VSHA2CL("%[s1]", "%[s0]", "%[t]"). */
#define ZVK_VSHA2CL(vd, vs2, vs1) ".insn r 0x77, 2, 0x5f, " vd ", " vs1 ", " vs2 "\n\t"

#endif
