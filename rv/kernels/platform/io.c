/* Platform-independent part of the kernel I/O (io.h) and the few libc functions the compiler may call. */
#include "io.h"

void ca_read_exact(void* buf, size_t n) {
  uint8_t* p = (uint8_t*)buf;
  while (n > 0) {
    long r = ca_sys_read(0, p, n);
    if (r <= 0) {
      ca_write_str(2, "kernel: input too short\n");
      ca_exit(CA_EXIT_SHORT_INPUT);
    }
    p += r;
    n -= (size_t)r;
  }
}

void ca_write_all(int fd, const void* buf, size_t n) {
  const uint8_t* p = (const uint8_t*)buf;
  while (n > 0) {
    long r = ca_sys_write(fd, p, n);
    if (r <= 0) ca_exit(1);
    p += r;
    n -= (size_t)r;
  }
}

void ca_write_str(int fd, const char* s) {
  size_t n = 0;
  while (s[n]) ++n;
  ca_write_all(fd, s, n);
}

void ca_write_dec(int fd, uint64_t v) {
  char buf[24];
  int i = (int)sizeof buf;
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  ca_write_all(fd, buf + i, sizeof buf - (size_t)i);
}

uint8_t* ca_heap(size_t off, uint64_t n) {
  size_t avail = (size_t)(_heap_end - _heap_start);
  off = (off + 63) & ~(size_t)63;
  if (off > avail || n > (uint64_t)(avail - off)) {
    ca_write_str(2, "kernel: input larger than the kernel's RAM\n");
    ca_exit(CA_EXIT_TOO_BIG);
  }
  return _heap_start + off;
}

/* clang may emit calls to these for aggregate copies even in freestanding code (never inside the kernels' loops). */
void* memcpy(void* dst, const void* src, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  while (n--) *d++ = *s++;
  return dst;
}

void* memset(void* dst, int c, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  while (n--) *d++ = (uint8_t)c;
  return dst;
}
