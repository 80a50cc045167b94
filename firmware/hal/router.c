// SPDX-License-Identifier: Apache-2.0
/* The router's registers: presence, bank switch and mode names. */
#include "lq/router.h"

#include <stdio.h>

#include "board_regs.h"
#include "lq/board_info.h"

bool lq_router_present(void) {
  return lq_board_info_present() &&
         board_devices_router_get(lq_board_devices()) != 0;
}

uint32_t lq_router_switch(void) {
  lq_router_write(ROUTER_TABLE_SWITCH_OFFSET,
                  router_table_switch_apply_set(0, 1));
  return router_epoch_epoch_get(lq_router_read(ROUTER_EPOCH_OFFSET));
}

bool lq_router_switch_in_routes(void) {
  uint32_t wanted =
      router_route_mode_mode_get(lq_router_read(ROUTER_ROUTE_MODE_OFFSET));
  uint32_t shape = lq_router_read(ROUTER_SHAPE_OFFSET);
  uint32_t epoch = lq_router_switch();
  uint32_t active =
      router_route_mode_active_get(lq_router_read(ROUTER_ROUTE_MODE_OFFSET));
  printf("routes: %s, SHAPE %lux%lux%lux%lu, epoch %lu\n",
         lq_router_mode_name(active),
         (unsigned long)router_shape_size0_get(shape),
         (unsigned long)router_shape_size1_get(shape),
         (unsigned long)router_shape_size2_get(shape),
         (unsigned long)router_shape_size3_get(shape), (unsigned long)epoch);
  return active == wanted;
}

const char* lq_router_mode_name(uint32_t mode) {
  switch (mode) {
    case ROUTER_ROUTE_MODE_DOR:
      return "dor";
    case ROUTER_ROUTE_MODE_UPDOWN:
      return "updown";
    case ROUTER_ROUTE_MODE_FULLMESH:
      return "fullmesh";
    case ROUTER_ROUTE_MODE_TABLE:
      return "table";
    case ROUTER_ROUTE_MODE_ADAPTIVE:
      return "adaptive";
    default:
      return "?";
  }
}
