/* Bare-metal entry for Spike's memory map: stack, trap vector, .bss cleared, main(), exit through HTIF. */
#if __riscv_xlen == 64
#define STORE sd
#define REGBYTES 8
#else
#define STORE sw
#define REGBYTES 4
#endif

  .section .text.init, "ax", @progbits
  .globl _start
_start:
  .option push
  .option norelax
  la sp, _stack_top
  .option pop
  la t0, ca_trap_entry
  csrw mtvec, t0
#ifdef __riscv_vector
  li t0, 0x200          /* mstatus.VS = Initial: vector instructions trap while VS is Off (Spike's reset value) */
  csrs mstatus, t0
#endif
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  STORE zero, 0(t0)
  addi t0, t0, REGBYTES
  j 1b
2:
  call main
  call ca_exit          /* exit status = main's return value (a0) */
3:
  j 3b

/* Any trap (illegal instruction, misaligned access, ...) reports mcause/mepc/mtval and exits with status 3. */
  .text
  .balign 4
ca_trap_entry:
  .option push
  .option norelax
  la sp, _stack_top
  .option pop
  la t0, ca_trap_nested   /* a trap inside the report (e.g. vector code with V off) must not loop */
  csrw mtvec, t0
  csrr a0, mcause
  csrr a1, mepc
  csrr a2, mtval
  call ca_trap
4:
  j 4b

/* A trap while reporting a trap: exit with status 3 through HTIF at once, printing nothing. */
  .balign 4
ca_trap_nested:
  li t0, (3 << 1) | 1
  la t1, tohost
#if __riscv_xlen == 64
  sd t0, 0(t1)
#else
  sw t0, 0(t1)
  sw zero, 4(t1)
#endif
5:
  j 5b
