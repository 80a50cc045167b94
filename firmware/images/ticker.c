// SPDX-License-Identifier: Apache-2.0
/* ticker: prints a numbered line every 100 us of simulated time, a million
 * times: a long run with steady console output, to stop part-way (SIGINT,
 * SIGTERM, --max-wall-s, --max-time-us). */
#include <stdint.h>
#include <stdio.h>

#include "lq/clint.h"

#define kLines 1000000u
#define kPeriodUs 100

int main(void) {
  uint64_t next = lq_clint_mtime();
  for (uint32_t line = 1; line <= kLines; ++line) {
    next += lq_us_to_ticks(kPeriodUs);
    while (lq_clint_mtime() < next) {
    }
    printf("ticker: line %lu\n", (unsigned long)line);
  }
  return 0;
}
