// SPDX-License-Identifier: Apache-2.0
/* Ending the simulation through the SiFive-test compatible finisher at
 * 0x0010_0000. */
#ifndef LQ_FINISHER_H_
#define LQ_FINISHER_H_

#include <stdint.h>

/* Exit status 0 (writes 0x5555) or 1-65535 (writes 0x3333 | status << 16);
   a status whose low 16 bits are 0 but that is not 0 becomes 1, so that no
   failure can read as a pass. Never returns. */
void lq_exit(int status) __attribute__((noreturn));

/* Ends the run from a trap handler that does not handle the trap it is
   in (writes 0x4444): lqemu reports the trap from mcause, mepc and mtval
   and exits 1, or shows it to an attached GDB as a signal first. Never
   returns. */
void lq_exit_unhandled_trap(void) __attribute__((noreturn));

static inline void lq_pass(void) __attribute__((noreturn));
static inline void lq_pass(void) { lq_exit(0); }

static inline void lq_fail(int status) __attribute__((noreturn));
static inline void lq_fail(int status) { lq_exit(status == 0 ? 1 : status); }

#endif /* LQ_FINISHER_H_ */
