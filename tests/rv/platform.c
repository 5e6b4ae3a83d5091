// HTIF system calls for the simulator's test programs (the riscv-tests / Spike convention).
#include "platform.h"

volatile uint64_t tohost __attribute__((section(".tohost"), aligned(8)));
volatile uint64_t fromhost __attribute__((section(".tohost"), aligned(8)));
static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));

static long htif_syscall(uint64_t n, uint64_t a0, uint64_t a1, uint64_t a2) {
  magic_mem[0] = n;
  magic_mem[1] = a0;
  magic_mem[2] = a1;
  magic_mem[3] = a2;
  __sync_synchronize();
  tohost = (uintptr_t)magic_mem;
  while (fromhost == 0) {
  }
  fromhost = 0;
  __sync_synchronize();
  return (long)magic_mem[0];
}

long sys_read(int fd, void* buf, size_t len) { return htif_syscall(63, (uint64_t)fd, (uintptr_t)buf, len); }
long sys_write(int fd, const void* buf, size_t len) { return htif_syscall(64, (uint64_t)fd, (uintptr_t)buf, len); }

void write_str(int fd, const char* s) {
  size_t n = 0;
  while (s[n]) ++n;
  sys_write(fd, s, n);
}

void write_u64(int fd, uint64_t v) {
  char buf[24];
  int i = 23;
  buf[i] = 0;
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  write_str(fd, buf + i);
}

void write_hex(int fd, uint64_t v) {
  char buf[17];
  for (int i = 15; i >= 0; --i, v >>= 4) buf[i] = "0123456789abcdef"[v & 15];
  buf[16] = 0;
  write_str(fd, buf);
}
