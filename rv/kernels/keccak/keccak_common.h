/* Keccak-f[1600] constants and lane helpers shared by the Keccak variant headers (FIPS 202, section 3).
 *
 * Lane (x, y) of a state is element x + 5y of 25 little-endian 64-bit words. Variants with KECCAK_SEW 32 keep every
 * lane bit-interleaved in memory: the 64-bit word holds the even bits of the lane (z = 0, 2, ..., 62) as its low
 * 32-bit half E and the odd bits as its high half O (keccak_bi_interleave); a rotation of the lane by n is then two
 * 32-bit rotations (keccak_bi_rotl). */
#ifndef CA_RV_KECCAK_COMMON_H
#define CA_RV_KECCAK_COMMON_H

#include <stdint.h>

/* Round constants RC[i] (FIPS 202, 3.2.5); round i of Keccak-p[1600, n] with n rounds uses RC[24 - n + i]. */
static const uint64_t keccak_rc[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};

/* The same constants bit-interleaved: {E, O} = keccak_bi_interleave(RC[i]) (generated from the table above; a wrong
 * entry changes the output of every Keccak-p with that round, which the tests compare with the ref engine). */
static const uint32_t keccak_rc_bi[24][2] = {
    {0x00000001u, 0x00000000u}, {0x00000000u, 0x00000089u}, {0x00000000u, 0x8000008bu}, {0x00000000u, 0x80008080u},
    {0x00000001u, 0x0000008bu}, {0x00000001u, 0x00008000u}, {0x00000001u, 0x80008088u}, {0x00000001u, 0x80000082u},
    {0x00000000u, 0x0000000bu}, {0x00000000u, 0x0000000au}, {0x00000001u, 0x00008082u}, {0x00000000u, 0x00008003u},
    {0x00000001u, 0x0000808bu}, {0x00000001u, 0x8000000bu}, {0x00000001u, 0x8000008au}, {0x00000001u, 0x80000081u},
    {0x00000000u, 0x80000081u}, {0x00000000u, 0x80000008u}, {0x00000000u, 0x00000083u}, {0x00000000u, 0x80008003u},
    {0x00000001u, 0x80008088u}, {0x00000000u, 0x80000088u}, {0x00000001u, 0x00008000u}, {0x00000000u, 0x80008082u}};

/* rho offsets of lane x + 5y (FIPS 202, 3.2.2, Table 2). */
static const unsigned char keccak_rho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                             25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

/* The even bits of x (bit 2j -> bit j), by shifts and masks in log2(32) = 5 steps. */
static inline uint32_t keccak_even_bits(uint64_t x) {
  x &= 0x5555555555555555ull;
  x = (x | (x >> 1)) & 0x3333333333333333ull;
  x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0full;
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ffull;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffull;
  x = (x | (x >> 16)) & 0x00000000ffffffffull;
  return (uint32_t)x;
}

/* The inverse: the 32 bits of w spread to the even bit positions of a 64-bit word. */
static inline uint64_t keccak_spread_bits(uint32_t w) {
  uint64_t x = w;
  x = (x | (x << 16)) & 0x0000ffff0000ffffull;
  x = (x | (x << 8)) & 0x00ff00ff00ff00ffull;
  x = (x | (x << 4)) & 0x0f0f0f0f0f0f0f0full;
  x = (x | (x << 2)) & 0x3333333333333333ull;
  x = (x | (x << 1)) & 0x5555555555555555ull;
  return x;
}

/* A lane in bit-interleaved form: E (even bits) in the low half, O (odd bits) in the high half. */
static inline uint64_t keccak_bi_interleave(uint64_t lane) {
  return (uint64_t)keccak_even_bits(lane) | (uint64_t)keccak_even_bits(lane >> 1) << 32;
}

/* The lane back from its bit-interleaved form. */
static inline uint64_t keccak_bi_deinterleave(uint64_t bi) {
  return keccak_spread_bits((uint32_t)bi) | keccak_spread_bits((uint32_t)(bi >> 32)) << 1;
}

#endif
