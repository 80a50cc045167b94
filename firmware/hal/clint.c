// SPDX-License-Identifier: Apache-2.0
/* CLINT access for rv32, where the 64-bit mtime and mtimecmp are two 32-bit
 * halves each. */
#include "lq/clint.h"

static volatile uint32_t* const msip =
    (volatile uint32_t*)(LQ_CLINT_BASE + LQ_CLINT_MSIP_OFFSET);
static volatile uint32_t* const mtimecmp =
    (volatile uint32_t*)(LQ_CLINT_BASE + LQ_CLINT_MTIMECMP_OFFSET);
static volatile uint32_t* const mtime =
    (volatile uint32_t*)(LQ_CLINT_BASE + LQ_CLINT_MTIME_OFFSET);

uint64_t lq_clint_mtime(void) {
  uint32_t hi;
  uint32_t lo;
  /* If the high half moved while we read the low one, the low one may
     belong to either high value: read again. */
  do {
    hi = mtime[1];
    lo = mtime[0];
  } while (hi != mtime[1]);
  return ((uint64_t)hi << 32) | lo;
}

void lq_clint_set_mtimecmp(uint64_t when) {
  /* The low half goes to all-ones first, so that while the high half
     changes the comparator never holds a value below both old and new. */
  mtimecmp[0] = 0xffffffffu;
  mtimecmp[1] = (uint32_t)(when >> 32);
  mtimecmp[0] = (uint32_t)when;
}

void lq_clint_disarm(void) {
  mtimecmp[0] = 0xffffffffu;
  mtimecmp[1] = 0xffffffffu;
}

void lq_clint_set_msip(bool raised) { *msip = raised ? 1u : 0u; }

void lq_delay_us(uint32_t us) {
  uint64_t until = lq_clint_mtime() + lq_us_to_ticks(us);
  while (lq_clint_mtime() < until) {
  }
}
