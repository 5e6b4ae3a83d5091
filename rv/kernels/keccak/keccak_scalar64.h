/* Keccak variant header: scalar RV64, one 64-bit register per lane (variants `reference` and `hybrid` on RV64).
 *
 * A plain reading of FIPS 202's step mappings on 25 lanes held in local variables (the compiler keeps them in
 * registers: the loops below have constant bounds and are unrolled, so every index is a constant). The rotations are
 * ca_ror64 of common/variant.h: shifts and an OR for `reference` (rv64imc), `rori` for `hybrid` (Zbkb), which is
 * the only difference between the two (and whatever else of Zbkb the compiler picks, e.g. `andn` in chi).
 * SN = 1: a pass is one state. */
#ifndef CA_RV_KECCAK_SCALAR64_H
#define CA_RV_KECCAK_SCALAR64_H

#define KECCAK_SEW 64

#include "keccak_common.h"

/* Rotate left by n, 0 <= n < 64 (a constant after unrolling: n = 0 is no instruction at all). */
static inline uint64_t keccak_rol64(uint64_t x, unsigned n) { return n ? ca_ror64(x, 64 - n) : x; }

/* One round on a[25] with round constant rc: theta, rho, pi, chi, iota. */
static inline __attribute__((always_inline)) void keccak_round64(uint64_t a[25], uint64_t rc) {
  uint64_t c[5], b[25];
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x) {
    const uint64_t d = c[(x + 4) % 5] ^ keccak_rol64(c[(x + 1) % 5], 1);
#pragma clang loop unroll(full)
    for (unsigned y = 0; y < 25; y += 5) a[x + y] ^= d;
  }
  /* rho and pi: lane (x, y) rotated by its offset moves to (y, 2x + 3y). */
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x)
#pragma clang loop unroll(full)
    for (unsigned y = 0; y < 5; ++y)
      b[y + 5 * ((2 * x + 3 * y) % 5)] = keccak_rol64(a[x + 5 * y], keccak_rho[x + 5 * y]);
#pragma clang loop unroll(full)
  for (unsigned y = 0; y < 25; y += 5)
#pragma clang loop unroll(full)
    for (unsigned x = 0; x < 5; ++x) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
  a[0] ^= rc;
}

/* One state per pass. */
static unsigned keccak_states_per_pass(void) { return 1; }

static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds) {
  for (unsigned s = 0; s < sn; ++s, states += 25) {
    uint64_t a[25];
#pragma clang loop unroll(full)
    for (unsigned i = 0; i < 25; ++i) a[i] = ((const ca_u64a*)states)[i];
    for (unsigned r = first_round; r < first_round + rounds; ++r) keccak_round64(a, keccak_rc[r]);
#pragma clang loop unroll(full)
    for (unsigned i = 0; i < 25; ++i) ((ca_u64a*)states)[i] = a[i];
  }
}

#endif
