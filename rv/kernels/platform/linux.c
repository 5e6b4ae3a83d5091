/* Linux user-mode platform (QEMU): the same system call numbers as HTIF (read 63, write 64, exit 93) via ecall. */
#include "io.h"

static long linux_syscall(long n, long a0, long a1, long a2) {
  register long r_a0 __asm__("a0") = a0;
  register long r_a1 __asm__("a1") = a1;
  register long r_a2 __asm__("a2") = a2;
  register long r_a7 __asm__("a7") = n;
  __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a7) : "memory");
  return r_a0;
}

long ca_sys_read(int fd, void* buf, size_t n) { return linux_syscall(63, fd, (long)buf, (long)n); }

long ca_sys_write(int fd, const void* buf, size_t n) { return linux_syscall(64, fd, (long)buf, (long)n); }

void ca_exit(int code) {
  for (;;) linux_syscall(93, code, 0, 0);
}
