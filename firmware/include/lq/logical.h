// SPDX-License-Identifier: Apache-2.0
/* The card's logical unit (docs/registers/logical.md, docs/spec/log.md
 * sections 5 to 7) through the generated logical_regs.h: the fault queue a
 * page's owner serves, fault responses, PTEs, and the mailbox through which
 * owners and pool members exchange FRAME_* messages. Only a card of a
 * cluster built with logical units has one (lq_logical_present()). */
#ifndef LQ_LOGICAL_H_
#define LQ_LOGICAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "logical_regs.h"
#include "lq/board_map.h"

/* True if the board information block says a logical unit is mapped. */
bool lq_logical_present(void);

static inline uint32_t lq_logical_read(uint32_t offset) {
  return logical_read((uintptr_t)LQ_LOGICAL_UNIT_BASE, offset);
}

static inline void lq_logical_write(uint32_t offset, uint32_t value) {
  logical_write((uintptr_t)LQ_LOGICAL_UNIT_BASE, offset, value);
}

/* A fault record (LOG-6.3), as FQ_DATA0-7 give it. */
typedef struct {
  uint64_t ga; /* the access's first byte */
  uint32_t requester;
  uint32_t fault_id;
  uint32_t access; /* 0 load, 1 store, 2 atomic */
  uint32_t cause;  /* 1 NOT_MAPPED ... 5 MIGRATING */
  uint32_t size;
  uint64_t time_ns; /* arrival at this owner */
  uint32_t seq;
} lq_fault_record_t;

/* PTE rights (LOG-5.3); or them together. */
#define LQ_PTE_READ 0x2u
#define LQ_PTE_WRITE 0x4u
#define LQ_PTE_ATOMIC 0x8u
#define LQ_PTE_ALL (LQ_PTE_READ | LQ_PTE_WRITE | LQ_PTE_ATOMIC)

/* A valid PTE for frame `frame` of node `home` with `rights`. */
static inline uint64_t lq_logical_pte(uint32_t home, uint32_t frame,
                                      uint32_t rights) {
  return (uint64_t)frame << 32 | (uint64_t)(home & 0xffffu) << 16 |
         (rights & LQ_PTE_ALL) | 1u;
}

/* Takes the head of the fault queue into *record and pops it; false if
   the queue was empty. */
bool lq_logical_take_fault(lq_fault_record_t* record);

/* Answers `record` (LOG-6.4) with STATUS `status` (LOGICAL_FAULT_STATUS_*),
   REASON `reason` (LOGICAL_REJECT_REASON_*, NONE unless REJECT) and `pte`
   for the page of record->ga; returns CMD_STATUS's RESULT. */
uint32_t lq_logical_answer(const lq_fault_record_t* record, uint32_t status,
                           uint32_t reason, uint64_t pte);

/* log2 of the page size, the cluster's endpoints, and the frames of the
   direct region. */
static inline uint32_t lq_logical_page_shift(void) {
  return logical_space_page_shift_get(lq_logical_read(LOGICAL_SPACE_OFFSET));
}
static inline uint32_t lq_logical_endpoints(void) {
  return logical_space_endpoints_get(lq_logical_read(LOGICAL_SPACE_OFFSET));
}
static inline uint32_t lq_logical_direct_frames(void) {
  return lq_logical_read(LOGICAL_DIRECT_FRAMES_OFFSET);
}

/* LOG-6.10's TYPE codes of the messages the mailbox carries. */
#define LQ_LOG_INVAL_ACK 4u
#define LQ_LOG_FRAME_ALLOC_REQ 5u
#define LQ_LOG_FRAME_ALLOC_RSP 6u
#define LQ_LOG_FRAME_FREE 7u
#define LQ_LOG_MAX_BYTES 24u

/* A mailbox message: its TYPE, the node it came from, whether it reports a
   sharer lost instead of an INVAL_ACK, and its bytes (LOG-6.10's layout,
   big-endian fields). */
typedef struct {
  uint32_t type;
  uint32_t from;
  bool lost;
  uint8_t bytes[LQ_LOG_MAX_BYTES];
} lq_mail_t;

/* Takes the head of the mailbox into *mail and pops it; false if empty. */
bool lq_logical_take_mail(lq_mail_t* mail);

/* A big-endian field of `width` bytes at `at` of a message. */
uint32_t lq_log_field(const uint8_t* bytes, uint32_t at, uint32_t width);

/* FRAME_ALLOC_REQ to pool member `node`, and the member's FRAME_ALLOC_RSP
   (LOG-5.6); each returns CMD_STATUS's RESULT. */
uint32_t lq_logical_frame_request(uint32_t node, uint32_t request_id);
uint32_t lq_logical_frame_response(uint32_t node, uint32_t request_id,
                                   bool granted, uint32_t frame);
/* FRAME_FREE of `frame` back to its member `node` (LOG-6.9). */
uint32_t lq_logical_frame_free(uint32_t node, uint32_t frame);

/* GA of byte `offset` of `node`'s window (LOG-2.1). */
static inline uint64_t lq_logical_ga(uint32_t node, uint64_t offset) {
  return (uint64_t)(node & 0xffffu) << 40 | offset;
}

/* INVAL_REQ for `pages` pages from `ga`'s to `sharer` (LOG-6.8); its
   INVAL_ACK arrives in the mailbox. Returns CMD_STATUS's RESULT. */
uint32_t lq_logical_invalidate(uint32_t sharer, uint64_t ga, uint32_t pages);

/* LOG-6.13: starts copying `bytes` from `src` to `dst` (GAs of direct
   regions), as a MIGRATE if `migrate`; returns CMD_STATUS's RESULT. */
uint32_t lq_logical_copy(uint64_t src, uint64_t dst, uint32_t bytes,
                         bool migrate);
/* If a copy has ended: clears CP_STATUS.DONE, stores how it ended
   (LOGICAL_COPY_RESULT_*) in *result and returns true. */
bool lq_logical_copy_ended(uint32_t* result);

#endif /* LQ_LOGICAL_H_ */
