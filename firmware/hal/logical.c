// SPDX-License-Identifier: Apache-2.0
/* The logical unit's fault queue and fault responses, and its mailbox: the
 * head record or message read word by word and popped; a response or
 * message staged, then FR_SEND or MB_SEND, then CMD_STATUS. */
#include "lq/logical.h"

#include "board_regs.h"
#include "lq/board_info.h"

static void write_wide(uint32_t lo_offset, uint64_t value) {
  lq_logical_write(lo_offset, (uint32_t)value);
  lq_logical_write(lo_offset + 4u, (uint32_t)(value >> 32));
}

static uint32_t command_status(void) {
  return logical_cmd_status_result_get(
      lq_logical_read(LOGICAL_CMD_STATUS_OFFSET));
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
  return command_status();
}

uint32_t lq_log_field(const uint8_t* bytes, uint32_t at, uint32_t width) {
  uint32_t value = 0;
  for (uint32_t i = 0; i < width; i++) {
    value = value << 8 | bytes[at + i];
  }
  return value;
}

bool lq_logical_take_mail(lq_mail_t* mail) {
  if (lq_logical_read(LOGICAL_MB_COUNT_OFFSET) == 0) {
    return false;
  }
  uint32_t head = lq_logical_read(LOGICAL_MB_DATA_INDEX0_OFFSET);
  mail->type = head & 0xffu;
  mail->lost = (head >> 8) & 1u;
  mail->from = head >> 16;
  for (uint32_t word = 0; word < LQ_LOG_MAX_BYTES / 4u; word++) {
    uint32_t value = lq_logical_read(LOGICAL_MB_DATA_INDEX1_OFFSET + 4u * word);
    for (uint32_t i = 0; i < 4u; i++) {
      mail->bytes[4u * word + i] = (uint8_t)(value >> (24u - 8u * i));
    }
  }
  lq_logical_write(LOGICAL_MB_POP_OFFSET, LOGICAL_MB_POP_POP_MASK);
  return true;
}

/* Stages `words` (MB_SEND_DATA's layout) for `node` and sends them. */
static uint32_t send_mail(uint32_t node, const uint32_t* words,
                          uint32_t count) {
  lq_logical_write(LOGICAL_MB_SEND_NODE_OFFSET, node);
  for (uint32_t i = 0; i < LOGICAL_MB_SEND_DATA_COUNT; i++) {
    lq_logical_write(LOGICAL_MB_SEND_DATA_INDEX0_OFFSET + 4u * i,
                     i < count ? words[i] : 0);
  }
  lq_logical_write(LOGICAL_MB_SEND_OFFSET, LOGICAL_MB_SEND_SEND_MASK);
  return command_status();
}

uint32_t lq_logical_frame_request(uint32_t node, uint32_t request_id) {
  const uint32_t words[2] = {LQ_LOG_FRAME_ALLOC_REQ << 24,
                             (request_id & 0xffffu) << 16};
  return send_mail(node, words, 2);
}

uint32_t lq_logical_frame_free(uint32_t node, uint32_t frame) {
  const uint32_t words[3] = {LQ_LOG_FRAME_FREE << 24, 0, frame};
  return send_mail(node, words, 3);
}

uint32_t lq_logical_invalidate(uint32_t sharer, uint64_t ga, uint32_t pages) {
  lq_logical_write(LOGICAL_INV_NODE_OFFSET, sharer);
  write_wide(LOGICAL_INV_GA_LO_OFFSET, ga);
  lq_logical_write(LOGICAL_INV_PAGES_OFFSET, pages);
  lq_logical_write(LOGICAL_INV_SEND_OFFSET, LOGICAL_INV_SEND_SEND_MASK);
  return command_status();
}

uint32_t lq_logical_copy(uint64_t src, uint64_t dst, uint32_t bytes,
                         bool migrate) {
  write_wide(LOGICAL_CP_SRC_LO_OFFSET, src);
  write_wide(LOGICAL_CP_DST_LO_OFFSET, dst);
  lq_logical_write(LOGICAL_CP_BYTES_OFFSET, bytes);
  lq_logical_write(LOGICAL_CP_CMD_OFFSET,
                   migrate ? LOGICAL_CP_CMD_MIGRATE : LOGICAL_CP_CMD_COPY);
  return command_status();
}

bool lq_logical_copy_ended(uint32_t* result) {
  uint32_t status = lq_logical_read(LOGICAL_CP_STATUS_OFFSET);
  if (logical_cp_status_done_get(status) == 0) {
    return false;
  }
  *result = logical_cp_status_result_get(status);
  lq_logical_write(LOGICAL_CP_STATUS_OFFSET, LOGICAL_CP_STATUS_DONE_MASK);
  return true;
}

uint32_t lq_logical_frame_response(uint32_t node, uint32_t request_id,
                                   bool granted, uint32_t frame) {
  const uint32_t words[3] = {LQ_LOG_FRAME_ALLOC_RSP << 24 | (granted ? 0u : 1u)
                                                                << 16,
                             (request_id & 0xffffu) << 16, frame};
  return send_mail(node, words, 3);
}
