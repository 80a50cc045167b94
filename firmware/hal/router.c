/* The router's registers: presence, bank switch and mode names. */
#include "lq/router.h"

#include "board_regs.h"
#include "lq/board_info.h"

bool lq_router_present(void) {
  return lq_board_info_present() &&
         board_devices_router_get(
             board_read(LQ_BOARD_INFO_BASE, BOARD_DEVICES_OFFSET)) != 0;
}

uint32_t lq_router_switch(void) {
  lq_router_write(ROUTER_TABLE_SWITCH_OFFSET,
                  router_table_switch_apply_set(0, 1));
  return router_epoch_epoch_get(lq_router_read(ROUTER_EPOCH_OFFSET));
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
