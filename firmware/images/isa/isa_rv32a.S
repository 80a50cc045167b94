/* SPDX-License-Identifier: Apache-2.0 */
/* isa_rv32a: checks the A extension: lr.w/sc.w success and failure, and every AMO's returned value and memory result. */
#include "isa_test.h"

  .option norvc

  .data
  .balign 4
rv32a_word:
  .word 0
rv32a_other:
  .word 0

  .text
ISA_BEGIN(isa_rv32a)

  /* sc.w writes 0 to rd on success and a nonzero value on failure;
     snez folds every failure code to 1. */
  TEST_CASE(1, a0, 0x11, la a1, rv32a_word; li a2, 0x11; sw a2, 0(a1); lr.w a0, (a1))
  TEST_CASE(2, a0, 0, li a2, 0x22; sc.w a0, a2, (a1); snez a0, a0)
  TEST_CASE(3, a0, 0x22, lw a0, 0(a1))
  /* A second sc.w without a new lr.w has no reservation: it fails and
     leaves memory alone. */
  TEST_CASE(4, a0, 1, li a2, 0x33; sc.w a0, a2, (a1); snez a0, a0)
  TEST_CASE(5, a0, 0x22, lw a0, 0(a1))
  /* A store of a different value to the reserved word between lr.w and
     sc.w makes the sc.w fail (QEMU compares values, the board's ISS
     drops the reservation on the store: both fail here). */
  TEST_CASE(6, a0, 1, lr.w a3, (a1); li a2, 0x44; sw a2, 0(a1); li a2, 0x55; sc.w a0, a2, (a1); snez a0, a0)
  TEST_CASE(7, a0, 0x44, lw a0, 0(a1))
  /* sc.w to another word than the reserved one fails. */
  TEST_CASE(8, a0, 1, lr.w a3, (a1); la a4, rv32a_other; li a2, 0x66; sc.w a0, a2, (a4); snez a0, a0)
  TEST_CASE(9, a0, 0, la a4, rv32a_other; lw a0, 0(a4))
  /* The ordering bits do not change the result. */
  TEST_CASE(10, a0, 0, lr.w.aq a3, (a1); li a2, 0x77; sc.w.rl a0, a2, (a1); snez a0, a0)
  TEST_CASE(11, a0, 0, lr.w.aqrl a3, (a1); li a2, 0x78; sc.w.aqrl a0, a2, (a1); snez a0, a0)
  TEST_CASE(12, a0, 0x78, lw a0, 0(a1))

  /* Each AMO returns the old value (checked first) and stores the result. */
#define AMO_CASE(n, op, old, operand, result)                          \
  TEST_CASE(n, a0, old, la a1, rv32a_word; li a2, old; sw a2, 0(a1);   \
            li a3, operand; op a0, a3, (a1));                          \
  TEST_CASE(n + 1, a4, result, lw a4, 0(a1))
  AMO_CASE(20, amoswap.w, 0x12345678, 0x9abcdef0, 0x9abcdef0)
  AMO_CASE(22, amoadd.w, 0xfffffffe, 3, 1)
  AMO_CASE(24, amoxor.w, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
  AMO_CASE(26, amoand.w, 0xff00ff00, 0x0ff00ff0, 0x0f000f00)
  AMO_CASE(28, amoor.w, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0)
  AMO_CASE(30, amomin.w, 0xfffffffe, 1, 0xfffffffe)
  AMO_CASE(32, amomin.w, 5, 0x80000000, 0x80000000)
  AMO_CASE(34, amomax.w, 0xfffffffe, 1, 1)
  AMO_CASE(36, amomax.w, 0x7fffffff, 0x80000000, 0x7fffffff)
  AMO_CASE(38, amominu.w, 0xfffffffe, 1, 1)
  AMO_CASE(40, amominu.w, 0, 0xffffffff, 0)
  AMO_CASE(42, amomaxu.w, 0xfffffffe, 1, 0xfffffffe)
  AMO_CASE(44, amomaxu.w, 0x7fffffff, 0x80000000, 0x80000000)
  AMO_CASE(46, amoadd.w.aq, 10, 20, 30)
  AMO_CASE(48, amoswap.w.rl, 1, 2, 2)
  AMO_CASE(50, amoor.w.aqrl, 1, 2, 3)
  /* rd = x0 discards the old value but still updates memory. */
  TEST_CASE(52, a0, 7, la a1, rv32a_word; li a2, 5; sw a2, 0(a1); li a3, 2; amoadd.w zero, a3, (a1); lw a0, 0(a1))
  /* rd = rs2: the old value lands in rd after rs2 was used. */
  TEST_CASE(53, a3, 5, la a1, rv32a_word; li a2, 5; sw a2, 0(a1); li a3, 9; amoswap.w a3, a3, (a1))
  TEST_CASE(54, a0, 9, lw a0, 0(a1))

ISA_END
