/* SPDX-License-Identifier: Apache-2.0 */
/* isa_traps: checks exceptions, mret, the machine CSRs and the timer and software interrupts, as far as QEMU virt and the board agree. */
#include "isa_test.h"
#include "lq/board_map.h"

#define MSTATUS_MIE 0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP 0x1800
#define MIP_MSIP 0x8
#define MIP_MTIP 0x80
#define MIE_ALL 0x888
/* misa bits A, C, I, M. */
#define MISA_RV32IMAC_BITS ((1 << 0) | (1 << 2) | (1 << 8) | (1 << 12))

  .option norvc

  .text
ISA_BEGIN(isa_traps)

  /* Illegal instructions: mtval holds the instruction's bits. */
  TEST_TRAP_TVAL(1, 2, 0x0000000b, .4byte 0x0000000b) /* custom-0 */
  TEST_TRAP_TVAL(2, 2, 0xf1401073, csrw mhartid, zero) /* read-only CSR */
  TEST_TRAP_TVAL(3, 2, 0x7c002573, csrr a0, 0x7c0) /* no such CSR */
  /* A reserved compressed encoding (c.addi4spn with immediate 0). */
  TEST_TRAP_TVAL(4, 2, 0x00000004, .2byte 0x0004)

  /* Environment call and breakpoint. */
  TEST_TRAP_TVAL(5, 11, 0, ecall)
  TEST_TRAP(6, 3, ebreak)

  /* A trap and mret preserve every register but the trap CSRs. */
  li TESTNUM, 7
  li ra, 0x01010101
  li t0, 0x05050505
  li t1, 0x06060606
  li t2, 0x07070707
  li s0, 0x08080808
  li s1, 0x09090909
  li a0, 0x0a0a0a0a
  li a1, 0x0b0b0b0b
  li a2, 0x0c0c0c0c
  li a3, 0x0d0d0d0d
  li a4, 0x0e0e0e0e
  li a5, 0x0f0f0f0f
  li a6, 0x10101010
  li a7, 0x11111111
  li s2, 0x12121212
  li s3, 0x13131313
  li s4, 0x14141414
  li s5, 0x15151515
  li s6, 0x16161616
  li t3, 0x1c1c1c1c
  li t4, 0x1d1d1d1d
  li t5, 0x1e1e1e1e
  li t6, 0x1f1f1f1f
  li a0, 0x0a0a0a0a
  ARM_TRAP
  ecall
  CHECK_REG(ra, 0x01010101)
  CHECK_REG(t0, 0x05050505)
  CHECK_REG(t1, 0x06060606)
  CHECK_REG(t2, 0x07070707)
  CHECK_REG(s0, 0x08080808)
  CHECK_REG(s1, 0x09090909)
  CHECK_REG(a0, 0x0a0a0a0a)
  CHECK_REG(a1, 0x0b0b0b0b)
  CHECK_REG(a2, 0x0c0c0c0c)
  CHECK_REG(a3, 0x0d0d0d0d)
  CHECK_REG(a4, 0x0e0e0e0e)
  CHECK_REG(a5, 0x0f0f0f0f)
  CHECK_REG(a6, 0x10101010)
  CHECK_REG(a7, 0x11111111)
  CHECK_REG(s2, 0x12121212)
  CHECK_REG(s3, 0x13131313)
  CHECK_REG(s4, 0x14141414)
  CHECK_REG(s5, 0x15151515)
  CHECK_REG(s6, 0x16161616)
  CHECK_REG(t3, 0x1c1c1c1c)
  CHECK_REG(t4, 0x1d1d1d1d)
  CHECK_REG(t5, 0x1e1e1e1e)
  CHECK_REG(t6, 0x1f1f1f1f)
  addi PASSED, PASSED, 1

  /* Trap entry moves MIE to MPIE, clears MIE and sets MPP to M; mret moves
     MPIE back to MIE and sets MPIE. mie stays 0, so nothing interrupts. */
  csrw mie, zero
  TEST_CASE(8, a0, MSTATUS_MPIE | MSTATUS_MPP, csrsi mstatus, MSTATUS_MIE; ARM_TRAP; ecall; la a1, lq_isa_trap; lw a0, ISA_TRAP_MSTATUS(a1); li a2, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and a0, a0, a2)
  TEST_CASE(9, a0, MSTATUS_MIE | MSTATUS_MPIE, csrr a0, mstatus; andi a0, a0, MSTATUS_MIE | MSTATUS_MPIE; csrci mstatus, MSTATUS_MIE)
  TEST_CASE(10, a0, MSTATUS_MPP, ARM_TRAP; ecall; la a1, lq_isa_trap; lw a0, ISA_TRAP_MSTATUS(a1); li a2, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and a0, a0, a2)
  TEST_CASE(11, a0, MSTATUS_MPIE, csrr a0, mstatus; andi a0, a0, MSTATUS_MIE | MSTATUS_MPIE)
  /* mret on its own: jumps to mepc and restores MIE from MPIE. */
  TEST_CASE(12, a0, MSTATUS_MIE, la t0, 5f; csrw mepc, t0; li t1, MSTATUS_MPIE | MSTATUS_MPP; csrs mstatus, t1; li a0, 99; mret; li a0, 98; 5: csrr a0, mstatus; andi a0, a0, MSTATUS_MIE; csrci mstatus, MSTATUS_MIE)

  /* Trap CSRs read back what was written (even values: mepc[0] is 0). */
  TEST_CASE(13, a0, 0x80001232, li a1, 0x80001232; csrw mepc, a1; csrr a0, mepc)
  TEST_CASE(14, a0, 11, li a1, 11; csrw mcause, a1; csrr a0, mcause)
  TEST_CASE(15, a0, 0x12345678, li a1, 0x12345678; csrw mtval, a1; csrr a0, mtval)
  TEST_CASE(16, a0, 0x80000100, csrr a2, mtvec; li a1, 0x80000100; csrw mtvec, a1; csrr a0, mtvec; csrw mtvec, a2)
  TEST_CASE(17, a0, 0, csrr a0, mtvec; la a1, lq_trap_entry; sub a0, a0, a1)
  TEST_CASE(18, a0, MIE_ALL, li a1, MIE_ALL; csrw mie, a1; csrr a0, mie; li a2, MIE_ALL; and a0, a0, a2; csrw mie, zero)
  TEST_CASE(19, a0, 0, csrr a0, mie; li a2, MIE_ALL; and a0, a0, a2)

  /* Identity: RV32 (MXL = 1) with I, M, A and C; hart 0. */
  TEST_CASE(20, a0, MISA_RV32IMAC_BITS, csrr a0, misa; li a1, MISA_RV32IMAC_BITS; and a0, a0, a1)
  TEST_CASE(21, a0, 1, csrr a0, misa; srli a0, a0, 30)
  TEST_CASE(22, a0, 0, csrr a0, mhartid)

  /* The counters run (their rates are the model's business). */
  TEST_CASE(23, a0, 1, csrr a1, mcycle; nop; nop; nop; nop; csrr a2, mcycle; sltu a0, a1, a2)
  TEST_CASE(24, a0, 1, csrr a1, minstret; nop; nop; nop; nop; csrr a2, minstret; sltu a0, a1, a2)
  TEST_CASE(25, a0, 0, csrr a1, mcycleh; csrr a2, minstreth; li a0, 0)

  /* Software interrupt: msip shows in mip.MSIP, is taken once MIE is set,
     and the handler's clearing of msip clears mip.MSIP. */
  TEST_CASE(26, a0, MIP_MSIP, csrw mie, zero; li a1, LQ_CLINT_BASE; li a2, 1; sw a2, 0(a1); csrr a0, mip; andi a0, a0, MIP_MSIP)
  TEST_CASE(27, a0, 0x80000003, li a1, MIP_MSIP; csrs mie, a1; ARM_TRAP; csrsi mstatus, MSTATUS_MIE; nop; csrci mstatus, MSTATUS_MIE; la a1, lq_isa_trap; lw a0, ISA_TRAP_MCAUSE(a1))
  TEST_CASE(28, a0, 0, csrw mie, zero; csrr a0, mip; andi a0, a0, MIP_MSIP)

  /* Timer interrupt: wfi wakes on a pending enabled interrupt even with
     MIE clear; the interrupt is then taken when MIE is set. */
  TEST_CASE(29, a0, MIP_MTIP, call lq_clint_mtime; addi a0, a0, 100; sltiu a2, a0, 100; add a1, a1, a2; call lq_clint_set_mtimecmp; li a1, MIP_MTIP; csrs mie, a1; 5: wfi; csrr a0, mip; andi a0, a0, MIP_MTIP; beqz a0, 5b)
  TEST_CASE(30, a0, 0x80000007, ARM_TRAP; csrsi mstatus, MSTATUS_MIE; nop; csrci mstatus, MSTATUS_MIE; la a1, lq_isa_trap; lw a0, ISA_TRAP_MCAUSE(a1))
  TEST_CASE(31, a0, 0, csrw mie, zero; csrr a0, mip; andi a0, a0, MIP_MTIP)

ISA_END
