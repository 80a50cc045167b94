/* SPDX-License-Identifier: Apache-2.0 */
/* isa_faults: checks the address-misaligned and access-fault exceptions as the board's ISS takes them; board only (QEMU 7.2 emulates misaligned loads and stores and reads unmapped addresses as 0). */
#include "isa_test.h"
#include "lq/board_map.h"

  .option norvc

  .data
  .balign 4
faults_data:
  .word 0x11223344, 0x55667788

  .text
ISA_BEGIN(isa_faults)

  /* Misaligned loads, stores and AMOs trap with mtval = the address. The
     ISS does not split them, and a trapped store writes nothing. */
  la s0, faults_data
  addi s1, s0, 1
  addi s2, s0, 2
  TEST_TRAP_ADDR(1, 4, s1, lw a0, 0(s1))
  TEST_TRAP_ADDR(2, 4, s2, lw a0, 0(s2))
  TEST_TRAP_ADDR(3, 4, s1, lh a0, 0(s1))
  TEST_TRAP_ADDR(4, 4, s1, lhu a0, 0(s1))
  TEST_TRAP_ADDR(5, 6, s1, sw zero, 0(s1))
  TEST_TRAP_ADDR(6, 6, s1, sh zero, 0(s1))
  TEST_CASE(7, a0, 0x11223344, lw a0, 0(s0))
  /* lr.w is a load; sc.w and every AMO are stores/AMOs (mcause 6). */
  TEST_TRAP_ADDR(8, 4, s2, lr.w a0, (s2))
  TEST_TRAP_ADDR(9, 6, s2, sc.w a0, zero, (s2))
  TEST_TRAP_ADDR(10, 6, s2, amoswap.w a0, zero, (s2))
  TEST_TRAP_ADDR(11, 6, s1, amoadd.w a0, zero, (s1))
  TEST_TRAP_ADDR(12, 6, s2, amomaxu.w a0, zero, (s2))
  TEST_CASE(13, a0, 0x11223344, lw a0, 0(s0))
  /* Halfword and byte accesses at odd-but-aligned places are fine. */
  TEST_CASE(14, a0, 0x1122, lhu a0, 2(s0))
  TEST_CASE(15, a0, 0x33, lbu a0, 1(s0))

  /* A decode miss is an access fault with mtval = the address. */
  li s3, LQ_UNMAPPED_ADDRESS
  TEST_TRAP_ADDR(16, 5, s3, lw a0, 0(s3))
  TEST_TRAP_ADDR(17, 7, s3, sw zero, 0(s3))
  TEST_TRAP_ADDR(18, 7, s3, amoadd.w a0, zero, (s3))
  /* Flash is read and execute only: a CPU store to it faults. */
  li s4, LQ_FLASH_BASE
  TEST_TRAP_ADDR(19, 7, s4, sw zero, 0(s4))
  /* A fetch from a hole faults with mepc = mtval = the target; the
     recorder returns to ra. */
  li TESTNUM, 20
  ARM_TRAP
  jalr ra, 0(s3)
  CHECK_TRAPPED(1)
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MEPC, s3)
  CHECK_TRAP_FIELD_REG(ISA_TRAP_MTVAL, s3)
  addi PASSED, PASSED, 1

ISA_END
