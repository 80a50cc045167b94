// SPDX-License-Identifier: Apache-2.0
/* Macro framework of the isa_* self-check images (assembly only): numbered
 * checks in the style of riscv-tests, failures reported as the finisher's exit
 * code. */
#ifndef LQ_ISA_TEST_H_
#define LQ_ISA_TEST_H_

/* Assembler syntax, not C: clang-format would split ".section .rodata". */
/* clang-format off */

/*
 * Register conventions. The framework owns s7-s11, sp, gp and tp; test
 * code may use every other register (x1, x5-x23 except s7, x28-x31).
 *   s11  number of the check running now (the exit code if it fails)
 *   s10  checks passed so far
 *   s8   value found, s9 value expected (what a failure prints)
 *   s7   scratch base address of the trap record
 * A check whose result differs branches to isa_fail, which prints
 * "<image>: test N failed: got 0x..., expected 0x..." and exits with N.
 * After the last check, ISA_END prints "<image>: N checks passed" and
 * exits 0.
 */
#define TESTNUM s11
#define PASSED s10
#define GOT s8
#define EXPECTED s9
#define TRAP_BASE s7

/* Offsets in lq_isa_trap (isa_support.c), which the exception handler
   fills when a check has armed it. */
#define ISA_TRAP_ARMED 0
#define ISA_TRAP_COUNT 4
#define ISA_TRAP_MCAUSE 8
#define ISA_TRAP_MEPC 12
#define ISA_TRAP_MTVAL 16
#define ISA_TRAP_MSTATUS 20

/* Opens the image: main, which never returns (ISA_END exits). Linker
   relaxation stays off so that every instruction keeps the size and
   encoding written (it would turn "tail" into c.j even under norvc). */
#define ISA_BEGIN(image) \
  .option norelax;       \
  .section .rodata;      \
  isa_image_name:        \
  .asciz #image;         \
  .text;                 \
  .globl main;           \
  .type main, @function; \
  main:                  \
  call lq_isa_init;      \
  li TESTNUM, 0;         \
  li PASSED, 0

#define ISA_END          \
  la a0, isa_image_name; \
  mv a1, PASSED;         \
  tail lq_isa_pass;      \
  isa_fail:              \
  la a0, isa_image_name; \
  mv a1, TESTNUM;        \
  mv a2, GOT;            \
  mv a3, EXPECTED;       \
  tail lq_isa_fail;      \
  .size main, . - main

/* Compares reg with an immediate and counts one passed check. */
#define CHECK_REG(reg, expected) \
  mv GOT, reg;                   \
  li EXPECTED, expected;         \
  bne GOT, EXPECTED, isa_fail

/* TEST_CASE(n, reg, expected, code...): runs code, then requires reg to
   hold expected. */
#define TEST_CASE(n, reg, expected, code...) \
  li TESTNUM, n;                             \
  code;                                      \
  CHECK_REG(reg, expected);                  \
  addi PASSED, PASSED, 1

/* Arms the exception handler: the next exception is recorded, the
   faulting instruction skipped, and execution continues after it. */
#define ARM_TRAP             \
  la TRAP_BASE, lq_isa_trap; \
  li GOT, 1;                 \
  sw GOT, ISA_TRAP_ARMED(TRAP_BASE)

/* Requires the armed trap to have happened, with this mcause. */
#define CHECK_TRAPPED(cause)          \
  la TRAP_BASE, lq_isa_trap;          \
  lw GOT, ISA_TRAP_ARMED(TRAP_BASE);  \
  li EXPECTED, 0;                     \
  bne GOT, EXPECTED, isa_fail;        \
  lw GOT, ISA_TRAP_MCAUSE(TRAP_BASE); \
  li EXPECTED, cause;                 \
  bne GOT, EXPECTED, isa_fail

/* Requires a recorded trap field (ISA_TRAP_...) to equal the value of
   the register holding it. */
#define CHECK_TRAP_FIELD_REG(field, reg) \
  la TRAP_BASE, lq_isa_trap;             \
  lw GOT, field(TRAP_BASE);              \
  mv EXPECTED, reg;                      \
  bne GOT, EXPECTED, isa_fail

/* TEST_TRAP(n, cause, insn...): the one instruction insn must trap with
   mcause = cause and mepc = its address. */
#define TEST_TRAP(n, cause, insn...)       \
  li TESTNUM, n;                           \
  ARM_TRAP;                                \
  7001 : insn;                             \
  CHECK_TRAPPED(cause);                    \
  la t6, 7001b;                            \
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MEPC, t6); \
  addi PASSED, PASSED, 1

/* TEST_TRAP_TVAL(n, cause, tval, insn...): as TEST_TRAP, and mtval must
   equal the constant tval. */
#define TEST_TRAP_TVAL(n, cause, tval, insn...) \
  li TESTNUM, n;                                \
  ARM_TRAP;                                     \
  7002 : insn;                                  \
  CHECK_TRAPPED(cause);                         \
  la t6, 7002b;                                 \
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MEPC, t6);      \
  li t6, tval;                                  \
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MTVAL, t6);     \
  addi PASSED, PASSED, 1

/* TEST_TRAP_ADDR(n, cause, addr_reg, insn...): as TEST_TRAP, and mtval
   must equal the faulting address held in addr_reg (not t6). */
#define TEST_TRAP_ADDR(n, cause, addr_reg, insn...) \
  li TESTNUM, n;                                    \
  ARM_TRAP;                                         \
  7003 : insn;                                      \
  CHECK_TRAPPED(cause);                             \
  la t6, 7003b;                                     \
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MEPC, t6);          \
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MTVAL, addr_reg);   \
  addi PASSED, PASSED, 1

/* clang-format on */

#endif /* LQ_ISA_TEST_H_ */
