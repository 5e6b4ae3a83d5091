/* Kernel I/O over the platform's three system calls (read 63, write 64, exit 93 on fds 0/1/2), see docs/isa-lab.md.
 * The same API is implemented by htif.c (Spike / cryptaccel's simulator) and linux.c (QEMU user mode). */
#ifndef CA_RV_IO_H
#define CA_RV_IO_H

#include <stddef.h>
#include <stdint.h>

/** Raw system calls: bytes transferred, or a negative errno. */
long ca_sys_read(int fd, void* buf, size_t n);
long ca_sys_write(int fd, const void* buf, size_t n);
/** Ends the program with `code` as its exit status. */
__attribute__((noreturn)) void ca_exit(int code);

/** Exit statuses of the kernels besides 0 (also in rv/kernels/README.md). */
enum { CA_EXIT_SHORT_INPUT = 2, CA_EXIT_TRAP = 3, CA_EXIT_BAD_INPUT = 4, CA_EXIT_TOO_BIG = 5,
       CA_EXIT_UNSUPPORTED = 6 /* the machine cannot run this kernel (a vector kernel's VLEN too small) */ };

/** Reads exactly n bytes from stdin; exits with CA_EXIT_SHORT_INPUT when stdin ends first. */
void ca_read_exact(void* buf, size_t n);
/** Writes all n bytes to fd (1 = stdout, 2 = stderr). */
void ca_write_all(int fd, const void* buf, size_t n);
/** Writes a NUL-terminated string to fd. */
void ca_write_str(int fd, const char* s);
/** Writes v in decimal to fd. */
void ca_write_dec(int fd, uint64_t v);
/** Little-endian 32-bit value from 4 input bytes (input headers are little-endian). */
static inline uint32_t ca_load_le32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/** First byte of free RAM past the stack and its end (link-*.ld): kernels read variable-size input here. */
extern uint8_t _heap_start[], _heap_end[];
/** A buffer of n bytes in the heap at offset `off` (64-byte aligned); exits with CA_EXIT_TOO_BIG if RAM is short.
 *  n is 64-bit so that sizes computed from 32-bit header fields cannot wrap on RV32. */
uint8_t* ca_heap(size_t off, uint64_t n);

#endif
