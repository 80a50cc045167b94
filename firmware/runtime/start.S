/* SPDX-License-Identifier: Apache-2.0 */
/* Reset entry of every image: sets gp, sp and tp, copies .data, zeroes .bss, installs the trap vector, runs main and exits through the test finisher with its result. */

#define LQ_MSTATUS_MIE 0x8

  .section .text.start, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  /* QEMU passes a0 = hart id and a1 = device tree; nothing here uses them. */
  /* gp must be loaded without relaxation: relaxed, "la gp" would be
     rewritten relative to gp itself, which is not set yet. */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack

  /* Interrupts stay off until firmware asks for them, and any fault from
     here on lands in our handler rather than at an unknown mtvec. */
  csrci mstatus, LQ_MSTATUS_MIE
  csrw mie, zero
  la t0, lq_trap_entry
  csrw mtvec, t0

  /* .data and the TLS template: copied from their load image unless that
     already is where they run (ram.ld). Both ends are 8-byte aligned. */
  la a0, __data_start
  la a1, __data_source
  la a2, __data_end
  beq a0, a1, .Lcopy_done
.Lcopy:
  bgeu a0, a2, .Lcopy_done
  lw t0, 0(a1)
  sw t0, 0(a0)
  addi a0, a0, 4
  addi a1, a1, 4
  j .Lcopy
.Lcopy_done:

  /* .tbss and .bss, which are adjacent. */
  la a0, __bss_start
  la a2, __bss_end
.Lzero:
  bgeu a0, a2, .Lzero_done
  sw zero, 0(a0)
  addi a0, a0, 4
  j .Lzero
.Lzero_done:

  /* One thread: picolibc's thread-local variables live in the TLS block. */
  la tp, __tls_base

  call __libc_init_array

  li a0, 0
  li a1, 0
  call main
  /* main's return value is the exit status: 0 passes, n fails with n. */
  tail lq_exit
  .size _start, . - _start
