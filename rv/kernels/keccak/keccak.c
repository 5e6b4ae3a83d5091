/* Keccak-f[1600] / Keccak-p[1600, rounds] kernel (FIPS 202, section 3), layout `keccak-states`:
 *   input   u32le nstates, u32le rounds (1..24), then nstates states of 200 bytes: 25 little-endian 64-bit lanes,
 *           lane (x, y) at index x + 5y
 *   output  the states after Keccak-p[1600, rounds], i.e. the last `rounds` rounds of Keccak-f[1600] (round
 *           constants RC[24 - rounds .. 23], FIPS 202, 3.3); rounds = 24 is Keccak-f[1600]
 *   region  the whole permutation of all states, in passes of SN states (the variant's states per pass): each pass
 *           loads its states into registers, runs the rounds and stores them
 * Exit status 4 (malformed header) for rounds outside 1..24, 6 when the VLEN holds no state (vector variants).
 *
 * Interface of a variant header (keccak_variant.h picks one; sponge.c uses the same):
 *   #define KECCAK_SEW 64 | 32
 *       64: a lane is one 64-bit word in memory. 32: bit-interleaved lanes (keccak_common.h): the low 32-bit half of
 *       each 64-bit lane word holds the lane's even bits (E), the high half its odd bits (O). The driver converts
 *       the states to that form before the measured region and back after it; sponge.c absorbs and squeezes through
 *       KECCAK_LANE_IN / KECCAK_LANE_OUT (inside its region: a real SHA-3 pays for it).
 *   static unsigned keccak_states_per_pass(void)
 *       SN: states processed side by side (scalar: 1; vector: read from vlenb at run time, e.g. VLEN/SEW/5).
 *       Called once, before the measured region; 0 means this machine cannot run the variant (exit status 6).
 *   static void keccak_permute_pass(uint64_t* states, unsigned sn, unsigned first_round, unsigned rounds)
 *       Applies rounds first_round .. first_round + rounds - 1 (round constants keccak_rc[r], or keccak_rc_bi[r]
 *       for SEW 32) to the sn (1 <= sn <= SN) consecutive states at `states` (25 lane words each, 64-byte aligned
 *       for the first state of the kernel's buffer, 8-byte aligned always), in place: load, rounds, store. The
 *       last pass of a run may have sn < SN. The header may include keccak_common.h (constants, interleaving) and
 *       ../common/variant.h (ca_ror32/ca_ror64, <riscv_vector.h> in vector builds). */
#include "../platform/io.h"
#include "../platform/region.h"
#include "keccak_variant.h"

int main(void) {
  uint8_t hdr[8];
  ca_read_exact(hdr, sizeof hdr);
  const uint32_t nstates = ca_load_le32(hdr), rounds = ca_load_le32(hdr + 4);
  if (rounds < 1 || rounds > 24) return CA_EXIT_BAD_INPUT;
  const uint64_t nbytes = (uint64_t)nstates * 200;
  uint64_t* states = (uint64_t*)(ca_u64a*)ca_heap(0, nbytes);
  ca_read_exact(states, (size_t)nbytes);
  const unsigned sn = keccak_checked_states_per_pass();
  for (uint64_t i = 0; i < 25 * (uint64_t)nstates; ++i) states[i] = KECCAK_LANE_IN(states[i]);

  ca_region_t region;
  CA_REGION_BEGIN(region);
  for (uint32_t done = 0; done < nstates; done += sn) {
    const uint32_t left = nstates - done;
    keccak_permute_pass(states + 25 * (size_t)done, left < sn ? left : sn, 24 - rounds, rounds);
  }
  CA_REGION_END(region);

  for (uint64_t i = 0; i < 25 * (uint64_t)nstates; ++i) states[i] = KECCAK_LANE_OUT(states[i]);
  ca_write_all(1, states, (size_t)nbytes);
  ca_region_report(&region);
  return 0;
}
