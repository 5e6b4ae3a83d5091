// Platform layer of the simulator's test programs: HTIF system calls (read/write/exit) and the measured-region
// markers of docs/isa-lab.md.
#pragma once
#include <stddef.h>
#include <stdint.h>

long sys_read(int fd, void* buf, size_t len);
long sys_write(int fd, const void* buf, size_t len);
void write_str(int fd, const char* s);
void write_u64(int fd, uint64_t v);  // decimal
void write_hex(int fd, uint64_t v);  // 16 hex digits

static inline uint64_t read_minstret(void) {
#if __riscv_xlen == 64
  uint64_t v;
  __asm__ volatile("csrr %0, minstret" : "=r"(v));
  return v;
#else
  uint32_t lo, hi, hi2;
  do {
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
    __asm__ volatile("csrr %0, minstret" : "=r"(lo));
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi2));
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
#endif
}
/// Measured-region marker: `csrrs zero, minstret, zero`.
static inline void region_marker(void) { __asm__ volatile("csrrs zero, minstret, zero" ::: "memory"); }
