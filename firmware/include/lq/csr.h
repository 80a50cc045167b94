// SPDX-License-Identifier: Apache-2.0
/* Machine-mode CSR access and the CSR bit numbers the runtime uses. */
#ifndef LQ_CSR_H_
#define LQ_CSR_H_

#include <stdint.h>

#define lq_csr_read(csr)                                      \
  ({                                                          \
    uint32_t lq_csr_value_;                                   \
    __asm__ volatile("csrr %0, " #csr : "=r"(lq_csr_value_)); \
    lq_csr_value_;                                            \
  })
#define lq_csr_write(csr, value) \
  __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(value)) : "memory")
#define lq_csr_set(csr, bits) \
  __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(bits)) : "memory")
#define lq_csr_clear(csr, bits) \
  __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(bits)) : "memory")

/* mstatus */
#define LQ_MSTATUS_MIE (1u << 3)
#define LQ_MSTATUS_MPIE (1u << 7)
#define LQ_MSTATUS_MPP_MASK (3u << 11)

/* mie / mip: machine software, timer and external interrupts. */
#define LQ_MIE_MSIE (1u << 3)
#define LQ_MIE_MTIE (1u << 7)
#define LQ_MIE_MEIE (1u << 11)

/* mcause */
#define LQ_MCAUSE_INTERRUPT 0x80000000u
#define LQ_IRQ_M_SOFTWARE 3u
#define LQ_IRQ_M_TIMER 7u
#define LQ_IRQ_M_EXTERNAL 11u
#define LQ_EXC_INSN_MISALIGNED 0u
#define LQ_EXC_INSN_ACCESS_FAULT 1u
#define LQ_EXC_ILLEGAL_INSN 2u
#define LQ_EXC_BREAKPOINT 3u
#define LQ_EXC_LOAD_MISALIGNED 4u
#define LQ_EXC_LOAD_ACCESS_FAULT 5u
#define LQ_EXC_STORE_MISALIGNED 6u
#define LQ_EXC_STORE_ACCESS_FAULT 7u
#define LQ_EXC_ECALL_M 11u

/* 64-bit cycle counter, read consistently on rv32 (high half re-checked). */
static inline uint64_t lq_read_mcycle(void) {
  uint32_t hi;
  uint32_t lo;
  do {
    hi = lq_csr_read(mcycleh);
    lo = lq_csr_read(mcycle);
  } while (hi != lq_csr_read(mcycleh));
  return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t lq_read_minstret(void) {
  uint32_t hi;
  uint32_t lo;
  do {
    hi = lq_csr_read(minstreth);
    lo = lq_csr_read(minstret);
  } while (hi != lq_csr_read(minstreth));
  return ((uint64_t)hi << 32) | lo;
}

#endif /* LQ_CSR_H_ */
