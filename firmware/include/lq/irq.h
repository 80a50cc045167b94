// SPDX-License-Identifier: Apache-2.0
/* Helpers that switch machine interrupts on and off (mstatus.MIE and the mie
 * enables) and wait for one. */
#ifndef LQ_IRQ_H_
#define LQ_IRQ_H_

#include <stdint.h>

#include "lq/csr.h"

static inline void lq_irq_global_enable(void) {
  lq_csr_set(mstatus, LQ_MSTATUS_MIE);
}

/* Returns the previous mstatus.MIE, for lq_irq_global_restore(). */
static inline uint32_t lq_irq_global_disable(void) {
  uint32_t previous;
  __asm__ volatile("csrrci %0, mstatus, %1"
                   : "=r"(previous)
                   : "i"(LQ_MSTATUS_MIE)
                   : "memory");
  return previous & LQ_MSTATUS_MIE;
}

static inline void lq_irq_global_restore(uint32_t previous_mie) {
  lq_csr_set(mstatus, previous_mie & LQ_MSTATUS_MIE);
}

/* bits: LQ_MIE_MSIE, LQ_MIE_MTIE and/or LQ_MIE_MEIE. */
static inline void lq_irq_enable(uint32_t bits) { lq_csr_set(mie, bits); }
static inline void lq_irq_disable(uint32_t bits) { lq_csr_clear(mie, bits); }

/* Waits for an interrupt. WFI also returns when an enabled interrupt is
   pending while mstatus.MIE is 0, which lets a caller check its condition
   with interrupts off and sleep without losing a wake-up. */
static inline void lq_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

#endif /* LQ_IRQ_H_ */
