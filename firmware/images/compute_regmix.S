/* SPDX-License-Identifier: Apache-2.0 */
/* compute_regmix(iterations, registers): a loop over every general register, mostly in compressed encodings, that ends by storing x0-x31 to registers[32]. */

  .option rvc
  .text
  .globl compute_regmix
  .type compute_regmix, @function
compute_regmix:
  /* Frame: ra, s0-s11 (the ABI's callee-saved), the two arguments. */
  addi sp, sp, -64
  sw ra, 0(sp)
  sw s0, 4(sp)
  sw s1, 8(sp)
  sw s2, 12(sp)
  sw s3, 16(sp)
  sw s4, 20(sp)
  sw s5, 24(sp)
  sw s6, 28(sp)
  sw s7, 32(sp)
  sw s8, 36(sp)
  sw s9, 40(sp)
  sw s10, 44(sp)
  sw s11, 48(sp)
  sw a1, 52(sp)
  mv t6, a0 /* iteration count */

  /* Known start values in every register the loop mixes. */
  li ra, 0x9e3779b9
  li t0, 0x7f4a7c15
  li t1, 0x85ebca6b
  li t2, 0xc2b2ae35
  li s0, 0x27d4eb2f
  li s1, 0x165667b1
  li a0, 0xd3a2646c
  li a1, 0xfd7046c5
  li a2, 0xb55a4f09
  li a3, 0x68e31da4
  li a4, 0x1b873593
  li a5, 0xcc9e2d51
  li a6, 0xe6546b64
  li a7, 0x52dce729
  li s2, 0x38495ab5
  li s3, 0x0d7e6c15
  li s4, 0xa5a5a5a5
  li s5, 0x5bd1e995
  li s6, 0x01000193
  li s7, 0x811c9dc5
  li s8, 0x2545f491
  li s9, 0x9e3779b1
  li s10, 0xc6a4a793
  li s11, 0x5851f42d
  li t3, 0x14057b7e
  li t4, 0xf767814f
  li t5, 0x64dd81a1

.Lmix:
  /* Compressed arithmetic on x8-x15 and the full-register c. forms. */
  c.add s0, a0
  c.xor s1, s0
  c.sub a0, s1
  c.and a1, a0
  c.or a2, a1
  c.slli a3, 3
  c.srli a4, 5
  c.srai a5, 7
  c.addi a1, 13
  c.andi a2, -17
  c.add a3, a2
  c.xor a4, a3
  c.or a5, a4
  c.mv t3, a5
  c.add t3, t0
  c.add ra, t3
  /* 32-bit forms and the M extension on the rest. */
  xor t0, t0, ra
  mul t1, t1, t0
  mulhu t2, t1, s2
  add s2, s2, t2
  sub s3, s3, s2
  div s4, s4, s3
  remu s5, s5, s1
  srl s6, s6, t0
  sll s7, s7, t1
  sra s8, s8, t2
  or s9, s9, s8
  and s10, s10, s9
  slt s11, s10, s9
  add s11, s11, s7
  sltu t4, s11, t3
  add t4, t4, s6
  xor t5, t5, t4
  add a6, a6, t5
  mulh a7, a6, s4
  add a7, a7, s5
  xor s0, s0, a7
  c.addi t6, -1
  bnez t6, .Lmix

  /* Result: a fold of the mixed registers. */
  xor t6, s0, s1
  xor t6, t6, s11
  xor t6, t6, a7

  /* Every register as the loop left it (t6 holds the result). */
  lw t0, 52(sp)
  sw x0, 0(t0)
  sw x1, 4(t0)
  sw x2, 8(t0)
  sw x3, 12(t0)
  sw x4, 16(t0)
  sw t0, 20(t0) /* x5 is the pointer now: deterministic all the same */
  sw x6, 24(t0)
  sw x7, 28(t0)
  sw x8, 32(t0)
  sw x9, 36(t0)
  sw x10, 40(t0)
  sw x11, 44(t0)
  sw x12, 48(t0)
  sw x13, 52(t0)
  sw x14, 56(t0)
  sw x15, 60(t0)
  sw x16, 64(t0)
  sw x17, 68(t0)
  sw x18, 72(t0)
  sw x19, 76(t0)
  sw x20, 80(t0)
  sw x21, 84(t0)
  sw x22, 88(t0)
  sw x23, 92(t0)
  sw x24, 96(t0)
  sw x25, 100(t0)
  sw x26, 104(t0)
  sw x27, 108(t0)
  sw x28, 112(t0)
  sw x29, 116(t0)
  sw x30, 120(t0)
  sw x31, 124(t0)

  mv a0, t6
  lw ra, 0(sp)
  lw s0, 4(sp)
  lw s1, 8(sp)
  lw s2, 12(sp)
  lw s3, 16(sp)
  lw s4, 20(sp)
  lw s5, 24(sp)
  lw s6, 28(sp)
  lw s7, 32(sp)
  lw s8, 36(sp)
  lw s9, 40(sp)
  lw s10, 44(sp)
  lw s11, 48(sp)
  addi sp, sp, 64
  ret
  .size compute_regmix, . - compute_regmix
