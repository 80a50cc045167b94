/* page_service: the pages of this card's paged region as one pooled buffer
 * (docs/spec/log.md LOG-5.5, LOG-5.6) over every endpoint of the cluster:
 * page i is homed on member (owner + i) mod endpoints, interleave granule
 * 1, and gets its frame there at first touch. For a page homed here the
 * frame comes from this card's pool; for one homed on another member this
 * card asks that member for a frame (FRAME_ALLOC_REQ) and answers the
 * page's faults when the FRAME_ALLOC_RSP arrives. Every fault answered with
 * the page's first frame is ALLOCATED, every later one MAP, with every
 * right. As a member, the card lends frames of its pool to owners.
 *
 * The pool is the top log.pool_bytes (4 GiB) of the direct region, which
 * LOG-5.6 reserves; frames are never freed, and nothing here zeroes them:
 * they are zero as long as nothing wrote the reserved range directly. A
 * page beyond PAGE_SERVICE_PAGES is REJECT RANGE; one whose member has no
 * frame left, or cannot be reached, REJECT NO_MEMORY; one whose home's
 * connection failed REJECT HOME_LOST (LOG-6.12). Sharers are not tracked:
 * nothing here revokes a page. */
#include "page_service.h"

#include <stdbool.h>

#include "lq/board_info.h"
#include "lq/logical.h"

/* Pages of the paged region this service hands out (-D to change). */
#ifndef PAGE_SERVICE_PAGES
#define PAGE_SERVICE_PAGES 1024u
#endif
/* A page's number is its FRAME_ALLOC_REQ's 16-bit REQ_ID. */
_Static_assert(PAGE_SERVICE_PAGES <= 65536u, "REQ_ID is 16 bits");
#define kMaxNodes 65536u
/* Faults held while their page's frame is being asked for. */
#define kMaxWaiting 32u
#define kPoolShift 32u /* log.pool_bytes = 4 GiB */
#define kOffsetBits 40u

typedef struct {
  uint32_t frame_plus_one; /* 0: no frame yet */
  uint16_t home;
  bool asked; /* FRAME_ALLOC_REQ sent, no answer yet */
} page_t;

static page_t pages[PAGE_SERVICE_PAGES];
static lq_fault_record_t waiting[kMaxWaiting];
static uint32_t lost[kMaxNodes / 32u]; /* nodes whose connection failed */
static uint32_t waiting_count;
static uint32_t next_frame;
static uint32_t pool_end;
static uint32_t page_shift;
static uint64_t direct_bytes;
static uint32_t node;
static uint32_t endpoints;
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
  endpoints = lq_logical_endpoints();
  if (endpoints == 0) {
    endpoints = 1;
  }
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

/* The page of the paged region `record` faulted on, or PAGE_SERVICE_PAGES
   if it lies outside what this service hands out. */
static uint32_t page_of(const lq_fault_record_t* record) {
  uint64_t offset = record->ga & (((uint64_t)1 << kOffsetBits) - 1u);
  if (offset < direct_bytes) {
    return PAGE_SERVICE_PAGES;
  }
  uint64_t page = (offset - direct_bytes) >> page_shift;
  return page < PAGE_SERVICE_PAGES ? (uint32_t)page : PAGE_SERVICE_PAGES;
}

static void answer_mapped(const lq_fault_record_t* record, uint32_t page,
                          bool first) {
  answer(record,
         first ? LOGICAL_FAULT_STATUS_ALLOCATED : LOGICAL_FAULT_STATUS_MAP,
         LOGICAL_REJECT_REASON_NONE,
         lq_logical_pte(pages[page].home, pages[page].frame_plus_one - 1u,
                        LQ_PTE_ALL));
}

static bool is_lost(uint32_t member) {
  return (lost[member / 32u] >> (member % 32u)) & 1u;
}

/* With every waiting slot taken the FAULT interrupt is masked (records
   stay queued in the unit) until a frame's answer frees one. */
static void update_fault_irq(void) {
  uint32_t enable = LOGICAL_IRQ_ENABLE_MAIL_MASK;
  if (waiting_count < kMaxWaiting) {
    enable |= LOGICAL_IRQ_ENABLE_FAULT_MASK;
  }
  lq_logical_write(LOGICAL_IRQ_ENABLE_OFFSET, enable);
}

/* A frame of this card's pool, or false if none is left. */
static bool take_frame(uint32_t* frame) {
  if (next_frame >= pool_end) {
    return false;
  }
  *frame = next_frame++;
  return true;
}

static void frame_arrived(uint32_t member, uint32_t page, bool granted,
                          uint32_t frame);

static void serve(const lq_fault_record_t* record) {
  uint32_t page = page_of(record);
  if (page == PAGE_SERVICE_PAGES) {
    answer(record, LOGICAL_FAULT_STATUS_REJECT, LOGICAL_REJECT_REASON_RANGE, 0);
    return;
  }
  page_t* p = &pages[page];
  if (p->frame_plus_one != 0 && is_lost(p->home)) {
    answer(record, LOGICAL_FAULT_STATUS_REJECT, LOGICAL_REJECT_REASON_HOME_LOST,
           0);
    return;
  }
  if (p->frame_plus_one != 0) {
    answer_mapped(record, page, false);
    return;
  }
  uint32_t member = (node + page) % endpoints;
  if (is_lost(member)) {
    answer(record, LOGICAL_FAULT_STATUS_REJECT, LOGICAL_REJECT_REASON_NO_MEMORY,
           0);
    return;
  }
  if (member == node) {
    uint32_t frame;
    if (!take_frame(&frame)) {
      answer(record, LOGICAL_FAULT_STATUS_REJECT,
             LOGICAL_REJECT_REASON_NO_MEMORY, 0);
      return;
    }
    p->frame_plus_one = frame + 1u;
    p->home = (uint16_t)node;
    stats.allocated++;
    answer_mapped(record, page, true);
    return;
  }
  waiting[waiting_count++] = *record;
  if (!p->asked) {
    p->asked = true;
    if (lq_logical_frame_request(member, page) != LOGICAL_CMD_RESULT_OK) {
      stats.failed++;
      frame_arrived(member, page, false, 0); /* no frame: NO_MEMORY */
    }
  }
}

/* A member's FRAME_ALLOC_RSP for page `page`: the faults waiting for it
   get the frame, or REJECT `reason`. */
static void settle(uint32_t member, uint32_t page, bool granted, uint32_t frame,
                   uint32_t reason) {
  if (page >= PAGE_SERVICE_PAGES || !pages[page].asked) {
    return;
  }
  page_t* p = &pages[page];
  p->asked = false;
  if (granted) {
    p->frame_plus_one = frame + 1u;
    p->home = (uint16_t)member;
    stats.allocated++;
  }
  uint32_t kept = 0;
  for (uint32_t i = 0; i < waiting_count; i++) {
    if (page_of(&waiting[i]) != page) {
      waiting[kept++] = waiting[i];
    } else if (granted) {
      answer_mapped(&waiting[i], page, true);
    } else {
      answer(&waiting[i], LOGICAL_FAULT_STATUS_REJECT, reason, 0);
    }
  }
  waiting_count = kept;
}

static void frame_arrived(uint32_t member, uint32_t page, bool granted,
                          uint32_t frame) {
  if (member == (node + page) % endpoints) { /* from the page's member */
    settle(member, page, granted, frame, LOGICAL_REJECT_REASON_NO_MEMORY);
  }
}

/* LOG-6.12: the connection to `member` failed. Faults waiting for its
   frames fail; its pages fail from now on. */
static void member_lost(uint32_t member) {
  lost[member / 32u] |= 1u << (member % 32u);
  for (uint32_t page = 0; page < PAGE_SERVICE_PAGES; page++) {
    if (pages[page].asked && (node + page) % endpoints == member) {
      settle(member, page, false, 0, LOGICAL_REJECT_REASON_HOME_LOST);
    }
  }
}

static void take_mail(const lq_mail_t* mail) {
  uint32_t request = lq_log_field(mail->bytes, 4, 2);
  switch (mail->type) {
    case LQ_LOG_FRAME_ALLOC_REQ: {
      uint32_t frame = 0;
      bool granted = take_frame(&frame);
      stats.lent += granted ? 1u : 0u;
      if (lq_logical_frame_response(mail->from, request, granted, frame) !=
          LOGICAL_CMD_RESULT_OK) {
        stats.failed++;
      }
      break;
    }
    case LQ_LOG_FRAME_ALLOC_RSP:
      frame_arrived(mail->from, request, mail->bytes[1] == 0,
                    lq_log_field(mail->bytes, 8, 4));
      break;
    case 0: /* no message: the connection to the node failed */
      if (mail->lost && mail->from < kMaxNodes) {
        member_lost(mail->from);
      }
      break;
    default:
      break; /* nothing here sends INVAL_REQ or lends frames back */
  }
}

uint32_t page_service_serve(void) {
  uint32_t served = stats.served;
  lq_mail_t mail;
  while (lq_logical_take_mail(&mail)) {
    take_mail(&mail);
  }
  lq_fault_record_t record;
  /* With every waiting slot taken, records stay queued in the unit. */
  while (waiting_count < kMaxWaiting && lq_logical_take_fault(&record)) {
    serve(&record);
  }
  update_fault_irq();
  return stats.served - served;
}

const page_service_stats_t* page_service_stats(void) { return &stats; }
