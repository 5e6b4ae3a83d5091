/* SHA3-256 and SHAKE128 kernels (FIPS 202, sections 4 and 6) on one message, built on the variant's permutation
 * (keccak_permute_pass of the header keccak_variant.h picks, with sn = 1: the state is state 0 of a pass):
 *   KERNEL_SHA3_256  layout `hash`: u32le length, message -> 32-byte digest
 *   KERNEL_SHAKE128  layout `xof`:  u32le length, u32le outlen, message -> outlen bytes
 * The measured region is the whole function: absorbing (with the padding) and squeezing. The state stays in the
 * variant's memory form (bit-interleaved lanes for KECCAK_SEW 32): message lanes go in through KECCAK_LANE_IN and
 * output lanes come out through KECCAK_LANE_OUT, inside the region, as a SHA-3 on such a core pays for them. */
#include "../platform/io.h"
#include "../platform/region.h"
#include "keccak_variant.h"

#if defined(KERNEL_SHA3_256)
#define SPONGE_RATE 136u   /* 1600 - 2 * 256 bits */
#define SPONGE_DOMAIN 0x06 /* SHA-3: suffix 01, then the first bit of pad10*1 */
#elif defined(KERNEL_SHAKE128)
#define SPONGE_RATE 168u   /* 1600 - 2 * 128 bits */
#define SPONGE_DOMAIN 0x1f /* SHAKE: suffix 1111, then the first bit of pad10*1 */
#else
#error "define KERNEL_SHA3_256 or KERNEL_SHAKE128"
#endif

/* XORs one rate-sized block (8-byte aligned) into the state and permutes. */
static void absorb_block(uint64_t st[25], const uint8_t* block) {
  for (unsigned i = 0; i < SPONGE_RATE / 8; ++i) st[i] ^= KECCAK_LANE_IN(((const ca_u64a*)block)[i]);
  keccak_permute_pass(st, 1, 0, 24);
}

/* The sponge: absorb msg[0..len) with the padding, then squeeze outlen bytes into out. */
static void sponge(uint64_t st[25], const uint8_t* msg, uint32_t len, uint8_t* out, uint32_t outlen) {
  for (unsigned i = 0; i < 25; ++i) st[i] = 0;
  uint32_t full = len / SPONGE_RATE;
  for (uint32_t b = 0; b < full; ++b) absorb_block(st, msg + (size_t)SPONGE_RATE * b);
  /* The last, partial block (possibly empty): domain bits and pad10*1 (FIPS 202, 5.1 and B.2). */
  uint64_t last[SPONGE_RATE / 8];
  for (unsigned i = 0; i < SPONGE_RATE / 8; ++i) last[i] = 0;
  uint8_t* tail = (uint8_t*)last;
  const uint32_t rest = len % SPONGE_RATE;
  for (uint32_t i = 0; i < rest; ++i) tail[i] = msg[(size_t)SPONGE_RATE * full + i];
  tail[rest] ^= SPONGE_DOMAIN;
  tail[SPONGE_RATE - 1] ^= 0x80;
  absorb_block(st, tail);
  /* Squeeze: the first `rate` bytes of the state, then permute for more. */
  for (uint32_t done = 0;;) {
    uint64_t lanes[SPONGE_RATE / 8];
    for (unsigned i = 0; i < SPONGE_RATE / 8; ++i) lanes[i] = KECCAK_LANE_OUT(st[i]);
    const uint32_t n = outlen - done < SPONGE_RATE ? outlen - done : SPONGE_RATE;
    for (uint32_t i = 0; i < n; ++i) out[done + i] = ((const uint8_t*)lanes)[i];
    done += n;
    if (done == outlen) break;
    keccak_permute_pass(st, 1, 0, 24);
  }
}

int main(void) {
#if defined(KERNEL_SHAKE128)
  uint8_t hdr[8];
  ca_read_exact(hdr, sizeof hdr);
  const uint32_t outlen = ca_load_le32(hdr + 4);
  if (outlen == 0) return CA_EXIT_BAD_INPUT;
#else
  uint8_t hdr[4];
  ca_read_exact(hdr, sizeof hdr);
  const uint32_t outlen = 32;
#endif
  const uint32_t len = ca_load_le32(hdr);
  uint8_t* msg = ca_heap(0, len);
  uint8_t* out = ca_heap(len, outlen); /* after the message (len fits in RAM: checked just above) */
  ca_read_exact(msg, len);
  (void)keccak_checked_states_per_pass();
  uint64_t st[25] __attribute__((aligned(64)));

  ca_region_t region;
  CA_REGION_BEGIN(region);
  sponge(st, msg, len, out, outlen);
  CA_REGION_END(region);

  ca_write_all(1, out, outlen);
  ca_region_report(&region);
  return 0;
}
