// SPDX-License-Identifier: Apache-2.0
/* timer_demo: ticks five times on the CLINT timer interrupt at 100 us, sleeping
 * in WFI between ticks, and prints mtime at each tick. */
#include <stdint.h>
#include <stdio.h>

#include "lq/clint.h"
#include "lq/irq.h"
#include "lq/trap.h"

#define kTicks 5
#define kPeriodUs 100
/* Far more than kTicks periods: a timer that never fires ends the run. */
#define kTimeoutUs 100000

static volatile uint32_t ticks;
static volatile uint64_t tick_mtime[kTicks];
static uint64_t next_deadline;

static void on_timer(void) {
  uint32_t tick = ticks;
  if (tick < kTicks) {
    tick_mtime[tick] = lq_clint_mtime();
    ticks = tick + 1;
  }
  if (tick + 1 < kTicks) {
    /* From the last deadline, not from now: no drift from handler time. */
    next_deadline += lq_us_to_ticks(kPeriodUs);
    lq_clint_set_mtimecmp(next_deadline);
  } else {
    lq_clint_disarm();
  }
}

int main(void) {
  printf("timer_demo: %d ticks every %d us\n", kTicks, kPeriodUs);
  lq_trap_set_timer_handler(on_timer);
  uint64_t start = lq_clint_mtime();
  next_deadline = start + lq_us_to_ticks(kPeriodUs);
  lq_clint_set_mtimecmp(next_deadline);
  lq_irq_enable(LQ_MIE_MTIE);
  lq_irq_global_enable();

  uint32_t printed = 0;
  while (printed < kTicks) {
    if (lq_clint_mtime() - start > lq_us_to_ticks(kTimeoutUs)) {
      printf("timer_demo: only %lu of %d ticks in %d us\n",
             (unsigned long)printed, kTicks, kTimeoutUs);
      return 1;
    }
    /* Check and sleep with interrupts off, so a tick between the check
       and the WFI still wakes it (WFI returns on a pending interrupt). */
    uint32_t mie = lq_irq_global_disable();
    if (ticks == printed) {
      lq_wfi();
    }
    lq_irq_global_restore(mie);
    while (printed < ticks) {
      uint64_t at = tick_mtime[printed];
      printf("tick %lu: mtime %llu (+%llu us)\n", (unsigned long)printed + 1,
             (unsigned long long)at,
             (unsigned long long)((at - start) / LQ_MTIME_TICKS_PER_US));
      printed++;
    }
  }
  lq_irq_disable(LQ_MIE_MTIE);
  printf("timer_demo: done\n");
  return 0;
}
