// SPDX-License-Identifier: Apache-2.0
/* The PLIC's one context (hart 0, M-mode): source priorities and enables, the
 * threshold, claim/complete, and per-source handlers. */
#ifndef LQ_PLIC_H_
#define LQ_PLIC_H_

#include <stdint.h>

/* Called with the source number between claim and complete. */
typedef void (*lq_plic_handler_t)(uint32_t source);

void lq_plic_set_priority(uint32_t source, uint32_t priority);
void lq_plic_enable(uint32_t source);
void lq_plic_disable(uint32_t source);
void lq_plic_set_threshold(uint32_t threshold);

/* Returns the highest-priority pending source, 0 if none. */
uint32_t lq_plic_claim(void);
void lq_plic_complete(uint32_t source);

/* Registers handler for source, gives it priority 1 and enables it. The
   external interrupt itself (mie.MEIE, mstatus.MIE) is the caller's. */
void lq_plic_attach(uint32_t source, lq_plic_handler_t handler);

/* Claims, handles and completes every pending source; the trap dispatcher
   calls it on a machine external interrupt. A source without a handler
   is disabled, so that it cannot raise the interrupt forever. */
void lq_plic_dispatch(void);

#endif /* LQ_PLIC_H_ */
