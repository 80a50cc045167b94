/* SPDX-License-Identifier: Apache-2.0 */
/* isa_rv32i: checks every RV32I instruction (plus Zicsr and Zifencei) in its 32-bit encoding; runs on the board and on QEMU virt. */
#include "isa_test.h"

  /* Every instruction here must keep its 32-bit form. */
  .option norvc

  .data
  .balign 4
rv32i_data:
  .word 0x80c0e0f1, 0x01020304, 0, 0
rv32i_patch_slot_template:
  li a0, 2 /* copied over rv32i_patch_slot to check fence.i */

  .text
ISA_BEGIN(isa_rv32i)

  /* Upper immediates and PC-relative addresses. */
  TEST_CASE(1, a0, 0x12345000, lui a0, 0x12345)
  TEST_CASE(2, a0, 0xfffff000, lui a0, 0xfffff)
  TEST_CASE(3, a0, 0x1000, 3: auipc a0, 1; la a1, 3b; sub a0, a0, a1)
  /* auipc's result is its own address: compare with a label on it. */
  TEST_CASE(4, a0, 0, 4: auipc a0, 0; la a1, 4b; sub a0, a0, a1)

  /* Register-immediate arithmetic, with sign extension of the immediate. */
  TEST_CASE(5, a0, 0x00000800, li a1, 0x7ff; addi a0, a1, 1)
  TEST_CASE(6, a0, 0xfffff800, li a1, 0; addi a0, a1, -2048)
  TEST_CASE(7, a0, 0x80000000, li a1, 0x7fffffff; addi a0, a1, 1)
  TEST_CASE(8, a0, 1, li a1, -1; slti a0, a1, 0)
  TEST_CASE(9, a0, 0, li a1, 5; slti a0, a1, -1)
  TEST_CASE(10, a0, 0, li a1, -1; sltiu a0, a1, 5)
  /* sltiu's immediate is sign-extended, then compared unsigned. */
  TEST_CASE(11, a0, 1, li a1, 5; sltiu a0, a1, -1)
  TEST_CASE(12, a0, 0xff00ff0f, li a1, 0x00ff00f0; xori a0, a1, -1; xori a0, a0, 0x700; xori a0, a0, 0x7ff; xori a0, a0, 0xff)
  TEST_CASE(13, a0, 0xfffffff5, li a1, 0x5; ori a0, a1, -16)
  TEST_CASE(14, a0, 0x12345d60, li a1, 0x12345ab7; andi a0, a1, 0x7f0; andi a2, a1, -16; add a0, a0, a2)
  TEST_CASE(15, a0, 0x80000000, li a1, 1; slli a0, a1, 31)
  TEST_CASE(16, a0, 0x00000001, li a1, 0x80000000; srli a0, a1, 31)
  TEST_CASE(17, a0, 0xffffffff, li a1, 0x80000000; srai a0, a1, 31)
  TEST_CASE(18, a0, 0x08000000, li a1, 0x80000000; srli a0, a1, 4)
  TEST_CASE(19, a0, 0xf8000000, li a1, 0x80000000; srai a0, a1, 4)

  /* Register-register arithmetic. */
  TEST_CASE(20, a0, 0x00000000, li a1, 0xffffffff; li a2, 1; add a0, a1, a2)
  TEST_CASE(21, a0, 0x7fffffff, li a1, 0x80000000; li a2, 1; sub a0, a1, a2)
  TEST_CASE(22, a0, 0x80000000, li a1, 1; li a2, 0x3f; sll a0, a1, a2)
  TEST_CASE(23, a0, 0x00000002, li a1, 1; li a2, 0x21; sll a0, a1, a2)
  TEST_CASE(24, a0, 1, li a1, -2; li a2, 1; slt a0, a1, a2)
  TEST_CASE(25, a0, 0, li a1, -2; li a2, 1; sltu a0, a1, a2)
  TEST_CASE(26, a0, 1, li a1, 0; li a2, 1; sltu a0, a1, a2)
  TEST_CASE(27, a0, 0x0ff00ff0, li a1, 0xff00ff00; li a2, 0xf0f0f0f0; xor a0, a1, a2)
  TEST_CASE(28, a0, 0x0fffffff, li a1, 0xfffffffe; li a2, 36; srl a0, a1, a2)
  TEST_CASE(29, a0, 0xfffffffe, li a1, 0xfffffff0; li a2, 35; sra a0, a1, a2)
  TEST_CASE(30, a0, 0xfff0fff0, li a1, 0xff00ff00; li a2, 0xf0f0f0f0; or a0, a1, a2)
  TEST_CASE(31, a0, 0xf000f000, li a1, 0xff00ff00; li a2, 0xf0f0f0f0; and a0, a1, a2)
  /* x0 ignores writes and reads 0. */
  TEST_CASE(32, a0, 0, addi x0, x0, 5; add a0, x0, x0)
  TEST_CASE(33, a0, 7, li a1, 7; add a0, a1, x0)

  /* Loads sign- or zero-extend; stores write only their width. */
  TEST_CASE(34, a0, 0xfffffff1, la a1, rv32i_data; lb a0, 0(a1))
  TEST_CASE(35, a0, 0x000000f1, la a1, rv32i_data; lbu a0, 0(a1))
  TEST_CASE(36, a0, 0xffff80c0, la a1, rv32i_data; lh a0, 2(a1))
  TEST_CASE(37, a0, 0x000080c0, la a1, rv32i_data; lhu a0, 2(a1))
  TEST_CASE(38, a0, 0x80c0e0f1, la a1, rv32i_data; lw a0, 0(a1))
  TEST_CASE(39, a0, 0x00000004, la a1, rv32i_data + 8; lb a0, -4(a1))
  TEST_CASE(40, a0, 0x000000aa, la a1, rv32i_data + 8; li a2, 0x123456aa; sb a2, 1(a1); lw a0, 0(a1); srli a0, a0, 8)
  TEST_CASE(41, a0, 0x0000aa00, la a1, rv32i_data + 8; lw a0, 0(a1))
  TEST_CASE(42, a0, 0xbeefaa00, la a1, rv32i_data + 8; li a2, 0xdeadbeef; sh a2, 2(a1); lw a0, 0(a1))
  TEST_CASE(43, a0, 0x76543210, la a1, rv32i_data + 12; li a2, 0x76543210; sw a2, 0(a1); lw a0, 0(a1))

  /* Branches: taken and not taken, signed and unsigned. */
#define BRANCH_TAKEN(n, op, x, y) \
  TEST_CASE(n, a0, 1, li a0, 0; li a1, x; li a2, y; op a1, a2, 5f; j 6f; 5: li a0, 1; 6: nop)
#define BRANCH_NOT_TAKEN(n, op, x, y) \
  TEST_CASE(n, a0, 0, li a0, 0; li a1, x; li a2, y; op a1, a2, 5f; j 6f; 5: li a0, 1; 6: nop)
  BRANCH_TAKEN(44, beq, 3, 3)
  BRANCH_NOT_TAKEN(45, beq, 3, 4)
  BRANCH_TAKEN(46, bne, 3, 4)
  BRANCH_NOT_TAKEN(47, bne, -1, -1)
  BRANCH_TAKEN(48, blt, -1, 1)
  BRANCH_NOT_TAKEN(49, blt, 1, -1)
  BRANCH_NOT_TAKEN(50, blt, 1, 1)
  BRANCH_TAKEN(51, bge, 1, -1)
  BRANCH_TAKEN(52, bge, 1, 1)
  BRANCH_NOT_TAKEN(53, bge, -1, 1)
  BRANCH_TAKEN(54, bltu, 1, -1)
  BRANCH_NOT_TAKEN(55, bltu, -1, 1)
  BRANCH_TAKEN(56, bgeu, -1, 1)
  BRANCH_TAKEN(57, bgeu, 0, 0)
  BRANCH_NOT_TAKEN(58, bgeu, 0, 1)
  /* A backward branch: count down a loop. */
  TEST_CASE(59, a0, 10, li a0, 0; li a1, 10; 5: addi a0, a0, 1; addi a1, a1, -1; bnez a1, 5b)

  /* Jumps link the address of the next instruction. */
  TEST_CASE(60, a0, 0, jal a1, 5f; 4: li a0, 99; 5: la a2, 4b; sub a0, a1, a2)
  TEST_CASE(61, a0, 0, la a2, 5f; jalr a1, 0(a2); 4: li a0, 99; 5: la a3, 4b; sub a0, a1, a3)
  /* jalr adds the offset and clears bit 0 of the target. */
  TEST_CASE(62, a0, 7, la a2, 5f - 3; li a0, 0; jalr a1, 4(a2); li a0, 99; 5: addi a0, a0, 7)
  /* rd = rs1: the target is computed from the old value. */
  TEST_CASE(63, a0, 5, li a0, 0; la t0, 5f; jalr t0, 0(t0); li a0, 99; 5: addi a0, a0, 5)

  /* Memory ordering is trivial on one hart, but the encodings must run. */
  TEST_CASE(64, a0, 0, fence; fence rw, rw; fence iorw, iorw; fence w, r; fence.tso; li a0, 0)

  /* fence.i makes a store to code visible to the next fetch. */
  TEST_CASE(65, a0, 2, la a1, rv32i_patch_slot; la a2, rv32i_patch_slot_template; lw a3, 0(a2); sw a3, 0(a1); fence.i; call rv32i_patch_slot)

  /* Zicsr on mscratch: every form returns the old value. */
  TEST_CASE(66, a0, 0, li a1, 0x12345678; csrw mscratch, a1; li a2, 0xcafe0000; csrrw a0, mscratch, a2; li a3, 0x12345678; sub a0, a0, a3)
  TEST_CASE(67, a0, 0xcafe00ff, li a1, 0xff; csrrs a2, mscratch, a1; csrr a0, mscratch)
  TEST_CASE(68, a0, 0x000000ff, li a1, 0xcafe0000; csrrc a2, mscratch, a1; csrr a0, mscratch)
  TEST_CASE(69, a0, 0x00000015, csrrwi a2, mscratch, 0x15; csrr a0, mscratch)
  TEST_CASE(70, a0, 0x0000001f, csrrsi a2, mscratch, 0x0a; csrr a0, mscratch)
  TEST_CASE(71, a0, 0x00000016, csrrci a2, mscratch, 0x09; csrr a0, mscratch)
  TEST_CASE(72, a0, 0x0000001f, csrrsi a0, mscratch, 0x1f; csrrci a0, mscratch, 0)
  /* csrrs/csrrc with x0 only read, so they may name read-only CSRs. */
  TEST_CASE(73, a0, 0, csrrs a0, mhartid, x0; csrrc a0, mhartid, x0)

ISA_END

  /* Patched by test 65 from "li a0, 1" to "li a0, 2". */
  .balign 4
rv32i_patch_slot:
  li a0, 1
  ret
