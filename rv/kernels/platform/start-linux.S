/* Linux user-mode entry (QEMU): the kernel provides the stack and zeroed .bss; main(), then exit(main's value). */
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  call main
  call ca_exit
1:
  j 1b
