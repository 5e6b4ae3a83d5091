/* Keccak variant header: standard RVV 1.0 only (variant `rvv`, rv64gcv: no vector crypto, no custom instruction),
 * seed 004's "vector extensions" row.
 *
 * Layout as seed 004's custom instructions use it (docs/isa-lab.md, "Custom Keccak vector instructions"): SN =
 * floor(VLEN / 64 / 5) states side by side, one LMUL-1 register per row: element 5i + x of row register y holds lane
 * (x, y) of state i; every instruction runs at SEW 64 with vl = 5 * sn. What the custom instructions do in one go
 * takes standard ones here:
 *   - the slides modulo 5 inside each group of five (theta's C[x - 1] and C[x + 1], chi's B[x + 1] and B[x + 2]) are
 *     vrgather.vv with index vectors idx_k[5i + x] = 5i + (x + k) mod 5;
 *   - the rotations are vsll + vsrl + vor (no vror without Zvkb), rho with per-element shift amounts (one pair of
 *     shift vectors per row);
 *   - pi (lane (x, y) to (y, 2x + 3y)) moves data across the five registers: output row y' takes lane x' from row
 *     x' at position (x' + 3y') mod 5, so it is built by gathers of every source row r with idx_{3y' mod 5}, under
 *     the mask "x = r" (vmseq into v0) — vmerge for y' = 0, whose index is the identity;
 *   - iota is a vxor.vx of RC under the mask "x = 0".
 * The index, shift and mask-source vectors are built once per pass, before the rounds; loading a pass is one
 * vle64 of each state's row (vl = 5) slid up to position 5i, storing the reverse.
 * The same ELF runs at any VLEN >= 320 (SN >= 1): SN is read from vlenb at run time. */
#ifndef CA_RV_KECCAK_RVV_H
#define CA_RV_KECCAK_RVV_H

#define KECCAK_SEW 64

#include "keccak_common.h"

typedef uint64_t __attribute__((may_alias)) keccak_vu64;

/* rho offsets as 64-bit elements, to load a row's five into a vector. */
static const uint64_t keccak_rho64[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                          25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

/* SN = floor(VLEN / 64 / 5): VLMAX at SEW 64, LMUL 1 is VLEN / 64. */
static unsigned keccak_states_per_pass(void) { return (unsigned)(__riscv_vsetvlmax_e64m1() / 5); }

/* idx_k: 5i + (x + k) mod 5 for element 5i + x (x = element mod 5, base = 5i). */
static inline vuint64m1_t keccak_rvv_index(vuint64m1_t x, vuint64m1_t base, unsigned k, size_t vl) {
  vuint64m1_t t = __riscv_vadd_vx_u64m1(x, k, vl);
  const vbool64_t wrap = __riscv_vmsgeu_vx_u64m1_b64(t, 5, vl);
  t = __riscv_vsub_vx_u64m1_mu(wrap, t, t, 5, vl);
  return __riscv_vadd_vv_u64m1(base, t, vl);
}

static inline vuint64m1_t keccak_rvv_rotl1(vuint64m1_t v, size_t vl) {
  return __riscv_vor_vv_u64m1(__riscv_vsll_vx_u64m1(v, 1, vl), __riscv_vsrl_vx_u64m1(v, 63, vl), vl);
}

/* Row y of state i into elements 5i .. 5i + 4 of `row` (states 0 .. sn - 1). */
#define KECCAK_RVV_LOAD_ROW(row, y)                                                                              \
  do {                                                                                                           \
    row = __riscv_vle64_v_u64m1((const keccak_vu64*)states + 5 * (y), 5);                                        \
    for (unsigned i_ = 1; i_ < sn; ++i_)                                                                         \
      row = __riscv_vslideup_vx_u64m1(row, __riscv_vle64_v_u64m1((const keccak_vu64*)states + 25 * i_ + 5 * (y), 5), \
                                      5 * i_, 5 * i_ + 5);                                                       \
  } while (0)

/* The reverse. */
#define KECCAK_RVV_STORE_ROW(row, y)                                                                             \
  do {                                                                                                           \
    __riscv_vse64_v_u64m1((keccak_vu64*)states + 5 * (y), row, 5);                                               \
    for (unsigned i_ = 1; i_ < sn; ++i_)                                                                         \
      __riscv_vse64_v_u64m1((keccak_vu64*)states + 25 * i_ + 5 * (y), __riscv_vslidedown_vx_u64m1(row, 5 * i_, 5), 5); \
  } while (0)

/* Per-element shift amounts of row y: rho (left) and 64 - rho (right: vsrl uses the low 6 bits, 0 for rho = 0). */
#define KECCAK_RVV_RHO(y)                                                                                        \
  const vuint64m1_t rl##y =                                                                                      \
      __riscv_vrgather_vv_u64m1(__riscv_vle64_v_u64m1((const keccak_vu64*)keccak_rho64 + 5 * (y), 5), x, vl);     \
  const vuint64m1_t rr##y = __riscv_vrsub_vx_u64m1(rl##y, 64, vl)

/* theta's D, then rho, on row y. */
#define KECCAK_RVV_THETA_RHO(y)                                                                                  \
  do {                                                                                                           \
    const vuint64m1_t t_ = __riscv_vxor_vv_u64m1(a##y, d, vl);                                                   \
    a##y = __riscv_vor_vv_u64m1(__riscv_vsll_vv_u64m1(t_, rl##y, vl), __riscv_vsrl_vv_u64m1(t_, rr##y, vl), vl);  \
  } while (0)

/* pi, source row s >= 1 under the mask "x = s". */
#define KECCAK_RVV_PI_FROM(s)                                                                                    \
  do {                                                                                                           \
    const vbool64_t m_ = __riscv_vmseq_vx_u64m1_b64(x, s, vl);                                                   \
    b0 = __riscv_vmerge_vvm_u64m1(b0, a##s, m_, vl);                                                             \
    b1 = __riscv_vrgather_vv_u64m1_mu(m_, b1, a##s, idx3, vl);                                                   \
    b2 = __riscv_vrgather_vv_u64m1_mu(m_, b2, a##s, idx1, vl);                                                   \
    b3 = __riscv_vrgather_vv_u64m1_mu(m_, b3, a##s, idx4, vl);                                                   \
    b4 = __riscv_vrgather_vv_u64m1_mu(m_, b4, a##s, idx2, vl);                                                   \
  } while (0)

/* chi on row y: a[x] = b[x] ^ (~b[x + 1] & b[x + 2]). */
#define KECCAK_RVV_CHI(y)                                                                                        \
  do {                                                                                                           \
    const vuint64m1_t n_ = __riscv_vnot_v_u64m1(__riscv_vrgather_vv_u64m1(b##y, idx1, vl), vl);                  \
    a##y = __riscv_vxor_vv_u64m1(b##y, __riscv_vand_vv_u64m1(n_, __riscv_vrgather_vv_u64m1(b##y, idx2, vl), vl), vl); \
  } while (0)

static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds) {
  const size_t vl = 5 * (size_t)sn;
  /* Constants of the pass: x = element mod 5, base = 5i, the index vectors, the rho shift amounts. */
  const vuint64m1_t id = __riscv_vid_v_u64m1(vl);
  /* element / 5 as a multiply-high by ceil(2^66 / 5) and a shift (exact for every 64-bit value; no vector divide) */
  const vuint64m1_t state = __riscv_vsrl_vx_u64m1(__riscv_vmulhu_vx_u64m1(id, 0xcccccccccccccccdull, vl), 2, vl);
  const vuint64m1_t base = __riscv_vmul_vx_u64m1(state, 5, vl);
  const vuint64m1_t x = __riscv_vsub_vv_u64m1(id, base, vl);
  const vuint64m1_t idx1 = keccak_rvv_index(x, base, 1, vl), idx2 = keccak_rvv_index(x, base, 2, vl);
  const vuint64m1_t idx3 = keccak_rvv_index(x, base, 3, vl), idx4 = keccak_rvv_index(x, base, 4, vl);
  KECCAK_RVV_RHO(0);
  KECCAK_RVV_RHO(1);
  KECCAK_RVV_RHO(2);
  KECCAK_RVV_RHO(3);
  KECCAK_RVV_RHO(4);
  vuint64m1_t a0, a1, a2, a3, a4, b0, b1, b2, b3, b4;
  KECCAK_RVV_LOAD_ROW(a0, 0);
  KECCAK_RVV_LOAD_ROW(a1, 1);
  KECCAK_RVV_LOAD_ROW(a2, 2);
  KECCAK_RVV_LOAD_ROW(a3, 3);
  KECCAK_RVV_LOAD_ROW(a4, 4);

  for (unsigned r = first_round; r < first_round + rounds; ++r) {
    /* theta: C = xor of the rows, D[x] = C[x - 1] ^ rotl(C[x + 1], 1) */
    vuint64m1_t c = __riscv_vxor_vv_u64m1(a0, a1, vl);
    c = __riscv_vxor_vv_u64m1(c, a2, vl);
    c = __riscv_vxor_vv_u64m1(c, a3, vl);
    c = __riscv_vxor_vv_u64m1(c, a4, vl);
    const vuint64m1_t d = __riscv_vxor_vv_u64m1(__riscv_vrgather_vv_u64m1(c, idx4, vl),
                                                keccak_rvv_rotl1(__riscv_vrgather_vv_u64m1(c, idx1, vl), vl), vl);
    KECCAK_RVV_THETA_RHO(0);
    KECCAK_RVV_THETA_RHO(1);
    KECCAK_RVV_THETA_RHO(2);
    KECCAK_RVV_THETA_RHO(3);
    KECCAK_RVV_THETA_RHO(4);
    /* pi: b[y'][x'] = a[x'][(x' + 3y') mod 5]: source row 0 into every lane first, then rows 1..4 under "x = s"
     * (3y' mod 5 = 0, 3, 1, 4, 2 for y' = 0..4; row 0's index is the identity). */
    b0 = a0;
    b1 = __riscv_vrgather_vv_u64m1(a0, idx3, vl);
    b2 = __riscv_vrgather_vv_u64m1(a0, idx1, vl);
    b3 = __riscv_vrgather_vv_u64m1(a0, idx4, vl);
    b4 = __riscv_vrgather_vv_u64m1(a0, idx2, vl);
    KECCAK_RVV_PI_FROM(1);
    KECCAK_RVV_PI_FROM(2);
    KECCAK_RVV_PI_FROM(3);
    KECCAK_RVV_PI_FROM(4);
    KECCAK_RVV_CHI(0);
    KECCAK_RVV_CHI(1);
    KECCAK_RVV_CHI(2);
    KECCAK_RVV_CHI(3);
    KECCAK_RVV_CHI(4);
    /* iota: RC into lane (0, 0) of every state */
    a0 = __riscv_vxor_vx_u64m1_mu(__riscv_vmseq_vx_u64m1_b64(x, 0, vl), a0, a0, keccak_rc[r], vl);
  }

  KECCAK_RVV_STORE_ROW(a0, 0);
  KECCAK_RVV_STORE_ROW(a1, 1);
  KECCAK_RVV_STORE_ROW(a2, 2);
  KECCAK_RVV_STORE_ROW(a3, 3);
  KECCAK_RVV_STORE_ROW(a4, 4);
}

#endif
