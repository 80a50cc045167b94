/* SPDX-License-Identifier: Apache-2.0 */
/* isa_rv32m: checks the M extension (multiply, divide, remainder) with its edge cases: signs, high halves, division by zero and INT_MIN / -1. */
#include "isa_test.h"

  .option norvc

  .text
ISA_BEGIN(isa_rv32m)

  /* mul: the low 32 bits, the same for signed and unsigned. */
  TEST_CASE(1, a0, 42, li a1, 6; li a2, 7; mul a0, a1, a2)
  TEST_CASE(2, a0, 0xfffffffa, li a1, -2; li a2, 3; mul a0, a1, a2)
  TEST_CASE(3, a0, 0x00000001, li a1, 0xffffffff; li a2, 0xffffffff; mul a0, a1, a2)
  TEST_CASE(4, a0, 0x242d2080, li a1, 0x12345678; li a2, 0x9abcdef0; mul a0, a1, a2)
  TEST_CASE(5, a0, 0x00000000, li a1, 0x80000000; li a2, 2; mul a0, a1, a2)

  /* High halves: signed x signed, signed x unsigned, unsigned x unsigned. */
  TEST_CASE(6, a0, 0x00000000, li a1, 6; li a2, 7; mulh a0, a1, a2)
  TEST_CASE(7, a0, 0xffffffff, li a1, -2; li a2, 3; mulh a0, a1, a2)
  TEST_CASE(8, a0, 0x00000000, li a1, -1; li a2, -1; mulh a0, a1, a2)
  TEST_CASE(9, a0, 0x40000000, li a1, 0x80000000; li a2, 0x80000000; mulh a0, a1, a2)
  TEST_CASE(10, a0, 0xc0000000, li a1, 0x80000000; li a2, 0x7fffffff; mulh a0, a1, a2)
  TEST_CASE(11, a0, 0xffffffff, li a1, -1; li a2, 0xffffffff; mulhsu a0, a1, a2)
  TEST_CASE(12, a0, 0x00000000, li a1, 1; li a2, 0xffffffff; mulhsu a0, a1, a2)
  TEST_CASE(13, a0, 0x80000000, li a1, 0x80000000; li a2, 0xffffffff; mulhsu a0, a1, a2)
  TEST_CASE(14, a0, 0xfffffffe, li a1, 0xffffffff; li a2, 0xffffffff; mulhu a0, a1, a2)
  TEST_CASE(15, a0, 0x00000000, li a1, 0xffffffff; li a2, 1; mulhu a0, a1, a2)
  TEST_CASE(16, a0, 0x0b00ea4e, li a1, 0x12345678; li a2, 0x9abcdef0; mulhu a0, a1, a2)

  /* Division rounds toward zero; the remainder takes the dividend's sign. */
  TEST_CASE(17, a0, 3, li a1, 20; li a2, 6; div a0, a1, a2)
  TEST_CASE(18, a0, 0xfffffffd, li a1, -20; li a2, 6; div a0, a1, a2)
  TEST_CASE(19, a0, 0xfffffffd, li a1, 20; li a2, -6; div a0, a1, a2)
  TEST_CASE(20, a0, 3, li a1, -20; li a2, -6; div a0, a1, a2)
  TEST_CASE(21, a0, 2, li a1, 20; li a2, 6; rem a0, a1, a2)
  TEST_CASE(22, a0, 0xfffffffe, li a1, -20; li a2, 6; rem a0, a1, a2)
  TEST_CASE(23, a0, 2, li a1, 20; li a2, -6; rem a0, a1, a2)
  TEST_CASE(24, a0, 0x7ffffffe, li a1, 0xfffffffe; li a2, 2; divu a0, a1, a2; addi a0, a0, -1)
  TEST_CASE(25, a0, 0, li a1, 0xfffffffe; li a2, 0xffffffff; divu a0, a1, a2)
  TEST_CASE(26, a0, 0xfffffffe, li a1, 0xfffffffe; li a2, 0xffffffff; remu a0, a1, a2)
  TEST_CASE(27, a0, 1, li a1, 20; li a2, 19; remu a0, a1, a2)

  /* Division by zero does not trap: quotient all ones, remainder the dividend. */
  TEST_CASE(28, a0, 0xffffffff, li a1, 20; div a0, a1, zero)
  TEST_CASE(29, a0, 0xffffffff, li a1, -20; div a0, a1, zero)
  TEST_CASE(30, a0, 0xffffffff, li a1, 20; divu a0, a1, zero)
  TEST_CASE(31, a0, 0xffffffec, li a1, -20; rem a0, a1, zero)
  TEST_CASE(32, a0, 20, li a1, 20; remu a0, a1, zero)

  /* Overflow: INT_MIN / -1 gives INT_MIN, remainder 0. */
  TEST_CASE(33, a0, 0x80000000, li a1, 0x80000000; li a2, -1; div a0, a1, a2)
  TEST_CASE(34, a0, 0, li a1, 0x80000000; li a2, -1; rem a0, a1, a2)
  /* The same operands unsigned are ordinary. */
  TEST_CASE(35, a0, 0, li a1, 0x80000000; li a2, -1; divu a0, a1, a2)
  TEST_CASE(36, a0, 0x80000000, li a1, 0x80000000; li a2, -1; remu a0, a1, a2)

  /* rd equal to a source register. */
  TEST_CASE(37, a1, 42, li a1, 6; li a2, 7; mul a1, a1, a2)
  TEST_CASE(38, a2, 3, li a1, 21; li a2, 7; div a2, a1, a2)

ISA_END
