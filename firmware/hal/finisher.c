// SPDX-License-Identifier: Apache-2.0
/* lq_exit() and picolibc's _exit(): end the run through the test finisher. */
#include "lq/finisher.h"

#include "lq/board_map.h"

#define FINISHER_PASS 0x5555u
#define FINISHER_FAIL 0x3333u
#define FINISHER_TRAP 0x4444u /* lqemu's: a trap nobody handles */

void lq_exit(int status) {
  uint32_t code = (uint32_t)status & 0xffffu;
  if (status != 0 && code == 0) {
    code = 1;
  }
  uint32_t command = code == 0 ? FINISHER_PASS : (FINISHER_FAIL | code << 16);
  *(volatile uint32_t*)LQ_FINISHER_BASE = command;
  /* Only reached without a finisher (a debugger holding the board). */
  for (;;) {
    __asm__ volatile("wfi");
  }
}

void lq_exit_unhandled_trap(void) {
  *(volatile uint32_t*)LQ_FINISHER_BASE = FINISHER_TRAP;
  for (;;) {
    __asm__ volatile("wfi");
  }
}

/* picolibc's exit() and abort() end here. */
void _exit(int status) __attribute__((noreturn));
void _exit(int status) { lq_exit(status); }
