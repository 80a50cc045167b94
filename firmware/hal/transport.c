// SPDX-License-Identifier: Apache-2.0
/* The transport engine's commands, doorbells and completion queue: staged
 * registers first, then the command or doorbell write, then CMD_STATUS. */
#include "lq/transport.h"

#include "board_regs.h"
#include "lq/board_info.h"

/* Orders this CPU's memory accesses against the engine's DMA: buffer
   stores before the doorbell that lets the engine read them, and the
   completion read before loads of what the engine wrote. The generated
   accessors are volatile but not compiler barriers, so the compiler could
   otherwise move plain stores past a doorbell. */
static inline void dma_fence(void) { __asm__ volatile("fence" ::: "memory"); }

static uint32_t cmd_result(void) {
  return transport_cmd_status_result_get(
      lq_transport_read(TRANSPORT_CMD_STATUS_OFFSET));
}

static void write_wide(uint32_t lo_offset, uint64_t value) {
  lq_transport_write(lo_offset, (uint32_t)value);
  lq_transport_write(lo_offset + 4u, (uint32_t)(value >> 32));
}

static uint32_t qp_command(uint32_t qpn, uint32_t command, uint32_t to_state) {
  lq_transport_write(TRANSPORT_QP_NUM_OFFSET, transport_qp_num_qpn_set(0, qpn));
  uint32_t cmd = transport_qp_cmd_cmd_set(0, command);
  lq_transport_write(TRANSPORT_QP_CMD_OFFSET,
                     transport_qp_cmd_to_state_set(cmd, to_state));
  return cmd_result();
}

static uint32_t modify(uint32_t qpn, uint32_t to_state) {
  return qp_command(qpn, TRANSPORT_QP_CMD_MODIFY, to_state);
}

/* IBA's PMTU code (1 = 256 B ... 5 = 4096 B); 0, which the MODIFY refuses
   (TRN-5.3), for any other size. */
static uint32_t pmtu_code(uint32_t bytes) {
  uint32_t code = 1;
  for (uint32_t size = 256; size <= 4096; size *= 2, code++) {
    if (size == bytes) {
      return code;
    }
  }
  return 0;
}

bool lq_transport_present(void) {
  return lq_board_info_present() &&
         board_devices_transport_get(lq_board_devices()) != 0;
}

uint32_t lq_transport_qp_create(uint32_t* qpn) {
  lq_transport_write(TRANSPORT_QP_CMD_OFFSET,
                     transport_qp_cmd_cmd_set(0, TRANSPORT_QP_CMD_CREATE));
  uint32_t result = cmd_result();
  *qpn = transport_qp_num_qpn_get(lq_transport_read(TRANSPORT_QP_NUM_OFFSET));
  return result;
}

uint32_t lq_transport_qp_state(uint32_t qpn) {
  lq_transport_write(TRANSPORT_QP_NUM_OFFSET, transport_qp_num_qpn_set(0, qpn));
  return transport_qp_state_state_get(
      lq_transport_read(TRANSPORT_QP_STATE_OFFSET));
}

uint32_t lq_transport_qp_to_init(uint32_t qpn, uint32_t access) {
  uint32_t qp_access = 0;
  qp_access = transport_qp_access_remote_write_set(
      qp_access, (access & LQ_TRANSPORT_REMOTE_WRITE) != 0);
  qp_access = transport_qp_access_remote_read_set(
      qp_access, (access & LQ_TRANSPORT_REMOTE_READ) != 0);
  qp_access = transport_qp_access_remote_atomic_set(
      qp_access, (access & LQ_TRANSPORT_REMOTE_ATOMIC) != 0);
  lq_transport_write(TRANSPORT_QP_ACCESS_OFFSET, qp_access);
  return modify(qpn, TRANSPORT_STATE_INIT);
}

uint32_t lq_transport_qp_to_rtr(uint32_t qpn, const lq_transport_rtr_t* rtr) {
  lq_transport_write(TRANSPORT_QP_REMOTE_NODE_OFFSET,
                     transport_qp_remote_node_node_set(0, rtr->remote_node));
  lq_transport_write(TRANSPORT_QP_REMOTE_QPN_OFFSET,
                     transport_qp_remote_qpn_qpn_set(0, rtr->remote_qpn));
  lq_transport_write(TRANSPORT_QP_RQ_PSN_OFFSET,
                     transport_qp_rq_psn_psn_set(0, rtr->rq_psn));
  uint32_t path = transport_qp_path_pmtu_set(0, pmtu_code(rtr->pmtu_bytes));
  path = transport_qp_path_min_rnr_timer_set(path, rtr->min_rnr_timer);
  path = transport_qp_path_cc_set(path, rtr->congestion);
  lq_transport_write(TRANSPORT_QP_PATH_OFFSET, path);
  return modify(qpn, TRANSPORT_STATE_RTR);
}

uint32_t lq_transport_qp_to_rts(uint32_t qpn, const lq_transport_rts_t* rts) {
  lq_transport_write(TRANSPORT_QP_SQ_PSN_OFFSET,
                     transport_qp_sq_psn_psn_set(0, rts->sq_psn));
  uint32_t timers = transport_qp_timers_timeout_set(0, rts->timeout_code);
  timers = transport_qp_timers_retry_cnt_set(timers, rts->retry_cnt);
  timers = transport_qp_timers_rnr_retry_set(timers, rts->rnr_retry);
  lq_transport_write(TRANSPORT_QP_TIMERS_OFFSET, timers);
  return modify(qpn, TRANSPORT_STATE_RTS);
}

uint32_t lq_transport_qp_to_error(uint32_t qpn) {
  return modify(qpn, TRANSPORT_STATE_ERROR);
}

uint32_t lq_transport_qp_to_reset(uint32_t qpn) {
  return modify(qpn, TRANSPORT_STATE_RESET);
}

uint32_t lq_transport_qp_destroy(uint32_t qpn) {
  return qp_command(qpn, TRANSPORT_QP_CMD_DESTROY, TRANSPORT_STATE_RESET);
}

uint32_t lq_transport_mr_register(uintptr_t base, uint32_t length,
                                  uint32_t access, uint32_t* rkey) {
  write_wide(TRANSPORT_MR_BASE_LO_OFFSET, base);
  lq_transport_write(TRANSPORT_MR_LENGTH_OFFSET, length);
  uint32_t mr_access = 0;
  mr_access = transport_mr_access_remote_write_set(
      mr_access, (access & LQ_TRANSPORT_REMOTE_WRITE) != 0);
  mr_access = transport_mr_access_remote_read_set(
      mr_access, (access & LQ_TRANSPORT_REMOTE_READ) != 0);
  mr_access = transport_mr_access_remote_atomic_set(
      mr_access, (access & LQ_TRANSPORT_REMOTE_ATOMIC) != 0);
  lq_transport_write(TRANSPORT_MR_ACCESS_OFFSET, mr_access);
  lq_transport_write(TRANSPORT_MR_CMD_OFFSET,
                     transport_mr_cmd_cmd_set(0, TRANSPORT_MR_CMD_REGISTER));
  uint32_t result = cmd_result();
  *rkey = transport_mr_key_rkey_get(lq_transport_read(TRANSPORT_MR_KEY_OFFSET));
  return result;
}

uint32_t lq_transport_mr_deregister(uint32_t rkey) {
  lq_transport_write(TRANSPORT_MR_KEY_OFFSET,
                     transport_mr_key_rkey_set(0, rkey));
  lq_transport_write(TRANSPORT_MR_CMD_OFFSET,
                     transport_mr_cmd_cmd_set(0, TRANSPORT_MR_CMD_DEREGISTER));
  return cmd_result();
}

/* Every staged register is written, since each keeps its value from the
   last work request. */
uint32_t lq_transport_post_send(uint32_t qpn,
                                const lq_transport_send_wr_t* wr) {
  write_wide(TRANSPORT_WR_ID_LO_OFFSET, wr->wr_id);
  uint32_t op = transport_wr_op_kind_set(0, wr->kind);
  op = transport_wr_op_with_imm_set(op, wr->with_imm ? 1 : 0);
  lq_transport_write(TRANSPORT_WR_OP_OFFSET, op);
  lq_transport_write(TRANSPORT_WR_LENGTH_OFFSET, wr->length);
  write_wide(TRANSPORT_WR_LOCAL_LO_OFFSET, wr->local);
  write_wide(TRANSPORT_WR_REMOTE_LO_OFFSET, wr->remote);
  lq_transport_write(TRANSPORT_WR_RKEY_OFFSET, wr->rkey);
  lq_transport_write(TRANSPORT_WR_IMM_OFFSET, wr->imm);
  write_wide(TRANSPORT_WR_COMPARE_LO_OFFSET, wr->compare);
  write_wide(TRANSPORT_WR_SWAP_ADD_LO_OFFSET, wr->swap_add);
  dma_fence();
  lq_transport_write(TRANSPORT_SQ_DOORBELL_OFFSET,
                     transport_sq_doorbell_qpn_set(0, qpn));
  return cmd_result();
}

uint32_t lq_transport_post_recv(uint32_t qpn, uint64_t wr_id, uintptr_t buffer,
                                uint32_t length) {
  write_wide(TRANSPORT_WR_ID_LO_OFFSET, wr_id);
  lq_transport_write(TRANSPORT_WR_LENGTH_OFFSET, length);
  write_wide(TRANSPORT_WR_LOCAL_LO_OFFSET, buffer);
  dma_fence();
  lq_transport_write(TRANSPORT_RQ_DOORBELL_OFFSET,
                     transport_rq_doorbell_qpn_set(0, qpn));
  return cmd_result();
}

bool lq_transport_poll(lq_transport_completion_t* completion) {
  if (transport_cq_count_count_get(
          lq_transport_read(TRANSPORT_CQ_COUNT_OFFSET)) == 0) {
    return false;
  }
  uint32_t qp = lq_transport_read(TRANSPORT_CQE_QP_OFFSET);
  uint32_t status = lq_transport_read(TRANSPORT_CQE_STATUS_OFFSET);
  completion->qpn = transport_cqe_qp_qpn_get(qp);
  completion->receive = transport_cqe_qp_receive_get(qp) != 0;
  completion->status = transport_cqe_status_status_get(status);
  completion->with_imm = transport_cqe_status_with_imm_get(status) != 0;
  uint32_t wr_id_lo = transport_cqe_wr_id_lo_id_get(
      lq_transport_read(TRANSPORT_CQE_WR_ID_LO_OFFSET));
  uint32_t wr_id_hi = transport_cqe_wr_id_hi_id_get(
      lq_transport_read(TRANSPORT_CQE_WR_ID_HI_OFFSET));
  completion->wr_id = ((uint64_t)wr_id_hi << 32) | wr_id_lo;
  completion->byte_len = transport_cqe_byte_len_bytes_get(
      lq_transport_read(TRANSPORT_CQE_BYTE_LEN_OFFSET));
  completion->imm =
      transport_cqe_imm_data_get(lq_transport_read(TRANSPORT_CQE_IMM_OFFSET));
  lq_transport_write(TRANSPORT_CQ_POP_OFFSET, transport_cq_pop_pop_set(0, 1));
  dma_fence();
  return true;
}

void lq_transport_set_irq(bool enabled) {
  lq_transport_write(TRANSPORT_CQ_IRQ_OFFSET,
                     transport_cq_irq_enable_set(0, enabled ? 1u : 0u));
}
