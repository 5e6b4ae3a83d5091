/* Measured-region markers (docs/isa-lab.md, "Measured region").
 *
 * CA_REGION_BEGIN and CA_REGION_END each read minstret and are immediately followed by the marker
 * `csrrs zero, minstret, zero` (one asm statement, so nothing is scheduled between the two instructions). With a
 * minstret read returning the count of instructions retired before it, the reported delta counts the begin marker and
 * every instruction up to and including the end read, but not the end marker: exactly the instructions a simulator
 * counts from the begin marker (inclusive) to the end marker (exclusive).
 *
 * On RV32 minstret holds the low 32 bits; the delta is exact modulo 2^32 and the high part comes from 64-bit reads
 * (minstreth/minstret/minstreth) made just outside the region, which are off by only a few instructions.
 *
 * The QEMU (Linux user-mode) build reads the unprivileged `instret` CSR and has no marker; its count is not compared. */
#ifndef CA_RV_REGION_H
#define CA_RV_REGION_H

#include <stdint.h>

#include "io.h"

#ifdef CA_PLATFORM_LINUX
#define CA_INSTRET "instret"
#define CA_INSTRETH "instreth"
#define CA_MARK_ASM(csr) "csrr %0, " csr "\n\t"
#else
#define CA_INSTRET "minstret"
#define CA_INSTRETH "minstreth"
#define CA_MARK_ASM(csr) "csrr %0, " csr "\n\tcsrrs zero, minstret, zero\n\t"
#endif

/** Counter values taken at the two ends of a measured region. */
typedef struct {
  uintptr_t lo0, lo1;       /* the in-region reads (XLEN bits of the counter) */
  uint64_t full0, full1;    /* RV32 only: 64-bit reads just outside the region */
} ca_region_t;

/** The 64-bit retired-instruction counter (a hi/lo/hi read on RV32). */
static inline uint64_t ca_instret64(void) {
#if __riscv_xlen == 64
  uint64_t v;
  __asm__ volatile("csrr %0, " CA_INSTRET : "=r"(v)::"memory");
  return v;
#else
  uint32_t hi, lo, hi2;
  do {
    __asm__ volatile("csrr %0, " CA_INSTRETH : "=r"(hi)::"memory");
    __asm__ volatile("csrr %0, " CA_INSTRET : "=r"(lo)::"memory");
    __asm__ volatile("csrr %0, " CA_INSTRETH : "=r"(hi2)::"memory");
  } while (hi != hi2);
  return (uint64_t)hi << 32 | lo;
#endif
}

#if __riscv_xlen == 64
#define CA_REGION_OUTSIDE_READ(dst) ((void)0)
#else
#define CA_REGION_OUTSIDE_READ(dst) ((dst) = ca_instret64())
#endif

/** Starts the measured region: counter read + begin marker. */
#define CA_REGION_BEGIN(r)                                                   \
  do {                                                                       \
    CA_REGION_OUTSIDE_READ((r).full0);                                       \
    __asm__ volatile(CA_MARK_ASM(CA_INSTRET) : "=r"((r).lo0)::"memory");      \
  } while (0)

/** Ends the measured region: counter read + end marker. */
#define CA_REGION_END(r)                                                     \
  do {                                                                       \
    __asm__ volatile(CA_MARK_ASM(CA_INSTRET) : "=r"((r).lo1)::"memory");      \
    CA_REGION_OUTSIDE_READ((r).full1);                                       \
  } while (0)

/** Instructions retired in the region. */
static inline uint64_t ca_region_count(const ca_region_t* r) {
#if __riscv_xlen == 64
  return (uint64_t)(r->lo1 - r->lo0);
#else
  uint32_t low = (uint32_t)(r->lo1 - r->lo0);
  uint64_t approx = r->full1 - r->full0;   /* >= the true count, by a handful of instructions */
  uint64_t wraps = (approx - low + 0x80000000u) >> 32;
  return low + (wraps << 32);
#endif
}

/** Writes the line `instret <N>\n` to stderr (the contract's report of the region). */
static inline void ca_region_report(const ca_region_t* r) {
  ca_write_str(2, "instret ");
  ca_write_dec(2, ca_region_count(r));
  ca_write_str(2, "\n");
}

#endif
