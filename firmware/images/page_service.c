/* page_service: first-touch allocation of the pages of this card's paged
 * region. Page i of the region gets the next free pool frame the first time
 * any node faults on it (ALLOCATED) and that frame at every later fault
 * (MAP), always homed here and with every right. The pool is the top
 * log.pool_bytes (4 GiB) of the direct region (LOG-5.6); frames are never
 * reused, so they are still zero when allocated. A page beyond
 * PAGE_SERVICE_PAGES is REJECT RANGE; one that finds the pool empty is
 * REJECT NO_MEMORY. Sharers are not tracked: nothing here revokes a page. */
#include "page_service.h"

#include <stdbool.h>

#include "lq/board_info.h"
#include "lq/logical.h"

/* Pages of the paged region this service hands out (-D to change). */
#ifndef PAGE_SERVICE_PAGES
#define PAGE_SERVICE_PAGES 1024u
#endif
#define kPoolShift 32u /* log.pool_bytes = 4 GiB */
#define kOffsetBits 40u

static uint32_t frame_of[PAGE_SERVICE_PAGES]; /* frame + 1; 0: none yet */
static uint32_t next_frame;
static uint32_t pool_end;
static uint32_t page_shift;
static uint64_t direct_bytes;
static uint32_t node;
static page_service_stats_t stats;

void page_service_init(void) {
  page_shift = lq_logical_page_shift();
  uint32_t frames = lq_logical_direct_frames();
  direct_bytes = (uint64_t)frames << page_shift;
  uint32_t pool_frames =
      page_shift >= kPoolShift ? 1u : 1u << (kPoolShift - page_shift);
  next_frame = pool_frames < frames ? frames - pool_frames : 0;
  pool_end = frames;
  node = lq_board_node_id();
}

static void answer(const lq_fault_record_t* record, uint32_t status,
                   uint32_t reason, uint64_t pte) {
  if (lq_logical_answer(record, status, reason, pte) != LOGICAL_CMD_RESULT_OK) {
    stats.failed++;
  }
  stats.served++;
  if (status == LOGICAL_FAULT_STATUS_REJECT) {
    stats.rejected++;
  }
}

static void serve(const lq_fault_record_t* record) {
  uint64_t offset = record->ga & (((uint64_t)1 << kOffsetBits) - 1u);
  uint64_t page = (offset - direct_bytes) >> page_shift;
  if (offset < direct_bytes || page >= PAGE_SERVICE_PAGES) {
    answer(record, LOGICAL_FAULT_STATUS_REJECT, LOGICAL_REJECT_REASON_RANGE, 0);
    return;
  }
  bool first = frame_of[page] == 0;
  if (first) {
    if (next_frame >= pool_end) {
      answer(record, LOGICAL_FAULT_STATUS_REJECT,
             LOGICAL_REJECT_REASON_NO_MEMORY, 0);
      return;
    }
    frame_of[page] = ++next_frame;
    stats.allocated++;
  }
  answer(record,
         first ? LOGICAL_FAULT_STATUS_ALLOCATED : LOGICAL_FAULT_STATUS_MAP,
         LOGICAL_REJECT_REASON_NONE,
         lq_logical_pte(node, frame_of[page] - 1u, LQ_PTE_ALL));
}

uint32_t page_service_serve(void) {
  uint32_t served = 0;
  lq_fault_record_t record;
  while (lq_logical_take_fault(&record)) {
    serve(&record);
    served++;
  }
  return served;
}

const page_service_stats_t* page_service_stats(void) { return &stats; }
