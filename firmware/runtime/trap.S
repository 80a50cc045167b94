/* SPDX-License-Identifier: Apache-2.0 */
/* Trap entry: saves all 31 registers and the trap CSRs in a frame on the stack, calls lq_trap_dispatch(frame) and returns with mret to frame->mepc.

   Its call frame information (DWARF CFI) lets a debugger unwind through a
   trap: the interrupted code's pc is the saved mepc (the frame's return
   column, a signal frame, so the pc is not taken for a return address)
   and its registers are the saved ones. */

/* Frame layout, shared with lq_trap_frame_t in lq/trap.h. */
#define DWARF_MEPC (4096 + 0x341) /* DWARF numbers a CSR 4096 plus its address */
#define FRAME_X(n) ((n) * 4)
#define FRAME_MEPC 128
#define FRAME_MCAUSE 132
#define FRAME_MTVAL 136
#define FRAME_MSTATUS 140
#define FRAME_SIZE 144 /* a multiple of 16, as the ABI wants for sp */

  /* With the debug information: the image keeps no .eh_frame. */
  .cfi_sections .debug_frame
  .section .text.trap, "ax", @progbits
  /* mtvec's direct mode keeps the base 4-byte aligned. */
  .balign 4
  .globl lq_trap_entry
  .type lq_trap_entry, @function
lq_trap_entry:
  .cfi_startproc
  .cfi_signal_frame
  .cfi_return_column DWARF_MEPC
  addi sp, sp, -FRAME_SIZE
  .cfi_def_cfa_offset FRAME_SIZE
  /* Every register, not only the caller-saved ones, so that a handler can
     read or change any of them (self-tests check that traps preserve them). */
  sw x1, FRAME_X(1)(sp)
  sw x3, FRAME_X(3)(sp)
  sw x4, FRAME_X(4)(sp)
  sw x5, FRAME_X(5)(sp)
  sw x6, FRAME_X(6)(sp)
  sw x7, FRAME_X(7)(sp)
  sw x8, FRAME_X(8)(sp)
  sw x9, FRAME_X(9)(sp)
  sw x10, FRAME_X(10)(sp)
  sw x11, FRAME_X(11)(sp)
  sw x12, FRAME_X(12)(sp)
  sw x13, FRAME_X(13)(sp)
  sw x14, FRAME_X(14)(sp)
  sw x15, FRAME_X(15)(sp)
  sw x16, FRAME_X(16)(sp)
  sw x17, FRAME_X(17)(sp)
  sw x18, FRAME_X(18)(sp)
  sw x19, FRAME_X(19)(sp)
  sw x20, FRAME_X(20)(sp)
  sw x21, FRAME_X(21)(sp)
  sw x22, FRAME_X(22)(sp)
  sw x23, FRAME_X(23)(sp)
  sw x24, FRAME_X(24)(sp)
  sw x25, FRAME_X(25)(sp)
  sw x26, FRAME_X(26)(sp)
  sw x27, FRAME_X(27)(sp)
  sw x28, FRAME_X(28)(sp)
  sw x29, FRAME_X(29)(sp)
  sw x30, FRAME_X(30)(sp)
  sw x31, FRAME_X(31)(sp)
  addi t0, sp, FRAME_SIZE
  sw t0, FRAME_X(2)(sp)
  sw zero, FRAME_X(0)(sp)
  csrr t0, mepc
  sw t0, FRAME_MEPC(sp)
  /* From here on the interrupted code's state can be found in the frame. */
  .cfi_offset DWARF_MEPC, FRAME_MEPC - FRAME_SIZE
  .irp n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
  .cfi_offset \n, FRAME_X(\n) - FRAME_SIZE
  .endr
  csrr t0, mcause
  sw t0, FRAME_MCAUSE(sp)
  csrr t0, mtval
  sw t0, FRAME_MTVAL(sp)
  csrr t0, mstatus
  sw t0, FRAME_MSTATUS(sp)

  mv a0, sp
  call lq_trap_dispatch

  /* A handler may have moved mepc, e.g. past a faulting instruction. */
  lw t0, FRAME_MEPC(sp)
  csrw mepc, t0
  lw x1, FRAME_X(1)(sp)
  lw x3, FRAME_X(3)(sp)
  lw x4, FRAME_X(4)(sp)
  lw x5, FRAME_X(5)(sp)
  lw x6, FRAME_X(6)(sp)
  lw x7, FRAME_X(7)(sp)
  lw x8, FRAME_X(8)(sp)
  lw x9, FRAME_X(9)(sp)
  lw x10, FRAME_X(10)(sp)
  lw x11, FRAME_X(11)(sp)
  lw x12, FRAME_X(12)(sp)
  lw x13, FRAME_X(13)(sp)
  lw x14, FRAME_X(14)(sp)
  lw x15, FRAME_X(15)(sp)
  lw x16, FRAME_X(16)(sp)
  lw x17, FRAME_X(17)(sp)
  lw x18, FRAME_X(18)(sp)
  lw x19, FRAME_X(19)(sp)
  lw x20, FRAME_X(20)(sp)
  lw x21, FRAME_X(21)(sp)
  lw x22, FRAME_X(22)(sp)
  lw x23, FRAME_X(23)(sp)
  lw x24, FRAME_X(24)(sp)
  lw x25, FRAME_X(25)(sp)
  lw x26, FRAME_X(26)(sp)
  lw x27, FRAME_X(27)(sp)
  lw x28, FRAME_X(28)(sp)
  lw x29, FRAME_X(29)(sp)
  lw x30, FRAME_X(30)(sp)
  lw x31, FRAME_X(31)(sp)
  addi sp, sp, FRAME_SIZE
  .cfi_def_cfa_offset 0
  mret
  .cfi_endproc
  .size lq_trap_entry, . - lq_trap_entry
