// SPDX-License-Identifier: Apache-2.0
/* Reads of the board information block through the generated board_regs.h. */
#include "lq/board_info.h"

#include "board_regs.h"
#include "lq/board_map.h"

static uint32_t read_register(uint32_t offset) {
  return board_read(LQ_BOARD_INFO_BASE, offset);
}

bool lq_board_info_present(void) {
  return board_id_magic_get(lq_board_id()) == BOARD_ID_MAGIC_RESET;
}

uint32_t lq_board_id(void) { return read_register(BOARD_ID_OFFSET); }

uint32_t lq_board_node_id(void) {
  return board_node_id_id_get(read_register(BOARD_NODE_ID_OFFSET));
}

uint32_t lq_board_port_count(void) {
  return board_ports_count_get(read_register(BOARD_PORTS_OFFSET));
}

bool lq_board_port_cabled(uint32_t port) {
  return port < 32 &&
         ((board_cabled_ports_get(read_register(BOARD_CABLED_OFFSET)) >> port) &
          1u) != 0;
}

uint32_t lq_board_cpu_khz(void) {
  return board_cpu_freq_khz_get(read_register(BOARD_CPU_FREQ_OFFSET));
}

uint32_t lq_board_mtime_hz(void) {
  return board_mtime_freq_hz_get(read_register(BOARD_MTIME_FREQ_OFFSET));
}

uint32_t lq_board_devices(void) { return read_register(BOARD_DEVICES_OFFSET); }

uint32_t lq_board_scratch(void) {
  return board_scratch_value_get(read_register(BOARD_SCRATCH_OFFSET));
}

void lq_board_set_scratch(uint32_t value) {
  board_write(LQ_BOARD_INFO_BASE, BOARD_SCRATCH_OFFSET,
              board_scratch_value_set(0, value));
}
