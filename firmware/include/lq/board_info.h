// SPDX-License-Identifier: Apache-2.0
/* The board information block at 0x0010_1000 (docs/registers/board.md): node
 * id, port count, which ports have a cable, clock rates, the optional devices
 * and a scratch register. */
#ifndef LQ_BOARD_INFO_H_
#define LQ_BOARD_INFO_H_

#include <stdbool.h>
#include <stdint.h>

/* True if the block's ID reads the "BD" magic. QEMU's virt machine has a
   real-time clock at this address instead, so images that must also run
   there check this before they trust the other fields. */
bool lq_board_info_present(void);

uint32_t lq_board_id(void); /* the raw ID register */
uint32_t lq_board_node_id(void);
uint32_t lq_board_port_count(void);
/* Whether `port` has a cable (CABLED, NET-1.5): one without stays disabled. */
bool lq_board_port_cabled(uint32_t port);
uint32_t lq_board_cpu_khz(void);
uint32_t lq_board_mtime_hz(void);
/* The raw DEVICES register: which optional blocks the address map holds
   (board_devices_router_get, board_devices_transport_get). */
uint32_t lq_board_devices(void);
uint32_t lq_board_scratch(void);
void lq_board_set_scratch(uint32_t value);

#endif /* LQ_BOARD_INFO_H_ */
