// Differential vector test: runs the RVV 1.0 and vector-crypto instructions the simulator implements on
// pseudo-random register contents (seeded from stdin) under several vtype settings, masked and unmasked, and
// prints one hash per case: of the whole destination register group (tails and masked-off elements included, so
// the undisturbed policy is compared too), of vl, and of scalar results. Run on Spike and on our simulator with
// the same VLEN (Spike: zvl<N>b in --isa), the outputs must be equal (tests/cpp/test_rv_vector_spike.cpp).
// Registers: v8.. = A, v16.. = B, v24.. = C (the destination, prefilled), v0 = mask M.
#include "platform.h"

typedef unsigned long xlen_t;

static uint64_t seed_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  seed_state ^= seed_state << 13;
  seed_state ^= seed_state >> 7;
  seed_state ^= seed_state << 17;
  return seed_state;
}

#define BUF 2048  // bytes: 8 registers of VLEN up to 2048 bits
static unsigned char A[BUF] __attribute__((aligned(64))), B[BUF] __attribute__((aligned(64)));
static unsigned char C[BUF] __attribute__((aligned(64))), M[BUF] __attribute__((aligned(64)));
static unsigned char OUT[BUF] __attribute__((aligned(64)));
static unsigned long vlenb;

#define MAX_RESULTS 220
static uint64_t acc;
static const char* names[MAX_RESULTS];
static uint64_t hashes[MAX_RESULTS];
static int nresults;
static void mix(uint64_t v) { acc = (acc ^ v) * 0x100000001B3ull + 1; }
static void mix_out(void) {
  for (unsigned long i = 0; i < 8 * vlenb; i += 8) {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= (uint64_t)OUT[i + k] << (8 * k);
    mix(w);
  }
}
static void report(const char* name) {
  if (nresults < MAX_RESULTS) names[nresults] = name, hashes[nresults++] = acc;
  acc = 0;
}

/// Loads A, B, C, M into v8-v15, v16-v23, v24-v31, v0; sets vtype `cfg` with AVL `avl`; runs `insn`; stores
/// v24-v31 to OUT. Mixes in vl and OUT.
#define VCASE(cfg, avl, insn)                                                                        \
  do {                                                                                               \
    xlen_t vl_;                                                                                      \
    __asm__ volatile("vsetvli t0, zero, e8, m8, ta, ma\n\t"                                         \
                     "vl8re8.v v8, (%[a])\n\tvl8re8.v v16, (%[b])\n\tvl8re8.v v24, (%[c])\n\t"      \
                     "vlm.v v0, (%[m])\n\t"                                                         \
                     "vsetvli %[vl], %[n], " cfg "\n\t" insn "\n\t"                                 \
                     "vs8r.v v24, (%[o])"                                                           \
                     : [vl] "=&r"(vl_)                                                              \
                     : [a] "r"(A), [b] "r"(B), [c] "r"(C), [m] "r"(M), [o] "r"(OUT), [n] "r"(avl),  \
                       [n2] "r"((xlen_t)5)                                                          \
                     : "t0", "t1", "memory");                                                             \
    mix(vl_);                                                                                        \
    mix_out();                                                                                       \
  } while (0)

/// The same instruction over a few configurations and AVLs (all, a partial one, zero).
#define VINT(insn)                                                                                   \
  do {                                                                                               \
    VCASE("e8, m1, tu, mu", 1000, insn);                                                             \
    VCASE("e16, m2, tu, mu", 13, insn);                                                              \
    VCASE("e32, m1, ta, ma", 3, insn);                                                               \
    VCASE("e64, m4, tu, mu", 1000, insn);                                                            \
    VCASE("e32, mf2, tu, mu", 1000, insn);                                                           \
    VCASE("e8, m1, tu, mu", 0, insn);                                                                \
    report(insn);                                                                                    \
  } while (0)
/// Instructions that need SEW >= 32 (vzext/vsext).
#define VINT32(insn)                                                                                 \
  do {                                                                                               \
    VCASE("e32, m1, ta, ma", 3, insn);                                                               \
    VCASE("e64, m4, tu, mu", 1000, insn);                                                            \
    VCASE("e32, mf2, tu, mu", 1000, insn);                                                           \
    report(insn);                                                                                    \
  } while (0)
/// Element-group instructions: vl a multiple of EGS (VLMAX, or one group).
#define VEG(cfg, insn)                                                                               \
  do {                                                                                               \
    VCASE(cfg, 1000, insn);                                                                          \
    report(cfg " " insn);                                                                            \
  } while (0)

/// vmv.x.s / vcpop.m / vfirst.m: scalar results.
#define VSCALAR(cfg, avl, insn)                                                                      \
  do {                                                                                               \
    xlen_t r_;                                                                                       \
    __asm__ volatile("vsetvli t0, zero, e8, m8, ta, ma\n\tvl8re8.v v8, (%[a])\n\tvlm.v v0, (%[m])\n\t" \
                     "vsetvli t0, %[n], " cfg "\n\t" insn                                           \
                     : [r] "=&r"(r_)                                                                \
                     : [a] "r"(A), [m] "r"(M), [n] "r"(avl)                                         \
                     : "t0", "memory");                                                             \
    mix(r_);                                                                                         \
    report(cfg " " insn);                                                                            \
  } while (0)

int main(void) {
  // Vector state on (Spike starts with mstatus.VS off).
  __asm__ volatile("li t0, 0x200\n\tcsrs mstatus, t0" ::: "t0");
  __asm__ volatile("csrr %0, vlenb" : "=r"(vlenb));
  unsigned char in[64];
  long n = sys_read(0, in, sizeof in);
  for (long i = 0; i < n; ++i) seed_state = (seed_state ^ in[i]) * 31 + 7;
  if (seed_state == 0) seed_state = 1;
  for (int i = 0; i < BUF; ++i) {
    A[i] = (unsigned char)next_rand(), B[i] = (unsigned char)next_rand(), C[i] = (unsigned char)next_rand();
    M[i] = (unsigned char)next_rand();
  }
  for (int i = 0; i < 16; ++i) B[i] &= 7;  // small shift counts and gather indexes among the first elements
  uint64_t before = read_minstret();
  region_marker();

  // vsetvl* rules: VLMAX, AVL, keep-vl, vill.
  {
    xlen_t r1, r2, r3, r4, t1, t2;
    __asm__ volatile(
        "vsetvli %0, zero, e32, m4, ta, ma\n\t"
        "vsetvli %1, %6, e16, m1, tu, mu\n\t"
        "vsetvli zero, zero, e8, mf2, tu, mu\n\tcsrr %2, vl\n\t"
        "vsetivli %3, 17, e64, m8, ta, mu\n\t"
        "li t0, 0x1F\n\tvsetvl %4, %6, t0\n\tcsrr %5, vtype"
        : "=&r"(r1), "=&r"(r2), "=&r"(r3), "=&r"(r4), "=&r"(t1), "=&r"(t2)
        : "r"((xlen_t)37)
        : "t0");
    mix(r1), mix(r2), mix(r3), mix(r4), mix(t1), mix(t2);
    report("vsetvl rules");
  }

  // Loads and stores.
  VINT("vle8.v v24, (%[b]), v0.t");
  VINT("vle16.v v24, (%[b])");
  VINT("vle32.v v24, (%[b]), v0.t");
  VINT("vle64.v v24, (%[b])");
  VINT("li t0, 24\n\tvlse32.v v24, (%[b]), t0, v0.t");
  VINT("li t0, -8\n\taddi t1, %[b], 512\n\tvlse64.v v24, (t1), t0");
  VINT("vse32.v v8, (%[o]), v0.t\n\tvl8re8.v v24, (%[o])");
  VINT("li t0, 12\n\tvsse16.v v8, (%[o]), t0\n\tvl8re8.v v24, (%[o])");
  VINT("vl2re32.v v24, (%[b])");
  VINT("vs4r.v v8, (%[o])\n\tvl4re64.v v24, (%[o])");
  VINT("vlm.v v24, (%[b])");
  VINT("vsm.v v8, (%[o])\n\tvl1re8.v v24, (%[o])");

  // Integer arithmetic, logic, shifts, compares, merges, moves.
  VINT("vadd.vv v24, v8, v16, v0.t"); VINT("vadd.vx v24, v8, %[n]"); VINT("vadd.vi v24, v8, -7, v0.t");
  VINT("vsub.vv v24, v8, v16"); VINT("vrsub.vi v24, v8, 5, v0.t"); VINT("vsub.vx v24, v8, %[a]");
  VINT("vminu.vv v24, v8, v16"); VINT("vmin.vv v24, v8, v16, v0.t"); VINT("vmaxu.vx v24, v8, %[a]"); VINT("vmax.vv v24, v8, v16");
  VINT("vand.vv v24, v8, v16"); VINT("vor.vi v24, v8, 13, v0.t"); VINT("vxor.vx v24, v8, %[a], v0.t");
  VINT("vsll.vv v24, v8, v16"); VINT("vsrl.vi v24, v8, 3, v0.t"); VINT("vsra.vv v24, v8, v16"); VINT("vsra.vi v24, v8, 31");
  VINT("vsll.vx v24, v8, %[n]");
  VINT("vmul.vv v24, v8, v16, v0.t"); VINT("vmulhu.vv v24, v8, v16");
  VINT("vmseq.vv v24, v8, v16"); VINT("vmsne.vi v24, v8, 0, v0.t"); VINT("vmsltu.vv v24, v8, v16");
  VINT("vmslt.vx v24, v8, %[a]"); VINT("vmsleu.vi v24, v8, 7"); VINT("vmsle.vv v24, v8, v16, v0.t");
  VINT("vmsgtu.vx v24, v8, %[a]"); VINT("vmsgt.vi v24, v8, -3");
  VINT("vmerge.vvm v24, v8, v16, v0"); VINT("vmerge.vim v24, v8, 9, v0"); VINT("vmerge.vxm v24, v8, %[a], v0");
  VINT("vmv.v.v v24, v8"); VINT("vmv.v.x v24, %[a]"); VINT("vmv.v.i v24, -16");
  VINT32("vzext.vf2 v24, v8, v0.t"); VINT32("vsext.vf4 v24, v8"); VINT32("vsext.vf2 v24, v8");
  VINT("vmand.mm v24, v8, v16"); VINT("vmandn.mm v24, v8, v16"); VINT("vmxnor.mm v24, v8, v16"); VINT("vmorn.mm v24, v8, v16");
  VINT("vmnand.mm v24, v8, v16"); VINT("vmnor.mm v24, v8, v16"); VINT("vmor.mm v24, v8, v16"); VINT("vmxor.mm v24, v8, v16");
  VINT("vid.v v24, v0.t"); VINT("viota.m v24, v8"); VINT("viota.m v24, v8, v0.t");

  // Permutations.
  VINT("vslideup.vx v24, v8, %[n2], v0.t"); VINT("vslideup.vi v24, v8, 3");
  VINT("vslidedown.vi v24, v8, 5, v0.t"); VINT("vslidedown.vx v24, v8, %[n2]");
  VINT("vslide1up.vx v24, v8, %[a]"); VINT("vslide1down.vx v24, v8, %[a], v0.t");
  VINT("vrgather.vv v24, v8, v16"); VINT("vrgather.vi v24, v8, 2, v0.t"); VINT("vrgather.vx v24, v8, %[n2]");
  VINT("vrgatherei16.vv v24, v8, v16");
  VINT("vmv.s.x v24, %[a]"); VINT("vmv1r.v v24, v8"); VINT("vmv4r.v v24, v8"); VINT("vmv8r.v v24, v8");
  VSCALAR("e8, m1, tu, mu", 1000, "vmv.x.s %[r], v8");
  VSCALAR("e64, m1, tu, mu", 1000, "vmv.x.s %[r], v8");
  VSCALAR("e16, m2, tu, mu", 0, "vmv.x.s %[r], v8");
  VSCALAR("e8, m1, tu, mu", 1000, "vcpop.m %[r], v8");
  VSCALAR("e32, m1, tu, mu", 1000, "vcpop.m %[r], v8, v0.t");
  VSCALAR("e8, m1, tu, mu", 1000, "vfirst.m %[r], v8");

  // Zvbb / Zvkb.
  VINT("vandn.vv v24, v8, v16, v0.t"); VINT("vandn.vx v24, v8, %[a]");
  VINT("vbrev8.v v24, v8"); VINT("vrev8.v v24, v8, v0.t"); VINT("vbrev.v v24, v8");
  VINT("vclz.v v24, v8"); VINT("vctz.v v24, v8, v0.t"); VINT("vcpop.v v24, v8");
  VINT("vrol.vv v24, v8, v16"); VINT("vrol.vx v24, v8, %[n2]"); VINT("vror.vv v24, v8, v16, v0.t");
  VINT("vror.vx v24, v8, %[a]"); VINT("vror.vi v24, v8, 37"); VINT("vror.vi v24, v8, 7");
  VEG("e16, m2, tu, mu", "vwsll.vv v24, v8, v16"); VEG("e32, m1, tu, mu", "vwsll.vi v24, v8, 17, v0.t");
  VEG("e8, m4, tu, mu", "vwsll.vx v24, v8, %[n2]");

  // Zvbc (SEW 64).
  VEG("e64, m1, tu, mu", "vclmul.vv v24, v8, v16"); VEG("e64, m2, tu, mu", "vclmul.vx v24, v8, %[a], v0.t");
  VEG("e64, m1, tu, mu", "vclmulh.vv v24, v8, v16, v0.t"); VEG("e64, m4, tu, mu", "vclmulh.vx v24, v8, %[a]");

  // Zvkg.
  VEG("e32, m1, tu, mu", "vghsh.vv v24, v8, v16"); VEG("e32, m4, tu, mu", "vghsh.vv v24, v8, v16");
  VEG("e32, m2, tu, mu", "vgmul.vv v24, v8");

  // Zvkned.
  VEG("e32, m1, tu, mu", "vaesef.vv v24, v8"); VEG("e32, m2, tu, mu", "vaesef.vs v24, v8");
  VEG("e32, m1, tu, mu", "vaesem.vv v24, v8"); VEG("e32, m4, tu, mu", "vaesem.vs v24, v8");
  VEG("e32, m1, tu, mu", "vaesdf.vv v24, v8"); VEG("e32, m2, tu, mu", "vaesdf.vs v24, v8");
  VEG("e32, m1, tu, mu", "vaesdm.vv v24, v8"); VEG("e32, m1, tu, mu", "vaesdm.vs v24, v8");
  VEG("e32, m2, tu, mu", "vaesz.vs v24, v8");
  VEG("e32, m1, tu, mu", "vaeskf1.vi v24, v8, 1"); VEG("e32, m2, tu, mu", "vaeskf1.vi v24, v8, 10");
  VEG("e32, m1, tu, mu", "vaeskf1.vi v24, v8, 0"); VEG("e32, m1, tu, mu", "vaeskf1.vi v24, v8, 13");
  VEG("e32, m1, tu, mu", "vaeskf2.vi v24, v8, 2"); VEG("e32, m1, tu, mu", "vaeskf2.vi v24, v8, 7");
  VEG("e32, m2, tu, mu", "vaeskf2.vi v24, v8, 14"); VEG("e32, m1, tu, mu", "vaeskf2.vi v24, v8, 1");

  // Zvknha / Zvknhb.
  VEG("e32, m1, tu, mu", "vsha2ms.vv v24, v8, v16"); VEG("e32, m2, tu, mu", "vsha2ch.vv v24, v8, v16");
  VEG("e32, m1, tu, mu", "vsha2cl.vv v24, v8, v16");
  VEG("e64, m2, tu, mu", "vsha2ms.vv v24, v8, v16"); VEG("e64, m2, tu, mu", "vsha2ch.vv v24, v8, v16");
  VEG("e64, m4, tu, mu", "vsha2cl.vv v24, v8, v16");

  // Zvksed / Zvksh.
  VEG("e32, m1, tu, mu", "vsm4k.vi v24, v8, 0"); VEG("e32, m1, tu, mu", "vsm4k.vi v24, v8, 7");
  VEG("e32, m2, tu, mu", "vsm4r.vv v24, v8"); VEG("e32, m1, tu, mu", "vsm4r.vs v24, v8");
  VEG("e32, m2, tu, mu", "vsm3me.vv v24, v8, v16"); VEG("e32, m4, tu, mu", "vsm3me.vv v24, v8, v16");
  VEG("e32, m2, tu, mu", "vsm3c.vi v24, v8, 0"); VEG("e32, m2, tu, mu", "vsm3c.vi v24, v8, 9");
  VEG("e32, m2, tu, mu", "vsm3c.vi v24, v8, 31");

  uint64_t after = read_minstret();
  region_marker();
  for (int k = 0; k < nresults; ++k) {
    write_str(1, names[k]);
    write_str(1, " ");
    write_hex(1, hashes[k]);
    write_str(1, "\n");
  }
  write_str(2, "instret ");
  write_u64(2, after - before);
  write_str(2, "\n");
  return 0;
}
