// Start-up for the simulator's test programs: stack, main(), exit through HTIF tohost with main's result.
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  la sp, __stack_top
  call main
  slli a0, a0, 1
  ori a0, a0, 1
  la t0, tohost
#if __riscv_xlen == 64
  sd a0, 0(t0)
#else
  sw zero, 4(t0)
  sw a0, 0(t0)
#endif
1:
  j 1b

// Signature area (riscv-arch-test convention): the words between begin_signature and end_signature.
  .section .data
  .balign 16
  .globl begin_signature
begin_signature:
  .globl test_signature
test_signature:
  .word 0, 0, 0, 0
  .globl end_signature
end_signature:
