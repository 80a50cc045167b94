// SPDX-License-Identifier: Apache-2.0
/* Access to the card's router (docs/registers/router.md) through the
 * generated router_regs.h: routing mode and tables, injection control and
 * counters. Only a card of a fabric has one (lq_router_present()). */
#ifndef LQ_ROUTER_H_
#define LQ_ROUTER_H_

#include <stdbool.h>
#include <stdint.h>

#include "lq/board_map.h"
#include "router_regs.h"

/* True if the board information block says a router is mapped. */
bool lq_router_present(void);

static inline uint32_t lq_router_read(uint32_t offset) {
  return router_read((uintptr_t)LQ_ROUTER_BASE, offset);
}

static inline void lq_router_write(uint32_t offset, uint32_t value) {
  router_write((uintptr_t)LQ_ROUTER_BASE, offset, value);
}

/* Makes the shadow bank active (TABLE_SWITCH) and returns the new epoch. */
uint32_t lq_router_switch(void);

/* Switches in the shadow bank (lq_router_switch), e.g. the routes the board
   strapped, and prints what routes now: "routes: MODE, SHAPE AxBxCxD, epoch
   E". False if the router did not take the bank's ROUTE_MODE. */
bool lq_router_switch_in_routes(void);

/* "dor", "updown", "fullmesh", "table", "adaptive"; "?" outside the enum. */
const char* lq_router_mode_name(uint32_t mode);

#endif /* LQ_ROUTER_H_ */
