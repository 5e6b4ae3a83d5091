/* HTIF platform (Spike, cryptaccel's simulator): exit and system calls through tohost/fromhost, riscv-tests style.
 * A system call stores the address of magic_mem = {sysno, a0, a1, a2, ...} to tohost, waits for fromhost != 0,
 * clears it and reads the result from magic_mem[0]; exit stores (code << 1) | 1 (docs/isa-lab.md). */
#include "io.h"

volatile uint64_t tohost __attribute__((section(".tohost"), aligned(8)));
volatile uint64_t fromhost __attribute__((section(".tohost"), aligned(8)));

static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));

static long htif_syscall(uint64_t n, uint64_t a0, uint64_t a1, uint64_t a2) {
  magic_mem[0] = n;
  magic_mem[1] = a0;
  magic_mem[2] = a1;
  magic_mem[3] = a2;
  __sync_synchronize();
  tohost = (uint64_t)(uintptr_t)magic_mem;
  while (fromhost == 0) {
  }
  fromhost = 0;
  __sync_synchronize();
  return (long)magic_mem[0];
}

long ca_sys_read(int fd, void* buf, size_t n) { return htif_syscall(63, (uint64_t)fd, (uintptr_t)buf, n); }

long ca_sys_write(int fd, const void* buf, size_t n) { return htif_syscall(64, (uint64_t)fd, (uintptr_t)buf, n); }

void ca_exit(int code) {
  for (;;) tohost = ((uint64_t)(uint32_t)code << 1) | 1;
}

static void write_hex(uint64_t v) {
  char buf[18] = {'0', 'x'};
  for (int i = 0; i < 16; ++i) buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
  ca_write_all(2, buf, sizeof buf);
}

/** Called by the trap vector of start.S with mcause, mepc, mtval: reports them and exits with CA_EXIT_TRAP. */
__attribute__((noreturn)) void ca_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval) {
  ca_write_str(2, "kernel: trap mcause=");
  write_hex(cause);
  ca_write_str(2, " mepc=");
  write_hex(epc);
  ca_write_str(2, " mtval=");
  write_hex(tval);
  ca_write_str(2, "\n");
  ca_exit(CA_EXIT_TRAP);
}
