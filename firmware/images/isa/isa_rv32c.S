/* SPDX-License-Identifier: Apache-2.0 */
/* isa_rv32c: checks every RV32C instruction (no F/D forms), each written with its c. mnemonic so the assembler cannot choose the 32-bit form. */
#include "isa_test.h"

  .option rvc

  .data
  .balign 4
rv32c_data:
  .word 0x89abcdef, 0x01234567, 0, 0

  .text
ISA_BEGIN(isa_rv32c)

  /* Quadrant 1: immediates and arithmetic. */
  TEST_CASE(1, a0, 0, li a0, 5; c.nop; c.li a0, 0)
  TEST_CASE(2, a0, 0xffffffe0, c.li a0, -32)
  TEST_CASE(3, a0, 31, c.li a0, 31)
  TEST_CASE(4, a0, 0xfffffffd, c.li a0, 2; c.addi a0, -5)
  TEST_CASE(5, a0, 0x0001f000, c.lui a0, 0x1f)
  /* c.lui sign-extends its 6-bit immediate: 0xfffff is -1. */
  TEST_CASE(6, a0, 0xfffff000, c.lui a0, 0xfffff)
  TEST_CASE(7, a0, 0x08000000, li a0, 0x80000000; c.srli a0, 4)
  TEST_CASE(8, a0, 0xf8000000, li a0, 0x80000000; c.srai a0, 4)
  TEST_CASE(9, a0, 0x00000000, li a0, 0x80000000; c.srli a0, 31; c.srli a0, 1)
  TEST_CASE(10, a0, 0x00000010, li a0, 0x12345678; c.andi a0, 0x1f; c.andi a0, -16)
  TEST_CASE(11, a0, 0xfffffffe, li a0, 3; li a1, 5; c.sub a0, a1)
  TEST_CASE(12, a0, 0x0ff00ff0, li a0, 0xff00ff00; li a1, 0xf0f0f0f0; c.xor a0, a1)
  TEST_CASE(13, a0, 0xfff0fff0, li a0, 0xff00ff00; li a1, 0xf0f0f0f0; c.or a0, a1)
  TEST_CASE(14, a0, 0xf000f000, li a0, 0xff00ff00; li a1, 0xf0f0f0f0; c.and a0, a1)
  /* The CA format reaches all of x8-x15. */
  TEST_CASE(15, s0, 3, li s0, 1; li s1, 2; c.add s0, s1)
  TEST_CASE(16, a5, 0x80000000, li a5, 1; c.slli a5, 31)

  /* Quadrant 2: register moves, shifts and full-register forms. */
  TEST_CASE(17, t1, 0x12345678, li t2, 0x12345678; c.mv t1, t2)
  TEST_CASE(18, t1, 0x12345679, li t1, 1; li t2, 0x12345678; c.add t1, t2)
  TEST_CASE(19, t3, 0x00000100, li t3, 1; c.slli t3, 8)
  TEST_CASE(20, ra, 17, li ra, 12; c.addi ra, 5)

  /* Quadrant 0 and 2: memory, through x8-x15 and through sp. */
  TEST_CASE(21, a0, 0x01234567, la a1, rv32c_data; c.lw a0, 4(a1))
  TEST_CASE(22, a0, 0x5a5a5a5a, la a1, rv32c_data; li a2, 0x5a5a5a5a; c.sw a2, 8(a1); lw a0, 8(a1))
  TEST_CASE(23, a0, 0x0000abcd, addi sp, sp, -32; li a2, 0xabcd; c.swsp a2, 12(sp); c.lwsp a0, 12(sp); addi sp, sp, 32)
  /* c.addi4spn: rd = sp + a scaled non-zero immediate. */
  TEST_CASE(24, a0, 16, c.addi4spn a0, sp, 16; sub a0, a0, sp)
  TEST_CASE(25, a0, 1020, c.addi4spn a0, sp, 1020; sub a0, a0, sp)
  /* c.addi16sp: sp moves by a multiple of 16 and comes back. */
  TEST_CASE(26, a0, 0xfffffe00, mv a1, sp; c.addi16sp sp, -512; sub a0, sp, a1; c.addi16sp sp, 496; c.addi16sp sp, 16)
  TEST_CASE(27, a0, 0, mv a1, sp; c.addi16sp sp, -16; c.addi16sp sp, 16; sub a0, sp, a1)

  /* Control flow: c.j, c.jal (rv32 only), c.jr, c.jalr, c.beqz, c.bnez. */
  TEST_CASE(28, a0, 1, li a0, 0; c.j 5f; c.li a0, 9; 5: c.addi a0, 1)
  TEST_CASE(29, a0, 0, c.jal 5f; 4: c.li a0, 9; c.j 6f; 5: la a1, 4b; sub a0, ra, a1; 6: c.nop)
  TEST_CASE(30, a0, 1, li a0, 0; la a2, 5f; c.jr a2; c.li a0, 9; 5: c.addi a0, 1)
  TEST_CASE(31, a0, 0, la a2, 5f; c.jalr a2; 4: c.li a0, 9; c.j 6f; 5: la a1, 4b; sub a0, ra, a1; 6: c.nop)
  TEST_CASE(32, a0, 1, li a0, 0; li a1, 0; c.beqz a1, 5f; c.li a0, 9; 5: c.addi a0, 1)
  TEST_CASE(33, a0, 9, li a0, 0; li a1, 1; c.beqz a1, 5f; c.li a0, 9; c.j 6f; 5: c.li a0, 1; 6: c.nop)
  TEST_CASE(34, a0, 1, li a0, 0; li a1, -1; c.bnez a1, 5f; c.li a0, 9; 5: c.addi a0, 1)
  TEST_CASE(35, a0, 9, li a0, 0; li a1, 0; c.bnez a1, 5f; c.li a0, 9; c.j 6f; 5: c.li a0, 1; 6: c.nop)
  /* A backward c.bnez: a loop of compressed instructions. */
  TEST_CASE(36, a0, 10, c.li a0, 0; c.li a1, 10; 5: c.addi a0, 1; c.addi a1, -1; c.bnez a1, 5b)

  /* c.ebreak traps like ebreak, with mepc on the 2-byte instruction. */
  TEST_TRAP(37, 3, c.ebreak)

ISA_END
