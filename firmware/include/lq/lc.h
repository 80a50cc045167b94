// SPDX-License-Identifier: Apache-2.0
/* Access to the link controller of each port (docs/registers/lc.md) through the
 * generated lc_regs.h, the steps of a bring-up, and names for its enum
 * values. */
#ifndef LQ_LC_H_
#define LQ_LC_H_

#include <stdbool.h>
#include <stdint.h>

#include "lc_regs.h"
#include "lq/board_map.h"

static inline uintptr_t lq_lc_base(uint32_t port) {
  return (uintptr_t)(LQ_LC_BASE + LQ_LC_STRIDE * port);
}

static inline uint32_t lq_lc_read(uint32_t port, uint32_t offset) {
  return lc_read(lq_lc_base(port), offset);
}

static inline void lq_lc_write(uint32_t port, uint32_t offset, uint32_t value) {
  lc_write(lq_lc_base(port), offset, value);
}

/* True if the port's window holds a link controller (its ID reads the
   magic); a port the board does not wire may not. */
bool lq_lc_present(uint32_t port);

/* Sets CTRL.ENABLE: the link trains from Detect, and retrains by itself
   while the bit stays set. */
void lq_lc_enable(uint32_t port);

/* Clears CTRL.ENABLE (which resets to 1): the link is held in DISABLED. */
void lq_lc_disable(uint32_t port);

/* True if the port's LTSSM is in L0: the link is up. */
bool lq_lc_in_l0(uint32_t port);

/* True if every port p below port_count with present[p] is in L0. */
bool lq_lc_all_in_l0(const bool* present, uint32_t port_count);

/* Prints "port P: up xW SPEED" or "port P: down (state NAME)" for every
   port p below port_count with present[p], the per-port result lines of a
   bring-up, and returns how many are up (in L0). */
uint32_t lq_lc_report(const bool* present, uint32_t port_count);

/* Enables the link controller of every port of the board, polls until all
   are in L0 or `timeout_us` of simulated time has passed, prints the port
   lines and "WHO: U of E ports up in T us", and returns whether every
   present port is up. For images that do not take link interrupts. */
bool lq_lc_bring_up_polled(const char* who, uint32_t timeout_us);

/* "DETECT", "L0", ...; "?" for a value outside the enum. */
const char* lq_lc_ltssm_name(uint32_t ltssm);

/* "64 GT/s", "200 Gb/s", "none", ... */
const char* lq_lc_speed_name(uint32_t speed);

#endif /* LQ_LC_H_ */
