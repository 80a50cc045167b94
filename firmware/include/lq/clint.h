// SPDX-License-Identifier: Apache-2.0
/* The CLINT of hart 0: the 64-bit mtime counter (10 MHz), the mtimecmp timer
 * and the software interrupt bit. */
#ifndef LQ_CLINT_H_
#define LQ_CLINT_H_

#include <stdbool.h>
#include <stdint.h>

#include "lq/board_map.h"

#define LQ_MTIME_TICKS_PER_US (LQ_MTIME_HZ / 1000000u)

/* mtime, read so that a carry between the two 32-bit halves cannot tear it. */
uint64_t lq_clint_mtime(void);

/* Sets mtimecmp without a moment where it is briefly below both the old
   and the new value (which could raise a spurious timer interrupt). */
void lq_clint_set_mtimecmp(uint64_t when);

/* Pushes mtimecmp to the far future: mip.MTIP clears. */
void lq_clint_disarm(void);

/* Raises (true) or clears (false) the machine software interrupt. */
void lq_clint_set_msip(bool raised);

static inline uint64_t lq_us_to_ticks(uint32_t us) {
  return (uint64_t)us * LQ_MTIME_TICKS_PER_US;
}

/* Busy-waits for at least us microseconds of mtime. */
void lq_delay_us(uint32_t us);

#endif /* LQ_CLINT_H_ */
