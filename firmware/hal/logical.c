/* The logical unit's fault queue and fault responses: the head record read
 * word by word and popped; a response staged, then FR_SEND, then
 * CMD_STATUS. */
#include "lq/logical.h"

#include "board_regs.h"
#include "lq/board_info.h"

static void write_wide(uint32_t lo_offset, uint64_t value) {
  lq_logical_write(lo_offset, (uint32_t)value);
  lq_logical_write(lo_offset + 4u, (uint32_t)(value >> 32));
}

static uint32_t fault_word(uint32_t index) {
  return lq_logical_read(LOGICAL_FQ_DATA_INDEX0_OFFSET + 4u * index);
}

bool lq_logical_present(void) {
  return lq_board_info_present() &&
         board_devices_logical_get(lq_board_devices()) != 0;
}

bool lq_logical_take_fault(lq_fault_record_t* record) {
  if (lq_logical_read(LOGICAL_FQ_COUNT_OFFSET) == 0) {
    return false;
  }
  record->ga = (uint64_t)fault_word(1) << 32 | fault_word(0);
  uint32_t who = fault_word(2);
  record->requester = who & 0xffffu;
  record->fault_id = who >> 16;
  uint32_t what = fault_word(3);
  record->access = what & 0xffu;
  record->cause = (what >> 8) & 0xffu;
  record->size = what >> 16;
  record->time_ns = (uint64_t)fault_word(5) << 32 | fault_word(4);
  record->seq = fault_word(6);
  lq_logical_write(LOGICAL_FQ_POP_OFFSET, LOGICAL_FQ_POP_POP_MASK);
  return true;
}

uint32_t lq_logical_answer(const lq_fault_record_t* record, uint32_t status,
                           uint32_t reason, uint64_t pte) {
  uint64_t page_mask = ((uint64_t)1 << lq_logical_page_shift()) - 1u;
  lq_logical_write(LOGICAL_FR_REQUESTER_OFFSET, record->requester);
  lq_logical_write(LOGICAL_FR_FAULT_ID_OFFSET, record->fault_id);
  lq_logical_write(LOGICAL_FR_STATUS_OFFSET, status);
  lq_logical_write(LOGICAL_FR_REASON_OFFSET, reason);
  write_wide(LOGICAL_FR_GA_LO_OFFSET, record->ga & ~page_mask);
  write_wide(LOGICAL_FR_PTE_LO_OFFSET, pte);
  lq_logical_write(LOGICAL_FR_SEND_OFFSET, LOGICAL_FR_SEND_SEND_MASK);
  return logical_cmd_status_result_get(
      lq_logical_read(LOGICAL_CMD_STATUS_OFFSET));
}
