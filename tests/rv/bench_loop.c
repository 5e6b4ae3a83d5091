// A long-running mix of ALU, shift, load/store, multiply and branch instructions (a table-free hash over a
// 16 KiB buffer), for measuring the simulator's speed. stdin: optional decimal round count (default 2000);
// each round is about 100 k instructions.
#include "platform.h"

static uint32_t buf[4096];

int main(void) {
  char in[32];
  long n = sys_read(0, in, sizeof in - 1);
  uint64_t rounds = 0;
  for (long i = 0; i < n && in[i] >= '0' && in[i] <= '9'; ++i) rounds = rounds * 10 + (uint64_t)(in[i] - '0');
  if (rounds == 0) rounds = 2000;
  for (int i = 0; i < 4096; ++i) buf[i] = (uint32_t)i * 2654435761u;
  uint32_t h = 0x12345678u;
  uint64_t before = read_minstret();
  region_marker();
  for (uint64_t r = 0; r < rounds; ++r) {
    for (int i = 0; i < 4096; i += 4) {
      uint32_t a = buf[i], b = buf[i + 1];
      h ^= a + (h << 5) + (h >> 2);
      h = (h << 13 | h >> 19) ^ b;
      if (h & 1) h *= 0x9E3779B9u;
      buf[i] = a ^ h;
    }
  }
  region_marker();
  uint64_t after = read_minstret();
  write_hex(1, h);
  write_str(1, "\n");
  write_str(2, "instret ");
  write_u64(2, after - before);
  write_str(2, "\n");
  return 0;
}
