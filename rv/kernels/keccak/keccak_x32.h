/* Keccak variant header: seed 004's custom vector instructions (xkeccak), 32-bit architecture (ELEN = SEW = 32,
 * bit-interleaved lanes). Variant `xkeccak32-lmul8` (VARIANT_XKECCAK32_LMUL8), RV32 with Zve32x.
 *
 * Layout (docs/isa-lab.md, "Custom Keccak vector instructions"; seed 004, Fig. 3): EleNum = VLEN/32 elements per
 * register, SN = floor(EleNum/5) states side by side. A lane is kept bit-interleaved: E = its even bits, O = its odd
 * bits (keccak_common.h). Row y of the E words is register v0+y (the LMUL 8 group v0), row y of the O words v8+y
 * (group v8); element 5i + x of a row is lane (x, y) of state i.
 *
 * Where the interleaving happens: the driver (keccak.c) converts the states to bit-interleaved words before the
 * measured region and back after it (KECCAK_SEW 32). That is what the seed's cycles/byte imply: Tables II and III
 * spend the same ~92 cycles beyond 24 rounds on every configuration (64-bit LMUL 1: 12.8 cyc/byte x 200 - 24 x 103
 * = 88; LMUL 8: 9.5 x 200 - 24 x 75 = 100; 32-bit: 18.1 x 200 - 24 x 147 = 92), so no (de)interleaving of 200
 * bytes per state is in the 32-bit figure: the seed's memory already holds the states as Fig. 3 shows them.
 *
 * One round (theta and iota at LMUL 1, vl = EleNum; rho, pi, chi on the 5-row groups at LMUL 8, vl = 5*EleNum):
 *   theta  BE = E0^..^E4, BO = O0^..^O4 (8 vxor.vv); BE/BO[x-1] by vslideupm, BE/BO[x+1] by vslidedownm (4);
 *          rotl64(B[x+1], 1) as (v32lrotup, v32hrotup) of (O, E) (2); CE, CO (2 vxor.vv); E_y ^= CE, O_y ^= CO
 *          (10 vxor.vv)                                                                      -- 26 insns
 *   rho    v32lrho.vi -1 (E half), v32hrho.vi -1 (O half) of (O, E)
 *   pi     vpi.vi -1 on the E group, vpi.vi -1 on the O group
 *   chi    per half: 2 vslidedownm.vi, vxor.vi [vnot.v], vand.vv, vxor.vv                  -- 10 insns
 *   iota   viota.vx on E row 0 (x[rs1] = round), viota.vx on O row 0 (x[rs1] = round + 32: bit 5 picks the odd half)
 * Hand count per round (vxor.vv: 8 + 2 + 10 in theta, 2 in chi; vslidedownm.vi: 2 in theta, 4 in chi):
 *   count per round (xkeccak32-lmul8): vxor.vv 22, vslidedownm.vi 6, vslideupm.vi 2, vxor.vi 2, vand.vv 2,
 *     vsetvli 2, v32lrotup.vi 1, v32hrotup.vi 1, v32lrho.vi 1, v32hrho.vi 1, vpi.vi 2, viota.vx 2, addi 2, bne 1
 *     (= 42 vector + 2 vsetvli + 3 scalar = 47 instructions)
 *   Table I's costs: 28 LMUL-1 x 2 + 14 LMUL-8 x 6 (+1 per vpi) = 142 cycles of vector work, + 2 vsetvli + 3 scalar
 *   = 147: the seed's 147 cycles/round if vsetvli and the loop cost a cycle each (rv/timing/seed004.json: 149, the
 *   taken bne pays the taken-branch penalty). (With our semantics v32hrotup
 *   is a copy of its vs1, BE[x+1]: CO could XOR that register directly, one LMUL-1 instruction less; it is kept to
 *   run the seed's instruction sequence.)
 *
 * Memory: the sn states of a pass are 50*sn 32-bit words, E and O of each lane alternating. One strided vlse32.v
 * (stride 8, vl = 25*sn) loads the E words in memory order and one vrgatherei16.vv puts them into rows; the same
 * for the O words; the store is the inverse (two gathers, two vsse32.v). Registers: v0-v4 E rows, v8-v12 O rows,
 * v5-v7, v13-v15, v21, v22 theta temporaries, v16 and v24 groups rho out and chi temporaries, v24-v27 the gather
 * index (EEW 16, EMUL 4) of the load and store. */
#ifndef CA_RV_KECCAK_X32_H
#define CA_RV_KECCAK_X32_H

#define KECCAK_SEW 32

#include "../common/keccak_insn.h"
#include "keccak_common.h"

#if __riscv_xlen != 32 || !defined(__riscv_vector)
#error "keccak_x32.h needs RV32 with Zve32x"
#endif

#define KX32_MAX_VLENB 512 /* VLEN 4096 */
/* Gather index of the load (element r*EleNum + 5i + x of a row group <- word 25i + 5r + x of a strided load) and of
 * the store (the inverse), EEW 16, four registers each. */
static uint16_t kx32_load_index[2 * KX32_MAX_VLENB] __attribute__((aligned(64)));
static uint16_t kx32_store_index[2 * KX32_MAX_VLENB] __attribute__((aligned(64)));
static unsigned kx32_ele; /* EleNum = VLEN/32, 0 until built */

static void keccak_x32_build(void) {
  unsigned long vlenb;
  __asm__ volatile("csrr %0, vlenb" : "=r"(vlenb));
  if (vlenb > KX32_MAX_VLENB) vlenb = 0; /* beyond VLEN 4096: report "too small" rather than overflow the tables */
  const unsigned ele = (unsigned)(vlenb / 4), sn = ele / 5, vlmax8 = 8 * ele;
  _Pragma("clang loop vectorize(disable) interleave(disable)")
  for (unsigned e = 0; e < vlmax8; ++e) {
    const unsigned r = e / ele, p = e % ele;
    kx32_load_index[e] = (uint16_t)(r < 5 && p < 5 * sn ? 25 * (p / 5) + 5 * r + p % 5 : 0);
    kx32_store_index[e] = (uint16_t)(e < 25 * sn ? ((e % 25) / 5) * ele + 5 * (e / 25) + e % 5 : 0);
  }
  kx32_ele = ele;
}

/* SN = floor(VLEN / 32 / 5) (0: no state fits); builds the gather indexes for this VLEN (called before the region). */
static unsigned keccak_states_per_pass(void) {
  keccak_x32_build();
  return kx32_ele / 5;
}

static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds) {
  if (kx32_ele == 0) keccak_x32_build(); /* not reached from keccak.c / sponge.c, which ask for SN first */
  const unsigned long ele = kx32_ele, grp = 5 * ele, n25 = 25 * (unsigned long)sn, stride = 8;
  unsigned long r = first_round, r_odd = first_round + 32, end = (unsigned long)first_round + rounds;
  const uint32_t* odd = (const uint32_t*)(const void*)states + 1;
  __asm__ volatile(
      /* load: E words by a strided load, rows by a gather; then the O words */
      "vl4re16.v v24, (%[li])\n\t"
      "vsetvli zero, %[n25], e32, m8, tu, mu\n\t"
      "vlse32.v v16, (%[st]), %[stride]\n\t"
      "vsetvli zero, %[grp], e32, m8, tu, mu\n\t"
      "vrgatherei16.vv v0, v16, v24\n\t"
      "vsetvli zero, %[n25], e32, m8, tu, mu\n\t"
      "vlse32.v v16, (%[odd]), %[stride]\n\t"
      "vsetvli zero, %[grp], e32, m8, tu, mu\n\t"
      "vrgatherei16.vv v8, v16, v24\n\t"
      "vsetvli zero, %[ele], e32, m1, tu, mu\n\t"
      "beq %[r], %[end], 2f\n"
      "1:\n\t"
      /* theta */
      "vxor.vv v5, v0, v1\n\t" "vxor.vv v5, v5, v2\n\t" "vxor.vv v5, v5, v3\n\t" "vxor.vv v5, v5, v4\n\t"
      "vxor.vv v13, v8, v9\n\t" "vxor.vv v13, v13, v10\n\t" "vxor.vv v13, v13, v11\n\t" "vxor.vv v13, v13, v12\n\t"
      KECCAK_VSLIDEUPM("v6", "v5", 1) KECCAK_VSLIDEUPM("v14", "v13", 1)
      KECCAK_VSLIDEDOWNM("v7", "v5", 1) KECCAK_VSLIDEDOWNM("v15", "v13", 1)
      KECCAK_V32LROTUP("v21", "v15", "v7") KECCAK_V32HROTUP("v22", "v15", "v7")
      "vxor.vv v6, v6, v21\n\t" "vxor.vv v14, v14, v22\n\t"
      "vxor.vv v0, v0, v6\n\t" "vxor.vv v1, v1, v6\n\t" "vxor.vv v2, v2, v6\n\t" "vxor.vv v3, v3, v6\n\t"
      "vxor.vv v4, v4, v6\n\t"
      "vxor.vv v8, v8, v14\n\t" "vxor.vv v9, v9, v14\n\t" "vxor.vv v10, v10, v14\n\t" "vxor.vv v11, v11, v14\n\t"
      "vxor.vv v12, v12, v14\n\t"
      "vsetvli zero, %[grp], e32, m8, tu, mu\n\t"
      /* rho of (O, E) into v16 (E) and v24 (O); pi back into v0 and v8 */
      KECCAK_V32LRHO("v16", "v8", "v0", KECCAK_ALL_ROWS) KECCAK_V32HRHO("v24", "v8", "v0", KECCAK_ALL_ROWS)
      KECCAK_VPI("v0", "v16", KECCAK_ALL_ROWS) KECCAK_VPI("v8", "v24", KECCAK_ALL_ROWS)
      /* chi, E then O */
      KECCAK_VSLIDEDOWNM("v16", "v0", 1) KECCAK_VSLIDEDOWNM("v24", "v0", 2)
      "vnot.v v16, v16\n\t" "vand.vv v16, v16, v24\n\t" "vxor.vv v0, v0, v16\n\t"
      KECCAK_VSLIDEDOWNM("v16", "v8", 1) KECCAK_VSLIDEDOWNM("v24", "v8", 2)
      "vnot.v v16, v16\n\t" "vand.vv v16, v16, v24\n\t" "vxor.vv v8, v8, v16\n\t"
      "vsetvli zero, %[ele], e32, m1, tu, mu\n\t"
      /* iota */
      KECCAK_VIOTA("v0", "v0", "%[r]") KECCAK_VIOTA("v8", "v8", "%[ro]")
      "addi %[r], %[r], 1\n\t"
      "addi %[ro], %[ro], 1\n\t"
      "bne %[r], %[end], 1b\n"
      "2:\n\t"
      /* store: rows back to memory order by the inverse gather, strided stores of E and O */
      "vl4re16.v v24, (%[si])\n\t"
      "vsetvli zero, %[n25], e32, m8, tu, mu\n\t"
      "vrgatherei16.vv v16, v0, v24\n\t"
      "vsse32.v v16, (%[st]), %[stride]\n\t"
      "vrgatherei16.vv v16, v8, v24\n\t"
      "vsse32.v v16, (%[odd]), %[stride]\n\t"
      : [r] "+&r"(r), [ro] "+&r"(r_odd)
      : [st] "r"(states), [odd] "r"(odd), [stride] "r"(stride), [n25] "r"(n25), [ele] "r"(ele), [grp] "r"(grp),
        [end] "r"(end), [li] "r"(kx32_load_index), [si] "r"(kx32_store_index)
      : "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
        "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",
        "v30", "v31", "vl", "vtype");
}

#endif
