// Driver of the random instruction streams (tests/rv/random_stream.py): runs the generated random_body once and prints
// what it left in every register (and vl, vtype and the vector registers when built with RANDOM_VECTOR), one 64-bit
// little-endian word per line in hex. Spike and the simulator must print the same.
#include "platform.h"

void random_body(unsigned char* out);

static unsigned char out[32 * 8 + 16 + 32 * 1024 / 8] __attribute__((aligned(16)));

int main(void) {
  random_body(out);
  size_t n = 32 * sizeof(long);
#ifdef RANDOM_VECTOR
  unsigned long vlenb;
  __asm__ volatile("csrr %0, vlenb" : "=r"(vlenb));
  n += 2 * sizeof(long) + 32 * vlenb;
#endif
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = (w << 8) | out[i + (size_t)b];
    write_hex(1, w);
    write_str(1, "\n");
  }
  return 0;
}
