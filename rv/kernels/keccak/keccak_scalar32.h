/* Keccak variant header: scalar RV32, bit-interleaved lanes (variants `reference` and `hybrid` on RV32; seed 004's
 * "scalar RV32 bit-interleaved" row).
 *
 * Every lane is two 32-bit words, E (its even bits) and O (its odd bits), as keccak_common.h describes; in memory
 * the driver keeps the state in that form (KECCAK_SEW 32). A 64-bit rotation by n is two 32-bit rotations
 * (keccak_bi_rotl): by n/2 each for even n, and for odd n = 2k + 1 the halves swap: E' = rotl32(O, k + 1),
 * O' = rotl32(E, k). theta, pi, chi and iota work on the E and O words independently. The 32-bit rotations are
 * ca_ror32 of common/variant.h: shifts and an OR for `reference`, `rori` for `hybrid` (Zbkb). SN = 1. */
#ifndef CA_RV_KECCAK_SCALAR32_H
#define CA_RV_KECCAK_SCALAR32_H

#define KECCAK_SEW 32

#include "keccak_common.h"

/* Rotate left by n, 0 <= n <= 32 (n = 0 and 32 are no instruction). */
static inline uint32_t keccak_rol32(uint32_t x, unsigned n) { return n % 32 ? ca_ror32(x, 32 - n % 32) : x; }

/* (e, o) <- the bit-interleaved halves of rotl64(lane, n), 0 <= n < 64. */
#define KECCAK_BI_ROTL(e, o, n)                                         \
  do {                                                                  \
    const uint32_t e_ = (e), o_ = (o);                                  \
    if ((n) % 2 == 0) {                                                 \
      (e) = keccak_rol32(e_, (n) / 2);                                  \
      (o) = keccak_rol32(o_, (n) / 2);                                  \
    } else {                                                            \
      (e) = keccak_rol32(o_, (n) / 2 + 1);                              \
      (o) = keccak_rol32(e_, (n) / 2);                                  \
    }                                                                   \
  } while (0)

/* One round on the halves e[25], o[25] with the interleaved round constant {rce, rco}. */
static inline __attribute__((always_inline)) void keccak_round32(uint32_t e[25], uint32_t o[25], uint32_t rce,
                                                                 uint32_t rco) {
  uint32_t ce[5], co[5], be[25], bo[25];
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x) {
    ce[x] = e[x] ^ e[x + 5] ^ e[x + 10] ^ e[x + 15] ^ e[x + 20];
    co[x] = o[x] ^ o[x + 5] ^ o[x + 10] ^ o[x + 15] ^ o[x + 20];
  }
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x) {
    /* D[x] = C[x - 1] ^ rotl64(C[x + 1], 1): the rotation by 1 is E' = rotl32(O, 1), O' = E. */
    const uint32_t de = ce[(x + 4) % 5] ^ keccak_rol32(co[(x + 1) % 5], 1);
    const uint32_t dd = co[(x + 4) % 5] ^ ce[(x + 1) % 5];
#pragma clang loop unroll(full)
    for (unsigned y = 0; y < 25; y += 5) {
      e[x + y] ^= de;
      o[x + y] ^= dd;
    }
  }
  /* rho and pi: lane (x, y) rotated by its offset moves to (y, 2x + 3y). */
#pragma clang loop unroll(full)
  for (unsigned x = 0; x < 5; ++x)
#pragma clang loop unroll(full)
    for (unsigned y = 0; y < 5; ++y) {
      const unsigned to = y + 5 * ((2 * x + 3 * y) % 5);
      be[to] = e[x + 5 * y];
      bo[to] = o[x + 5 * y];
      KECCAK_BI_ROTL(be[to], bo[to], keccak_rho[x + 5 * y]);
    }
#pragma clang loop unroll(full)
  for (unsigned y = 0; y < 25; y += 5)
#pragma clang loop unroll(full)
    for (unsigned x = 0; x < 5; ++x) {
      e[x + y] = be[x + y] ^ (~be[(x + 1) % 5 + y] & be[(x + 2) % 5 + y]);
      o[x + y] = bo[x + y] ^ (~bo[(x + 1) % 5 + y] & bo[(x + 2) % 5 + y]);
    }
  e[0] ^= rce;
  o[0] ^= rco;
}

/* One state per pass. */
static unsigned keccak_states_per_pass(void) { return 1; }

/* states: bit-interleaved lanes (E in the low word of each 64-bit lane, O in the high word). */
static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds) {
  for (unsigned s = 0; s < sn; ++s, states += 25) {
    ca_u32a* w = (ca_u32a*)states;
    uint32_t e[25], o[25];
#pragma clang loop unroll(full)
    for (unsigned i = 0; i < 25; ++i) {
      e[i] = w[2 * i];
      o[i] = w[2 * i + 1];
    }
    for (unsigned r = first_round; r < first_round + rounds; ++r)
      keccak_round32(e, o, keccak_rc_bi[r][0], keccak_rc_bi[r][1]);
#pragma clang loop unroll(full)
    for (unsigned i = 0; i < 25; ++i) {
      w[2 * i] = e[i];
      w[2 * i + 1] = o[i];
    }
  }
}

#endif
