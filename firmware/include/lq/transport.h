// SPDX-License-Identifier: Apache-2.0
/* The card's RoCEv2 transport engine (docs/registers/transport.md,
 * docs/spec/trn.md sections 5-7) through the generated transport_regs.h:
 * queue pairs, memory regions, work requests posted by doorbell and the
 * completion queue. Only a card of a cluster built with transport engines has
 * one (lq_transport_present()). */
#ifndef LQ_TRANSPORT_H_
#define LQ_TRANSPORT_H_

#include <stdbool.h>
#include <stdint.h>

#include "lq/board_map.h"
#include "transport_regs.h"

/* True if the board information block says a transport engine is mapped. */
bool lq_transport_present(void);

static inline uint32_t lq_transport_read(uint32_t offset) {
  return transport_read((uintptr_t)LQ_TRANSPORT_BASE, offset);
}

static inline void lq_transport_write(uint32_t offset, uint32_t value) {
  transport_write((uintptr_t)LQ_TRANSPORT_BASE, offset, value);
}

/* Remote rights, of a QP (QP_ACCESS) or of a memory region (MR_ACCESS);
   or them together. */
#define LQ_TRANSPORT_REMOTE_WRITE 0x1u
#define LQ_TRANSPORT_REMOTE_READ 0x2u
#define LQ_TRANSPORT_REMOTE_ATOMIC 0x4u
#define LQ_TRANSPORT_REMOTE_ALL                           \
  (LQ_TRANSPORT_REMOTE_WRITE | LQ_TRANSPORT_REMOTE_READ | \
   LQ_TRANSPORT_REMOTE_ATOMIC)

/* Work requests and memory regions name bus addresses (docs/board.md): a
   local buffer is a pointer of this CPU's, cast to uintptr_t (RAM at
   0x8000_0000 and up); a remote address is a 64-bit address in the peer's
   map. */

/* The attributes of the INIT -> RTR step (TRN-5.5). */
typedef struct {
  uint32_t remote_node;
  uint32_t remote_qpn;
  uint32_t rq_psn;        /* the first PSN expected: the peer's sq_psn */
  uint32_t pmtu_bytes;    /* 256, 512, 1024, 2048 or 4096 (TRN-6.1) */
  uint32_t min_rnr_timer; /* code of TRN-7.6's table */
  uint32_t congestion;    /* TRANSPORT_CONGESTION_* (TRN-5.8) */
} lq_transport_rtr_t;

/* The attributes of the RTR -> RTS step (TRN-5.5). */
typedef struct {
  uint32_t sq_psn;       /* the first PSN sent */
  uint32_t timeout_code; /* local ACK timeout 4.096 us x 2^code, 0 never */
  uint32_t retry_cnt;    /* 0-7 (TRN-7.5) */
  uint32_t rnr_retry;    /* 0-7, 7 = forever (TRN-7.6) */
} lq_transport_rts_t;

/* TRN-5.5's defaults for a connection to QP remote_qpn of remote_node: PMTU
   4096, rq_psn 0, min_rnr_timer 1 (the reset values of QP_PATH). The
   congestion control is NONE, as QP_PATH resets (QP_PATH.CC names one of
   the three explicitly; there is no "engine default" code). */
static inline lq_transport_rtr_t lq_transport_rtr_defaults(
    uint32_t remote_node, uint32_t remote_qpn) {
  lq_transport_rtr_t rtr = {
      .remote_node = remote_node,
      .remote_qpn = remote_qpn,
      .rq_psn = 0,
      .pmtu_bytes = 4096,
      .min_rnr_timer = TRANSPORT_QP_PATH_MIN_RNR_TIMER_RESET,
      .congestion = TRANSPORT_QP_PATH_CC_RESET,
  };
  return rtr;
}

/* TRN-5.5's defaults: sq_psn 0, timeout 8 (1.05 ms), retry_cnt 7,
   rnr_retry 7 (the reset values of QP_TIMERS). */
static inline lq_transport_rts_t lq_transport_rts_defaults(void) {
  lq_transport_rts_t rts = {
      .sq_psn = 0,
      .timeout_code = TRANSPORT_QP_TIMERS_TIMEOUT_RESET,
      .retry_cnt = TRANSPORT_QP_TIMERS_RETRY_CNT_RESET,
      .rnr_retry = TRANSPORT_QP_TIMERS_RNR_RETRY_RESET,
  };
  return rts;
}

/* Queue pairs (TRN-5.1, TRN-5.7). Each command returns CMD_STATUS.RESULT:
   TRANSPORT_CMD_RESULT_OK, _NO_SUCH (no such QP) or _REFUSED (a transition
   or attribute TRN-5.3 rejects, a QP that cannot be destroyed yet).
   Attribute values are cut to their fields' widths, since a 1 written to a
   reserved bit would be a bus error. */

/* Creates a QP in RESET and writes its QPN (2 upward, TRN-5.4) to *qpn. */
uint32_t lq_transport_qp_create(uint32_t* qpn);

/* The QP's state, TRANSPORT_STATE_*; RESET for one that does not exist. */
uint32_t lq_transport_qp_state(uint32_t qpn);

/* RESET -> INIT, granting the peer access (LQ_TRANSPORT_REMOTE_* bits). */
uint32_t lq_transport_qp_to_init(uint32_t qpn, uint32_t access);
uint32_t lq_transport_qp_to_rtr(uint32_t qpn, const lq_transport_rtr_t* rtr);
uint32_t lq_transport_qp_to_rts(uint32_t qpn, const lq_transport_rts_t* rts);
/* Outstanding work requests complete with FLUSH_ERR (TRN-5.2). */
uint32_t lq_transport_qp_to_error(uint32_t qpn);
/* Outstanding work requests are discarded without completions (TRN-5.2). */
uint32_t lq_transport_qp_to_reset(uint32_t qpn);
/* The QP must be in RESET or ERROR with no work request outstanding. */
uint32_t lq_transport_qp_destroy(uint32_t qpn);

/* Memory regions (TRN-6.14): registers length bytes at bus address base
   with the remote rights access (LQ_TRANSPORT_REMOTE_*) and writes the
   region's R_Key (never 0; a node's first is 0x100) to *rkey. */
uint32_t lq_transport_mr_register(uintptr_t base, uint32_t length,
                                  uint32_t access, uint32_t* rkey);
uint32_t lq_transport_mr_deregister(uint32_t rkey);

/* A send work request (TRN-5.2, TRN-6). */
typedef struct {
  uint64_t wr_id;  /* returned by its completion */
  uint32_t kind;   /* TRANSPORT_WR_KIND_* */
  uint32_t length; /* bytes; 8 for an atomic */
  uintptr_t local; /* the bytes to send, or where READ data or an atomic's
                      original value (8 bytes, little-endian) goes */
  uint64_t remote; /* WRITE, READ, atomics: the peer's address */
  uint32_t rkey;   /* WRITE, READ, atomics: the peer's region */
  bool with_imm;   /* SEND or WRITE with immediate data imm */
  uint32_t imm;
  uint64_t compare;  /* COMPARE_SWAP */
  uint64_t swap_add; /* COMPARE_SWAP's swap value, FETCH_ADD's addend */
} lq_transport_send_wr_t;

/* Posts wr on the QP's send queue (RTS only; in ERROR it completes with
   FLUSH_ERR). The buffer must hold its bytes already: the engine reads it
   by DMA from the doorbell on. Returns the CMD_STATUS result. */
uint32_t lq_transport_post_send(uint32_t qpn, const lq_transport_send_wr_t* wr);

/* Posts a receive work request for one incoming SEND of at most length
   bytes into buffer (INIT or later). Returns the CMD_STATUS result. */
uint32_t lq_transport_post_recv(uint32_t qpn, uint64_t wr_id, uintptr_t buffer,
                                uint32_t length);

/* A completion (the CQE registers). */
typedef struct {
  uint32_t qpn;
  bool receive;    /* of a receive work request */
  uint32_t status; /* TRANSPORT_WC_STATUS_* */
  uint64_t wr_id;
  uint32_t byte_len; /* receive: bytes placed */
  bool with_imm;     /* receive: imm holds the SEND's immediate data */
  uint32_t imm;
} lq_transport_completion_t;

/* Takes the oldest completion into *completion and pops it; false if none
   is waiting. After a true return, memory the work request filled by DMA
   may be read. */
bool lq_transport_poll(lq_transport_completion_t* completion);

/* CQ_IRQ.ENABLE: with it set, PLIC source LQ_IRQ_TRANSPORT_COMPLETION is
   raised while a completion waits (a level: a handler pops them or clears
   the enable before it returns). */
void lq_transport_set_irq(bool enabled);

/* Names of the codes, for the console, come with the generated header:
   transport_cmd_result_name(), transport_state_name(),
   transport_wr_kind_name(), transport_wc_status_name(). */

#endif /* LQ_TRANSPORT_H_ */
