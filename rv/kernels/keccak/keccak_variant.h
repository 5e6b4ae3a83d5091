/* Picks the Keccak variant header for the build's VARIANT_* define (common/variant.h) and XLEN. Every variant header
 * implements the interface described at the top of keccak.c (KECCAK_SEW, keccak_states_per_pass,
 * keccak_permute_pass); keccak.c (the permutation kernel) and sponge.c (SHA3-256, SHAKE128) are built on it alone.
 * A new variant: add its header below (and its define to common/variant.h and kernels.json). */
#ifndef CA_RV_KECCAK_VARIANT_H
#define CA_RV_KECCAK_VARIANT_H

#include "../common/variant.h"
#include "../platform/io.h"

#if defined(VARIANT_RVV)
#include "keccak_rvv.h"
#elif defined(VARIANT_XKECCAK64_LMUL1) || defined(VARIANT_XKECCAK64_LMUL8)
#include "keccak_x64.h" /* seed 004's custom instructions, 64-bit lanes (and the ablations) */
#elif defined(VARIANT_XKECCAK32_LMUL8)
#include "keccak_x32.h" /* seed 004's custom instructions, 32-bit bit-interleaved */
#elif defined(VARIANT_REFERENCE) || defined(VARIANT_HYBRID)
#if __riscv_xlen == 64
#include "keccak_scalar64.h"
#else
#include "keccak_scalar32.h"
#endif
#else
#error "the Keccak kernels have no implementation for this variant (rv/kernels/keccak/keccak_variant.h)"
#endif

#if !defined(KECCAK_SEW) || (KECCAK_SEW != 32 && KECCAK_SEW != 64)
#error "a Keccak variant header must define KECCAK_SEW as 32 or 64"
#endif

/* A lane as the variant keeps it in memory (bit-interleaved for KECCAK_SEW 32), and back. */
#if KECCAK_SEW == 32
#define KECCAK_LANE_IN(v) keccak_bi_interleave(v)
#define KECCAK_LANE_OUT(v) keccak_bi_deinterleave(v)
#else
#define KECCAK_LANE_IN(v) (v)
#define KECCAK_LANE_OUT(v) (v)
#endif

/* The variant's states per pass, checked: a vector variant on a machine whose VLEN holds no whole state (VLEN <
 * 5 * SEW) cannot run, and says so (exit status CA_EXIT_UNSUPPORTED). Called before the measured region. */
static inline unsigned keccak_checked_states_per_pass(void) {
  const unsigned sn = keccak_states_per_pass();
  if (sn == 0) {
    ca_write_str(2, "kernel: VLEN too small for one Keccak state (5 elements of SEW bits per register)\n");
    ca_exit(CA_EXIT_UNSUPPORTED);
  }
  return sn;
}

#endif
