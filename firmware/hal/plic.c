// SPDX-License-Identifier: Apache-2.0
/* PLIC access for the one M-mode context of hart 0, and the
 * claim/handle/complete loop. */
#include "lq/plic.h"

#include <stddef.h>

#include "lq/board_map.h"

static lq_plic_handler_t handlers[LQ_PLIC_SOURCES];

static volatile uint32_t* plic_register(uint32_t offset) {
  return (volatile uint32_t*)(LQ_PLIC_BASE + offset);
}

void lq_plic_set_priority(uint32_t source, uint32_t priority) {
  *plic_register(LQ_PLIC_PRIORITY_OFFSET + 4u * source) = priority;
}

void lq_plic_enable(uint32_t source) {
  *plic_register(LQ_PLIC_ENABLE_OFFSET) |= 1u << source;
}

void lq_plic_disable(uint32_t source) {
  *plic_register(LQ_PLIC_ENABLE_OFFSET) &= ~(1u << source);
}

void lq_plic_set_threshold(uint32_t threshold) {
  *plic_register(LQ_PLIC_THRESHOLD_OFFSET) = threshold;
}

uint32_t lq_plic_claim(void) { return *plic_register(LQ_PLIC_CLAIM_OFFSET); }

void lq_plic_complete(uint32_t source) {
  *plic_register(LQ_PLIC_CLAIM_OFFSET) = source;
}

void lq_plic_attach(uint32_t source, lq_plic_handler_t handler) {
  if (source == 0 || source >= LQ_PLIC_SOURCES) {
    return;
  }
  handlers[source] = handler;
  lq_plic_set_priority(source, 1);
  lq_plic_enable(source);
}

void lq_plic_dispatch(void) {
  for (uint32_t source = lq_plic_claim(); source != 0;
       source = lq_plic_claim()) {
    if (source < LQ_PLIC_SOURCES && handlers[source] != NULL) {
      handlers[source](source);
    } else {
      lq_plic_disable(source);
    }
    lq_plic_complete(source);
  }
}
