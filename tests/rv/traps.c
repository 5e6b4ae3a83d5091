// Exceptions through mtvec (riscv-tests style): ecall, ebreak, an unknown instruction, an unknown CSR, a load and a
// store outside memory, each logged (mcause, mtval) by a handler that skips the instruction and returns with mret.
// The log and the region's minstret (trapping instructions do not retire) must equal Spike's.
#include "platform.h"

#if __riscv_xlen == 64
#define SREG "sd"
#define LREG "ld"
#else
#define SREG "sw"
#define LREG "lw"
#endif

volatile uint32_t trap_count;
volatile uint32_t trap_log[32][2];
static uint8_t trap_stack[512] __attribute__((aligned(16)));

__asm__(
    "  .text\n"
    "  .balign 4\n"
    "  .globl trap_entry\n"
    "trap_entry:\n"
    "  csrrw sp, mscratch, sp\n"
    "  addi sp, sp, -32\n"
    "  " SREG " t0, 0(sp)\n"
    "  " SREG " t1, 8(sp)\n"
    "  " SREG " t2, 16(sp)\n"
    "  la t0, trap_count\n"
    "  lw t1, 0(t0)\n"
    "  slli t2, t1, 3\n"
    "  addi t1, t1, 1\n"
    "  sw t1, 0(t0)\n"
    "  la t0, trap_log\n"
    "  add t0, t0, t2\n"
    "  csrr t2, mcause\n"
    "  sw t2, 0(t0)\n"
    "  csrr t2, mtval\n"
    "  sw t2, 4(t0)\n"
    "  csrr t0, mepc\n"  // skip the instruction: 2 or 4 bytes
    "  lhu t1, 0(t0)\n"
    "  andi t1, t1, 3\n"
    "  li t2, 3\n"
    "  bne t1, t2, 1f\n"
    "  addi t0, t0, 2\n"
    "1:\n"
    "  addi t0, t0, 2\n"
    "  csrw mepc, t0\n"
    "  " LREG " t0, 0(sp)\n"
    "  " LREG " t1, 8(sp)\n"
    "  " LREG " t2, 16(sp)\n"
    "  addi sp, sp, 32\n"
    "  csrrw sp, mscratch, sp\n"
    "  mret\n");
extern void trap_entry(void);

int main(void) {
  __asm__ volatile("csrw mscratch, %0" ::"r"(trap_stack + sizeof trap_stack));
  __asm__ volatile("csrw mtvec, %0" ::"r"(&trap_entry));
  uint64_t before = read_minstret();
  region_marker();
  __asm__ volatile("ecall" ::: "memory");
  __asm__ volatile("ebreak" ::: "memory");
  __asm__ volatile(".option push\n.option norvc\nebreak\n.option pop" ::: "memory");
  __asm__ volatile(".word 0x0000000b" ::: "memory");  // custom-0: not implemented
  __asm__ volatile("csrr t0, 0x7c0" ::: "t0", "memory");  // custom CSR: not implemented
  uintptr_t bad = 0x40000000u, v = 0;
  __asm__ volatile("lw %0, 8(%1)" : "+r"(v) : "r"(bad) : "memory");
  __asm__ volatile("sw %0, 4(%1)" ::"r"(v), "r"(bad) : "memory");
  __asm__ volatile("fence" ::: "memory");
  region_marker();
  uint64_t after = read_minstret();
  for (uint32_t i = 0; i < trap_count; ++i) {
    write_str(1, "cause ");
    write_u64(1, trap_log[i][0]);
    write_str(1, " tval ");
    write_hex(1, trap_log[i][1]);
    write_str(1, "\n");
  }
  write_str(2, "instret ");
  write_u64(2, after - before);
  write_str(2, "\n");
  return (int)trap_count;
}
