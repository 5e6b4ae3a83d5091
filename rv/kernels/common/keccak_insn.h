/* Seed 004's custom Keccak vector instructions (extension `xkeccak`), emitted with .insn: no assembler knows them.
 *
 * Encodings and semantics: docs/isa-lab.md, "Custom Keccak vector instructions". Major opcode custom-2 (0x5B),
 * OP-V field layout: funct6 [31:26], vm [25], vs2 [24:20], uimm5/simm5/vs1/rs1 [19:15], funct3 [14:12], vd [11:7].
 * `.insn r OPCODE, FUNCT3, FUNCT7, RD, RS1, RS2` puts FUNCT7 = funct6 << 1 | vm in [31:25], RS1 in [19:15] and RS2
 * in [24:20]; an immediate in [19:15] is written as the integer register with that number (x1 = 1, x31 = -1).
 * Every macro here is the unmasked form (vm = 1).
 *
 * C (inline asm): the macros expand to assembler text, operands being asm operand names or register names, e.g.
 *   asm volatile(KECCAK_VSLIDEDOWNM("v8", "v0", 1) KECCAK_VROTUP("v8", "v8", 1) ::: "v8");
 * Assembler (.S, through the C preprocessor): the same names exist as assembler macros, e.g.
 *   vslidedownm.vi v8, v0, 1   ->   KECCAK_VSLIDEDOWNM v8, v0, 1
 * Immediates are bare decimal literals 0..4 (or 0..31 for vrotup), KECCAK_ALL_ROWS (31) for simm = -1. */
#ifndef CA_RV_KECCAK_INSN_H
#define CA_RV_KECCAK_INSN_H

/* simm = -1 in a 5-bit field: the row comes from the register's place in the group (the seed's lmul_cnt). */
#define KECCAK_ALL_ROWS 31

#ifndef __ASSEMBLER__

#define KECCAK_STR_(x) #x
#define KECCAK_STR(x) KECCAK_STR_(x)
#define KECCAK_CAT_(a, b) a##b
#define KECCAK_CAT(a, b) KECCAK_CAT_(a, b)
/* An immediate as the integer register with its number: 1 -> "x1", KECCAK_ALL_ROWS -> "x31". */
#define KECCAK_IMM(imm) "x" KECCAK_STR(imm)

/* vslidedownm.vi vd, vs2, uimm: vd[5i+x] = vs2[5i + (x+uimm) mod 5] in every row. funct6 000000, funct3 011. */
#define KECCAK_VSLIDEDOWNM(vd, vs2, uimm) ".insn r 0x5b, 3, 0x01, " vd ", " KECCAK_IMM(uimm) ", " vs2 "\n\t"
/* vslideupm.vi vd, vs2, uimm: vd[5i+x] = vs2[5i + (x-uimm) mod 5]. funct6 000001, funct3 011. */
#define KECCAK_VSLIDEUPM(vd, vs2, uimm) ".insn r 0x5b, 3, 0x03, " vd ", " KECCAK_IMM(uimm) ", " vs2 "\n\t"
/* vrotup.vi vd, vs2, uimm: rotate each 64-bit element left by uimm. funct6 000010, funct3 011. */
#define KECCAK_VROTUP(vd, vs2, uimm) ".insn r 0x5b, 3, 0x05, " vd ", " KECCAK_IMM(uimm) ", " vs2 "\n\t"
/* v64rho.vi vd, vs2, simm: rotate lane (x, y) left by rho[x][y]; y = simm (0..4) or the register's row
 * (KECCAK_ALL_ROWS). funct6 000011, funct3 011. */
#define KECCAK_V64RHO(vd, vs2, simm) ".insn r 0x5b, 3, 0x07, " vd ", " KECCAK_IMM(simm) ", " vs2 "\n\t"
/* vpi.vi vd, vs2, simm: row t of vs2 (t = simm, or each register's row for KECCAK_ALL_ROWS) becomes column t of
 * vd..vd+4 (five registers at any LMUL). funct6 000100, funct3 011. */
#define KECCAK_VPI(vd, vs2, simm) ".insn r 0x5b, 3, 0x09, " vd ", " KECCAK_IMM(simm) ", " vs2 "\n\t"
/* viota.vx vd, vs2, rs1: XOR RC[x[rs1] & 31] into lane (0, 0) of every state (SEW 32: bit 5 of x[rs1] picks the odd
 * word of the bit-interleaved constant). funct6 000101, funct3 100; rs1 is an integer register name. */
#define KECCAK_VIOTA(vd, vs2, rs1) ".insn r 0x5b, 4, 0x0b, " vd ", " rs1 ", " vs2 "\n\t"
/* v32lrotup.vi vd, vs2, vs1: (vs2, vs1) = odd/even words of bit-interleaved lanes; vd = even word of the lane
 * rotated left by 1 (= rotl32(vs2, 1)). funct6 001000, funct3 000. */
#define KECCAK_V32LROTUP(vd, vs2, vs1) ".insn r 0x5b, 0, 0x11, " vd ", " vs1 ", " vs2 "\n\t"
/* v32hrotup.vi vd, vs2, vs1: odd word of the lane rotated left by 1 (= vs1). funct6 001001, funct3 000. */
#define KECCAK_V32HROTUP(vd, vs2, vs1) ".insn r 0x5b, 0, 0x13, " vd ", " vs1 ", " vs2 "\n\t"
/* v32lrho.vi / v32hrho.vi vd, vs2, vs1, simm: even / odd word of the lane rotated by rho[x][y]. The row is in
 * funct6[2:0] (010sss / 011sss, sss = 111 for all rows), so FUNCT7 = 0x21 + 2*simm / 0x31 + 2*simm (0x2f / 0x3f).
 * simm is a literal 0..4 or KECCAK_ALL_ROWS. */
#define KECCAK_V32LRHO_F7_0 "0x21"
#define KECCAK_V32LRHO_F7_1 "0x23"
#define KECCAK_V32LRHO_F7_2 "0x25"
#define KECCAK_V32LRHO_F7_3 "0x27"
#define KECCAK_V32LRHO_F7_4 "0x29"
#define KECCAK_V32LRHO_F7_31 "0x2f"
#define KECCAK_V32HRHO_F7_0 "0x31"
#define KECCAK_V32HRHO_F7_1 "0x33"
#define KECCAK_V32HRHO_F7_2 "0x35"
#define KECCAK_V32HRHO_F7_3 "0x37"
#define KECCAK_V32HRHO_F7_4 "0x39"
#define KECCAK_V32HRHO_F7_31 "0x3f"
#define KECCAK_V32LRHO(vd, vs2, vs1, simm) \
  ".insn r 0x5b, 0, " KECCAK_CAT(KECCAK_V32LRHO_F7_, simm) ", " vd ", " vs1 ", " vs2 "\n\t"
#define KECCAK_V32HRHO(vd, vs2, vs1, simm) \
  ".insn r 0x5b, 0, " KECCAK_CAT(KECCAK_V32HRHO_F7_, simm) ", " vd ", " vs1 ", " vs2 "\n\t"

#else /* __ASSEMBLER__ */

.macro KECCAK_VSLIDEDOWNM vd, vs2, uimm
  .insn r 0x5b, 3, 0x01, \vd, x\uimm, \vs2
.endm
.macro KECCAK_VSLIDEUPM vd, vs2, uimm
  .insn r 0x5b, 3, 0x03, \vd, x\uimm, \vs2
.endm
.macro KECCAK_VROTUP vd, vs2, uimm
  .insn r 0x5b, 3, 0x05, \vd, x\uimm, \vs2
.endm
.macro KECCAK_V64RHO vd, vs2, simm
  .insn r 0x5b, 3, 0x07, \vd, x\simm, \vs2
.endm
.macro KECCAK_VPI vd, vs2, simm
  .insn r 0x5b, 3, 0x09, \vd, x\simm, \vs2
.endm
.macro KECCAK_VIOTA vd, vs2, rs1
  .insn r 0x5b, 4, 0x0b, \vd, \rs1, \vs2
.endm
.macro KECCAK_V32LROTUP vd, vs2, vs1
  .insn r 0x5b, 0, 0x11, \vd, \vs1, \vs2
.endm
.macro KECCAK_V32HROTUP vd, vs2, vs1
  .insn r 0x5b, 0, 0x13, \vd, \vs1, \vs2
.endm
/* funct7 spelled per row: LLVM's .insn takes no expression there. */
.macro KECCAK_V32RHO_ f7base, vd, vs2, vs1, simm
  .if \simm == 31
    .insn r 0x5b, 0, \f7base + 14, \vd, \vs1, \vs2
  .else
    .insn r 0x5b, 0, \f7base + 2 * \simm, \vd, \vs1, \vs2
  .endif
.endm
.macro KECCAK_V32LRHO vd, vs2, vs1, simm
  KECCAK_V32RHO_ 0x21, \vd, \vs2, \vs1, \simm
.endm
.macro KECCAK_V32HRHO vd, vs2, vs1, simm
  KECCAK_V32RHO_ 0x31, \vd, \vs2, \vs1, \simm
.endm

#endif /* __ASSEMBLER__ */
#endif /* CA_RV_KECCAK_INSN_H */
