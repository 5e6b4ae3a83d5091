/* Keccak variant header: seed 004's custom vector instructions (xkeccak), 64-bit lanes (ELEN = SEW = 64).
 * Variants `xkeccak64-lmul1` (VARIANT_XKECCAK64_LMUL1) and `xkeccak64-lmul8` (VARIANT_XKECCAK64_LMUL8), RV64 with
 * Zve64x; the ablation builds of either add Zvkb and one KECCAK_NO_* / KECCAK_VANDN define (below).
 *
 * Layout in the registers (docs/isa-lab.md, "Custom Keccak vector instructions"): EleNum = VLEN/64 elements per
 * register, SN = floor(EleNum/5) states side by side; row y of the states is register v8+y, its element 5i + x is
 * lane (x, y) of state i (elements 5*SN .. EleNum-1 are padding). v8..v12 is also the LMUL 8 group v8.
 *
 * One round, as the seed's 64-bit kernels (the custom instruction of each step in brackets):
 *   theta  B = A0^A1^A2^A3^A4 (4 vxor.vv); C = slideupm(B,1) ^ rotup(slidedownm(B,1),1) [vslideupm, vslidedownm,
 *          vrotup] (+1 vxor.vv); A_y ^= C (5 vxor.vv)                                        -- LMUL 1, 13 insns
 *   rho    [v64rho]    pi [vpi]     chi  A = F ^ (~slidedownm(F,1) & slidedownm(F,2))   iota [viota] on row 0
 *
 * xkeccak64-lmul1, hand count per round (everything at LMUL 1, vl = EleNum):
 *   theta 13 (vxor.vv 10, vslideupm.vi 1, vslidedownm.vi 1, vrotup.vi 1); rho 5 v64rho.vi (simm = row); pi 5 vpi.vi
 *   (simm = row); chi 5 x (2 vslidedownm.vi, vxor.vi [vnot.v], vand.vv, vxor.vv); iota 1 viota.vx; loop addi, bne:
 *   count per round (xkeccak64-lmul1): vxor.vv 15, vslidedownm.vi 11, vxor.vi 5, vand.vv 5, v64rho.vi 5, vpi.vi 5,
 *     vslideupm.vi 1, vrotup.vi 1, viota.vx 1, addi 1, bne 1   (= 49 vector + 2 scalar = 51 instructions)
 *   Table I's costs: 44 x (1+1) + 5 vpi x (2+1) = 103 cycles of vector work (the seed's 103 cycles/round) + the
 *   loop: addi 1 + the taken bne (1 + the cycle model's taken-branch penalty; rv/timing/seed004.json: 107 a round).
 * xkeccak64-lmul8, hand count per round (theta and iota at LMUL 1, vl = EleNum; rho, pi, chi on the 5-row group at
 * LMUL 8, vl = 5*EleNum, the seed's lmul_cnt form with simm = -1):
 *   theta 13; vsetvli; v64rho.vi -1; vpi.vi -1; chi 5 (2 vslidedownm.vi, vxor.vi, vand.vv, vxor.vv); vsetvli;
 *   viota.vx; addi, bne:
 *   count per round (xkeccak64-lmul8): vxor.vv 11, vslidedownm.vi 3, vsetvli 2, vslideupm.vi 1, vrotup.vi 1,
 *     v64rho.vi 1, vpi.vi 1, vxor.vi 1, vand.vv 1, viota.vx 1, addi 1, bne 1   (= 21 vector + 2 vsetvli + 2 scalar
 *     = 25 instructions)
 *   Table I's costs: 14 LMUL-1 x 2 + 6 LMUL-8 x 6 (+1 for vpi) = 71 cycles of vector work, + 2 vsetvli + 2 scalar =
 *   75: the seed's 75 cycles/round if vsetvli and the loop cost a cycle each (seed004.json: 77, the taken bne pays
 *   the taken-branch penalty).
 *
 * Ablations (Go past the paper: what each custom instruction buys). Each replaces ONE custom instruction by
 * standard RVV / Zvkb; the tables they need are built once per VLEN by keccak_states_per_pass() (before the measured
 * region) and loaded per pass with one whole-register load into v0..v7 (outside the rounds):
 *   KECCAK_NO_VROTUP   vrotup.vi v,v,1        -> vror.vi v,v,63 (Zvkb)                     (variants *-no-vrotup)
 *   KECCAK_NO_V64RHO   v64rho.vi              -> vror.vv by per-lane amounts (64 - rho) % 64 in v0..v4 (Zvkb)
 *                                                                                            (*-no-v64rho)
 *   KECCAK_NO_VSLIDEM  vslideupm/vslidedownm  -> vrgatherei16.vv with index vectors (theta: v4 up 1, v0 down 1 at
 *                                                LMUL 1; chi: v0-v1 down 1, v2-v3 down 2, EMUL 2)  (*-no-vslidem)
 *   KECCAK_NO_VPI      vpi.vi -1              -> one vrgatherei16.vv across the LMUL 8 group (index in v0-v1, EMUL
 *                                                2): pi is a fixed permutation of the group's elements
 *                                                (xkeccak64-lmul8-no-vpi only: at LMUL 1 the rows are 5 registers)
 *   KECCAK_NO_VIOTA    viota.vx               -> ld of RC[r] + vxor.vx masked by v0 (x = 0 lanes); the loop counter
 *                                                is the RC pointer (addi 8): one ld more per round  (*-no-viota)
 *   KECCAK_VANDN       chi's vnot.v + vand.vv -> vandn.vv (Zvkb): one instruction less per chi  (*-vandn)
 * Their counts per round are the base kernel's with the replaced mnemonics swapped one for one (no-vslidem: 12
 * (lmul1) or 4 (lmul8) vrgatherei16.vv; no-viota: vxor.vx 1 and ld 1 for viota.vx 1; vandn: vandn.vv 5 or 1 for as
 * many vxor.vi and vand.vv).
 *
 * Memory: the states of a pass are loaded with one vle64.v (LMUL 8, vl = 25*sn: the states as they lie in memory)
 * and rearranged into rows by one vrgatherei16.vv (index table built with the others); the store is the inverse
 * gather and one vse64.v (the simulator has no indexed or segment loads). The C around the asm is built with
 * -fno-vectorize -fno-slp-vectorize -mno-implicit-float (kernels.json): LLVM's own vector code assumes a power-of-two
 * VLEN and gives wrong results at the seed's VLENs (320, 960, 1920).
 * Registers: v8-v12 state, v13-v15 theta/chi temporaries, v16 group rho out / load-store staging, v24 group pi out,
 * v0-v7 the ablation tables / gather index of the load and store. Every vsetvli is "tu, mu": the tables and tails
 * kept in registers beyond vl are never disturbed. */
#ifndef CA_RV_KECCAK_X64_H
#define CA_RV_KECCAK_X64_H

#define KECCAK_SEW 64

#include "../common/keccak_insn.h"
#include "keccak_common.h"

#if defined(VARIANT_XKECCAK64_LMUL1) == defined(VARIANT_XKECCAK64_LMUL8)
#error "keccak_x64.h: define exactly one of VARIANT_XKECCAK64_LMUL1, VARIANT_XKECCAK64_LMUL8"
#endif
#if __riscv_xlen != 64 || !defined(__riscv_vector) || __riscv_v_elen < 64
#error "keccak_x64.h needs RV64 with Zve64x"
#endif
#if (defined(KECCAK_NO_VROTUP) + defined(KECCAK_NO_V64RHO) + defined(KECCAK_NO_VSLIDEM) + defined(KECCAK_NO_VPI) + \
     defined(KECCAK_NO_VIOTA) + defined(KECCAK_VANDN)) > 1
#error "keccak_x64.h: at most one ablation define (KECCAK_NO_VROTUP, _NO_V64RHO, _NO_VSLIDEM, _NO_VPI, _NO_VIOTA, _VANDN)"
#endif
#if (defined(KECCAK_NO_VROTUP) || defined(KECCAK_NO_V64RHO) || defined(KECCAK_VANDN)) && !defined(__riscv_zvkb)
#error "this ablation needs Zvkb in -march"
#endif
#if defined(KECCAK_NO_VPI) && !defined(VARIANT_XKECCAK64_LMUL8)
#error "KECCAK_NO_VPI exists for the LMUL 8 kernel only (at LMUL 1 the rows are separate registers)"
#endif
#if defined(KECCAK_NO_V64RHO) || defined(KECCAK_NO_VSLIDEM) || defined(KECCAK_NO_VPI) || defined(KECCAK_NO_VIOTA)
#define KX_TABLE 1
#else
#define KX_TABLE 0
#endif

/* ---- instruction sequences (assembler text); "tu, mu" everywhere ---- */
#define KX_M1 "vsetvli zero, %[ele], e64, m1, tu, mu\n\t"
#define KX_M8 "vsetvli zero, %[grp], e64, m8, tu, mu\n\t"

#if defined(KECCAK_NO_VSLIDEM)
#define KX_UP1(vd, vs) "vrgatherei16.vv " vd ", " vs ", v4\n\t"
#define KX_DOWN1(vd, vs) "vrgatherei16.vv " vd ", " vs ", v0\n\t"
#define KX_DOWN2(vd, vs) "vrgatherei16.vv " vd ", " vs ", v2\n\t"
#else
#define KX_UP1(vd, vs) KECCAK_VSLIDEUPM(vd, vs, 1)
#define KX_DOWN1(vd, vs) KECCAK_VSLIDEDOWNM(vd, vs, 1)
#define KX_DOWN2(vd, vs) KECCAK_VSLIDEDOWNM(vd, vs, 2)
#endif

#if defined(KECCAK_NO_VROTUP)
#define KX_ROT1(vd, vs) "vror.vi " vd ", " vs ", 63\n\t"
#else
#define KX_ROT1(vd, vs) KECCAK_VROTUP(vd, vs, 1)
#endif

/* rho of row y (LMUL 1) or of the group (LMUL 8); the amounts of row y are in v<y> for the ablation. */
#if defined(KECCAK_NO_V64RHO)
#define KX_RHO_ROW(vd, vs, y) "vror.vv " vd ", " vs ", v" #y "\n\t"
#define KX_RHO_GROUP "vror.vv v16, v8, v0\n\t"
#else
#define KX_RHO_ROW(vd, vs, y) KECCAK_V64RHO(vd, vs, y)
#define KX_RHO_GROUP KECCAK_V64RHO("v16", "v8", KECCAK_ALL_ROWS)
#endif

#if defined(KECCAK_NO_VPI)
#define KX_PI_GROUP "vrgatherei16.vv v24, v16, v0\n\t"
#else
#define KX_PI_GROUP KECCAK_VPI("v24", "v16", KECCAK_ALL_ROWS)
#endif

/* t1 = ~t1 & t2 */
#if defined(KECCAK_VANDN)
#define KX_ANDNOT(t1, t2) "vandn.vv " t1 ", " t2 ", " t1 "\n\t"
#else
#define KX_ANDNOT(t1, t2) "vnot.v " t1 ", " t1 "\n\t" "vand.vv " t1 ", " t1 ", " t2 "\n\t"
#endif

/* iota on row 0 (LMUL 1), then the loop step: %[r] is the round number, or the RC pointer for the ablation. */
#if defined(KECCAK_NO_VIOTA)
#define KX_IOTA "ld %[t], 0(%[r])\n\t" "vxor.vx v8, v8, %[t], v0.t\n\t"
#define KX_STEP "8"
#else
#define KX_IOTA KECCAK_VIOTA("v8", "v8", "%[r]")
#define KX_STEP "1"
#endif

#define KX_THETA                                                                                               \
  "vxor.vv v13, v8, v9\n\t" "vxor.vv v13, v13, v10\n\t" "vxor.vv v13, v13, v11\n\t" "vxor.vv v13, v13, v12\n\t" \
  KX_UP1("v14", "v13") KX_DOWN1("v15", "v13") KX_ROT1("v15", "v15") "vxor.vv v14, v14, v15\n\t"               \
  "vxor.vv v8, v8, v14\n\t" "vxor.vv v9, v9, v14\n\t" "vxor.vv v10, v10, v14\n\t" "vxor.vv v11, v11, v14\n\t"   \
  "vxor.vv v12, v12, v14\n\t"

#if defined(VARIANT_XKECCAK64_LMUL8)
/* rho, pi, chi on the group: E = v16 group, F = v24 group, temporaries the v8 and v16 groups. */
#define KX_RPC                                                                                      \
  KX_M8 KX_RHO_GROUP KX_PI_GROUP KX_DOWN1("v8", "v24") KX_DOWN2("v16", "v24") KX_ANDNOT("v8", "v16") \
  "vxor.vv v8, v24, v8\n\t" KX_M1
#else
/* chi of row y: A_y = F_y ^ (~F_y[x+1] & F_y[x+2]), temporaries v13, v14. */
#define KX_CHI_ROW(a, f) KX_DOWN1("v13", f) KX_DOWN2("v14", f) KX_ANDNOT("v13", "v14") "vxor.vv " a ", " f ", v13\n\t"
#define KX_RPC                                                                                                       \
  KX_RHO_ROW("v16", "v8", 0) KX_RHO_ROW("v17", "v9", 1) KX_RHO_ROW("v18", "v10", 2) KX_RHO_ROW("v19", "v11", 3)     \
  KX_RHO_ROW("v20", "v12", 4)                                                                                       \
  KECCAK_VPI("v24", "v16", 0) KECCAK_VPI("v24", "v17", 1) KECCAK_VPI("v24", "v18", 2) KECCAK_VPI("v24", "v19", 3)   \
  KECCAK_VPI("v24", "v20", 4)                                                                                       \
  KX_CHI_ROW("v8", "v24") KX_CHI_ROW("v9", "v25") KX_CHI_ROW("v10", "v26") KX_CHI_ROW("v11", "v27")                 \
  KX_CHI_ROW("v12", "v28")
#endif

/* ---- tables, built once per VLEN (keccak_x64_build) ---- */
#define KX_MAX_VLENB 512 /* VLEN 4096 */
/* The table loops stay scalar (the vectorizer would use instructions the kernel does not need). */
#define KX_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
/* Gather index of the load (element r*EleNum + 5i + x of the row group <- lane 25i + 5r + x of the states in memory)
 * and of the store (the inverse), EEW 16, two registers each. */
static uint16_t kx_load_index[KX_MAX_VLENB] __attribute__((aligned(64)));
static uint16_t kx_store_index[KX_MAX_VLENB] __attribute__((aligned(64)));
#if KX_TABLE
/* v0..v7 of the ablation, 8 registers. */
static uint8_t kx_table[8 * KX_MAX_VLENB] __attribute__((aligned(64)));
#endif
static unsigned kx_ele; /* EleNum = VLEN/64, 0 until built */

/* Element index of lane x mod 5 of row r of state i in a register group of `ele` elements a register. */
static inline unsigned kx_at(unsigned ele, unsigned r, unsigned i, unsigned x) { return r * ele + 5 * i + x % 5; }

static void keccak_x64_build(void) {
  unsigned long vlenb;
  __asm__ volatile("csrr %0, vlenb" : "=r"(vlenb));
  if (vlenb > KX_MAX_VLENB) vlenb = 0; /* beyond VLEN 4096: report "too small" rather than overflow the tables */
  const unsigned ele = (unsigned)(vlenb / 8), sn = ele / 5, vlmax8 = 8 * ele;
  KX_SCALAR_LOOP
  for (unsigned e = 0; e < vlmax8; ++e) {
    const unsigned r = e / ele, p = e % ele;
    kx_load_index[e] = (uint16_t)(r < 5 && p < 5 * sn ? 25 * (p / 5) + 5 * r + p % 5 : 0);
    kx_store_index[e] = (uint16_t)(e < 25 * sn ? kx_at(ele, (e % 25) / 5, e / 25, e % 5) : 0);
  }
#if defined(KECCAK_NO_V64RHO)
  uint64_t* amount = (uint64_t*)(void*)kx_table; /* v0..v7 at SEW 64: row r in v<r> */
  KX_SCALAR_LOOP
  for (unsigned e = 0; e < vlmax8; ++e) {
    const unsigned r = e / ele, p = e % ele;
    amount[e] = r < 5 && p < 5 * sn ? (64u - keccak_rho[p % 5 + 5 * r]) % 64u : 0;
  }
#elif defined(KECCAK_NO_VSLIDEM)
  uint16_t* down1 = (uint16_t*)(void*)kx_table;   /* v0-v1 */
  uint16_t* down2 = down1 + vlenb;                /* v2-v3 */
  uint16_t* up1 = down2 + vlenb;                  /* v4 (LMUL 1, EMUL 1/4: only elements < EleNum are read) */
  KX_SCALAR_LOOP
  for (unsigned e = 0; e < vlmax8; ++e) {
    const unsigned r = e / ele, p = e % ele, i = p / 5, x = p % 5;
    const int lane = r < 5 && p < 5 * sn;
    down1[e] = (uint16_t)(lane ? kx_at(ele, r, i, x + 1) : e);
    down2[e] = (uint16_t)(lane ? kx_at(ele, r, i, x + 2) : e);
  }
  KX_SCALAR_LOOP
  for (unsigned p = 0; p < vlenb / 2; ++p) up1[p] = (uint16_t)(p < 5 * sn ? kx_at(ele, 0, p / 5, p % 5 + 4) : p);
#elif defined(KECCAK_NO_VPI)
  /* F[x', y'] = E[(x' + 3y') mod 5, x']: destination row y' = r, lane x' of state i reads row x', lane x'+3y'. */
  uint16_t* pi = (uint16_t*)(void*)kx_table; /* v0-v1 */
  KX_SCALAR_LOOP
  for (unsigned e = 0; e < vlmax8; ++e) {
    const unsigned r = e / ele, p = e % ele, i = p / 5, x = p % 5;
    pi[e] = (uint16_t)(r < 5 && p < 5 * sn ? kx_at(ele, x, i, x + 3 * r) : e);
  }
#elif defined(KECCAK_NO_VIOTA)
  KX_SCALAR_LOOP
  for (unsigned b = 0; b < vlenb; ++b) kx_table[b] = 0; /* v0: mask of the x = 0 lanes */
  KX_SCALAR_LOOP
  for (unsigned p = 0; p < 5 * sn; p += 5) kx_table[p / 8] |= (uint8_t)(1u << (p % 8));
#endif
  kx_ele = ele;
}

/* SN = floor(VLEN / 64 / 5) (0: no state fits); builds the tables for this VLEN (called before the region). */
static unsigned keccak_states_per_pass(void) {
  keccak_x64_build();
  return kx_ele / 5;
}

static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds) {
  if (kx_ele == 0) keccak_x64_build(); /* not reached from keccak.c / sponge.c, which ask for SN first */
  const unsigned long ele = kx_ele, grp = 5 * ele, n25 = 25 * (unsigned long)sn;
#if defined(KECCAK_NO_VIOTA)
  const uint64_t* r = keccak_rc + first_round;
  const uint64_t* end = r + rounds;
  unsigned long t;
#else
  unsigned long r = first_round, end = (unsigned long)first_round + rounds;
#endif
  __asm__ volatile(
      /* load: the sn states as they lie in memory, then rows by one gather */
      "vl2re16.v v0, (%[li])\n\t"
      "vsetvli zero, %[n25], e64, m8, tu, mu\n\t"
      "vle64.v v16, (%[st])\n\t"
      KX_M8
      "vrgatherei16.vv v8, v16, v0\n\t"
#if KX_TABLE
      "vl8re64.v v0, (%[tab])\n\t"
#endif
      KX_M1
      "beq %[r], %[end], 2f\n"
      "1:\n\t"
      KX_THETA KX_RPC KX_IOTA
      "addi %[r], %[r], " KX_STEP "\n\t"
      "bne %[r], %[end], 1b\n"
      "2:\n\t"
      /* store: the inverse gather, one vse64.v */
      "vl2re16.v v0, (%[si])\n\t"
      "vsetvli zero, %[n25], e64, m8, tu, mu\n\t"
      "vrgatherei16.vv v16, v8, v0\n\t"
      "vse64.v v16, (%[st])\n\t"
      : [r] "+&r"(r)
#if defined(KECCAK_NO_VIOTA)
        , [t] "=&r"(t)
#endif
      : [st] "r"(states), [n25] "r"(n25), [ele] "r"(ele), [grp] "r"(grp), [end] "r"(end), [li] "r"(kx_load_index),
        [si] "r"(kx_store_index)
#if KX_TABLE
        , [tab] "r"(kx_table)
#endif
      : "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
        "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",
        "v30", "v31", "vl", "vtype");
}

#endif
