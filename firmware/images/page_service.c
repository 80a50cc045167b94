// SPDX-License-Identifier: Apache-2.0
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
 * Pages move to their writers (LOG-6.9): a store fault from a node other
 * than the page's home, once the page has stayed where it is for
 * PAGE_SERVICE_MIGRATE_HOLD_US, moves the page to that node. This card asks
 * that node for a frame, invalidates every node it gave the page to, has
 * its logical unit copy the frame (MIGRATE, LOG-6.13), answers the faults
 * held meanwhile MIGRATED and sends the old frame back with FRAME_FREE.
 * One page moves at a time; while one does, other store faults are
 * answered MAP. Up to kMaxSharers sharers are remembered per page; beyond
 * that, a move invalidates every endpoint.
 *
 * The pool is the top log.pool_bytes (4 GiB) of the direct region, which
 * LOG-5.6 reserves. Nothing here zeroes a frame: a frame is zero as long
 * as nothing wrote the reserved range directly. So a frame given back by
 * FRAME_FREE is counted but never handed out again. A page beyond
 * PAGE_SERVICE_PAGES is REJECT RANGE; one whose member has no frame left,
 * or cannot be reached, REJECT NO_MEMORY; one whose home's connection
 * failed REJECT HOME_LOST (LOG-6.12). */
#include "page_service.h"

#include <stdbool.h>

#include "lq/board_info.h"
#include "lq/clint.h"
#include "lq/logical.h"

/* Pages of the paged region this service hands out (-D to change). */
#ifndef PAGE_SERVICE_PAGES
#define PAGE_SERVICE_PAGES 1024u
#endif
/* How long a page stays at a home before a store may move it (LOG-6.9). */
#ifndef PAGE_SERVICE_MIGRATE_HOLD_US
#define PAGE_SERVICE_MIGRATE_HOLD_US 100u
#endif
/* A page's number is its FRAME_ALLOC_REQ's 16-bit REQ_ID. */
_Static_assert(PAGE_SERVICE_PAGES <= 65536u, "REQ_ID is 16 bits");
#define kMaxNodes 65536u
/* Faults held while their page's frame is being asked for. */
#define kMaxWaiting 32u
#define kPoolShift 32u /* log.pool_bytes = 4 GiB */
#define kOffsetBits 40u
#define kStore 1u /* a fault record's ACCESS */
/* Sharers remembered per page; one more means "too many to list". */
#define kMaxSharers 8u

typedef struct {
  uint32_t frame_plus_one; /* 0: no frame yet */
  uint16_t home;
  bool asked;           /* FRAME_ALLOC_REQ sent, no answer yet */
  uint8_t sharer_count; /* kMaxSharers + 1: every endpoint may share */
  uint16_t sharers[kMaxSharers];
  uint64_t placed_at; /* mtime when it got its present frame */
} page_t;

/* The page on the move (LOG-6.9), if `active`. */
static struct {
  bool active;
  bool copying; /* the unit's MIGRATE runs */
  bool doomed;  /* ends without moving once the acks are in */
  uint32_t page;
  uint32_t target;         /* the new home */
  uint32_t frame_plus_one; /* 0 until the target grants one */
  uint32_t acks_due;       /* INVAL_ACKs still to come */
} move;

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
static uint64_t hold_ticks;
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
  hold_ticks =
      (uint64_t)PAGE_SERVICE_MIGRATE_HOLD_US * lq_board_mtime_hz() / 1000000u;
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

/* The page of this card's paged region that `ga` falls in, or
   PAGE_SERVICE_PAGES if it lies outside what this service hands out. */
static uint32_t page_of(uint64_t ga) {
  uint64_t offset = ga & (((uint64_t)1 << kOffsetBits) - 1u);
  if (offset < direct_bytes) {
    return PAGE_SERVICE_PAGES;
  }
  uint64_t page = (offset - direct_bytes) >> page_shift;
  return page < PAGE_SERVICE_PAGES ? (uint32_t)page : PAGE_SERVICE_PAGES;
}

static void note_sharer(page_t* p, uint32_t requester) {
  for (uint32_t i = 0; i < p->sharer_count && i < kMaxSharers; i++) {
    if (p->sharers[i] == requester) {
      return;
    }
  }
  if (p->sharer_count < kMaxSharers) {
    p->sharers[p->sharer_count] = (uint16_t)requester;
  }
  if (p->sharer_count <= kMaxSharers) {
    p->sharer_count++;
  }
}

/* Answers `record` with the page's PTE, every right (`status`: MAP,
   ALLOCATED or MIGRATED), and remembers the requester as a sharer. */
static void answer_mapped(const lq_fault_record_t* record, uint32_t page,
                          uint32_t status) {
  page_t* p = &pages[page];
  note_sharer(p, record->requester);
  answer(record, status, LOGICAL_REJECT_REASON_NONE,
         lq_logical_pte(p->home, p->frame_plus_one - 1u, LQ_PTE_ALL));
}

/* A new frame for page `page`: `frame` of `home`, from now. */
static void place(uint32_t page, uint32_t home, uint32_t frame) {
  page_t* p = &pages[page];
  p->frame_plus_one = frame + 1u;
  p->home = (uint16_t)home;
  p->sharer_count = 0;
  p->placed_at = lq_clint_mtime();
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
  if (move.copying) {
    enable |= LOGICAL_IRQ_ENABLE_COPY_MASK;
  }
  lq_logical_write(LOGICAL_IRQ_ENABLE_OFFSET, enable);
}

/* Answers every fault waiting for page `page`: with its PTE and `status`
   if `status` is not REJECT, else REJECT `reason`. */
static void release(uint32_t page, uint32_t status, uint32_t reason) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < waiting_count; i++) {
    if (page_of(waiting[i].ga) != page) {
      waiting[kept++] = waiting[i];
    } else if (status != LOGICAL_FAULT_STATUS_REJECT) {
      answer_mapped(&waiting[i], page, status);
    } else {
      answer(&waiting[i], status, reason, 0);
    }
  }
  waiting_count = kept;
}

/* A frame of this card's pool, or false if none is left. */
static bool take_frame(uint32_t* frame) {
  if (next_frame >= pool_end) {
    return false;
  }
  *frame = next_frame++;
  return true;
}

/* ---------------------------------------------------------------------
 * Moving a page to its writer (LOG-6.9). A move ends, moved or not, only
 * once every INVAL_ACK it asked for is in (each INVAL_REQ brings exactly
 * one, or the news that the sharer's connection failed), so that no
 * acknowledgement outlives its move. */

/* GA of page `page` of this card's paged region: what sharers map. */
static uint64_t paged_ga(uint32_t page) {
  return lq_logical_ga(node, direct_bytes + ((uint64_t)page << page_shift));
}

static uint64_t frame_ga(uint32_t home, uint32_t frame) {
  return lq_logical_ga(home, (uint64_t)frame << page_shift);
}

/* Gives `frame` back to `home` (FRAME_FREE); this card's own is kept. */
static void free_frame(uint32_t home, uint32_t frame) {
  if (home == node) {
    stats.freed++;
  } else if (lq_logical_frame_free(home, frame) != LOGICAL_CMD_RESULT_OK) {
    stats.failed++;
  }
}

/* The page stays: the faults held for the move get it where it is, or
   HOME_LOST if its home has gone; the target gets its frame back. */
static void abandon_move(void) {
  move.active = false;
  move.copying = false;
  if (move.frame_plus_one != 0 && !is_lost(move.target)) {
    free_frame(move.target, move.frame_plus_one - 1u);
  }
  stats.moves_abandoned++;
  if (is_lost(pages[move.page].home)) {
    release(move.page, LOGICAL_FAULT_STATUS_REJECT,
            LOGICAL_REJECT_REASON_HOME_LOST);
  } else {
    release(move.page, LOGICAL_FAULT_STATUS_MAP, LOGICAL_REJECT_REASON_NONE);
  }
}

/* Every sharer has let go of the page: the unit copies its frame. */
static void copy_frame(void) {
  if (move.doomed) {
    abandon_move();
    return;
  }
  page_t* p = &pages[move.page];
  if (lq_logical_copy(frame_ga(p->home, p->frame_plus_one - 1u),
                      frame_ga(move.target, move.frame_plus_one - 1u),
                      1u << page_shift, true) != LOGICAL_CMD_RESULT_OK) {
    stats.failed++;
    abandon_move();
    return;
  }
  move.copying = true;
}

/* The target's frame is known: invalidate every sharer (LOG-5.9). One
   that cannot be asked might keep the page, which then stays. */
static void invalidate_sharers(void) {
  page_t* p = &pages[move.page];
  bool everyone = p->sharer_count > kMaxSharers;
  uint32_t count = everyone ? endpoints : p->sharer_count;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t sharer = everyone ? i : p->sharers[i];
    if (is_lost(sharer)) {
      continue;
    }
    uint32_t result = lq_logical_invalidate(sharer, paged_ga(move.page), 1);
    if (result == LOGICAL_CMD_RESULT_OK) {
      move.acks_due++;
    } else {
      stats.failed++;
      move.doomed = true;
    }
  }
  if (move.acks_due == 0) {
    copy_frame();
  }
}

/* A store fault from a node other than the page's home, on a page that has
   stayed put for the hold time, with nothing else moving: the page starts
   moving to the writer, and `record` waits for it. False if it stays. */
static bool start_move(const lq_fault_record_t* record, uint32_t page) {
  page_t* p = &pages[page];
  if (move.active || record->access != kStore || record->requester == p->home ||
      record->requester >= endpoints || is_lost(record->requester) ||
      lq_clint_mtime() - p->placed_at < hold_ticks) {
    return false;
  }
  move.active = true;
  move.copying = false;
  move.doomed = false;
  move.page = page;
  move.target = record->requester;
  move.frame_plus_one = 0;
  move.acks_due = 0;
  waiting[waiting_count++] = *record;
  if (move.target == node) {
    uint32_t frame;
    if (!take_frame(&frame)) {
      abandon_move();
      return true;
    }
    move.frame_plus_one = frame + 1u;
    invalidate_sharers();
  } else if (lq_logical_frame_request(move.target, page) !=
             LOGICAL_CMD_RESULT_OK) {
    stats.failed++;
    abandon_move();
  }
  return true;
}

/* The target's FRAME_ALLOC_RSP for the page on the move. */
static void move_frame_arrived(bool granted, uint32_t frame) {
  if (!granted) {
    abandon_move();
    return;
  }
  move.frame_plus_one = frame + 1u;
  invalidate_sharers();
}

/* An INVAL_ACK (or its sharer's loss) for page `page`. */
static void move_acknowledged(uint32_t page) {
  if (move.active && move.page == page && move.acks_due > 0 &&
      --move.acks_due == 0) {
    copy_frame();
  }
}

/* The unit's MIGRATE ended with `result`: the page lives on the target
   from now, its held faults are answered MIGRATED and the old frame goes
   back to its member. */
static void move_copied(uint32_t result) {
  move.copying = false;
  if (result != LOGICAL_COPY_RESULT_OK || is_lost(move.target)) {
    abandon_move();
    return;
  }
  page_t* p = &pages[move.page];
  uint32_t old_home = p->home;
  uint32_t old_frame = p->frame_plus_one - 1u;
  place(move.page, move.target, move.frame_plus_one - 1u);
  move.active = false;
  stats.migrated++;
  free_frame(old_home, old_frame);
  release(move.page, LOGICAL_FAULT_STATUS_MIGRATED, LOGICAL_REJECT_REASON_NONE);
}

/* LOG-6.12 during a move: the target's connection failed. */
static void move_target_lost(void) {
  if (move.copying) {
    return; /* the copy ends UNREACHABLE */
  }
  if (move.acks_due > 0) {
    move.doomed = true;
  } else {
    abandon_move(); /* its frame was still being asked for */
  }
}

/* ------------------------------------------------------------------ */

static void frame_arrived(uint32_t member, uint32_t page, bool granted,
                          uint32_t frame);

static void serve(const lq_fault_record_t* record) {
  uint32_t page = page_of(record->ga);
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
    if (move.active && move.page == page) {
      waiting[waiting_count++] = *record; /* answered when it has moved */
    } else if (!start_move(record, page)) {
      answer_mapped(record, page, LOGICAL_FAULT_STATUS_MAP);
    }
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
    place(page, node, frame);
    stats.allocated++;
    answer_mapped(record, page, LOGICAL_FAULT_STATUS_ALLOCATED);
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
  pages[page].asked = false;
  if (granted) {
    place(page, member, frame);
    stats.allocated++;
  }
  release(
      page,
      granted ? LOGICAL_FAULT_STATUS_ALLOCATED : LOGICAL_FAULT_STATUS_REJECT,
      reason);
}

static void frame_arrived(uint32_t member, uint32_t page, bool granted,
                          uint32_t frame) {
  if (page >= PAGE_SERVICE_PAGES) {
    return;
  }
  if (pages[page].asked && member == (node + page) % endpoints) {
    settle(member, page, granted, frame, LOGICAL_REJECT_REASON_NO_MEMORY);
  } else if (move.active && move.page == page && member == move.target &&
             move.frame_plus_one == 0) {
    move_frame_arrived(granted, frame);
  } else if (granted) {
    free_frame(member, frame); /* for nothing this card still wants */
  }
}

/* LOG-6.12: the connection to `member` failed. Faults waiting for its
   frames fail; its pages fail from now on. */
static void member_lost(uint32_t member) {
  lost[member / 32u] |= 1u << (member % 32u);
  if (move.active && move.target == member) {
    move_target_lost();
  }
  for (uint32_t page = 0; page < PAGE_SERVICE_PAGES; page++) {
    if (pages[page].asked && (node + page) % endpoints == member) {
      settle(member, page, false, 0, LOGICAL_REJECT_REASON_NO_MEMORY);
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
    case LQ_LOG_INVAL_ACK: { /* or, with `lost`, the sharer's loss */
      move_acknowledged(
          page_of((uint64_t)lq_log_field(mail->bytes, 8, 4) << 32 |
                  lq_log_field(mail->bytes, 12, 4)));
      break;
    }
    case LQ_LOG_FRAME_FREE:
      stats.freed++; /* never handed out again: it is not zero */
      break;
    case 0: /* no message: the connection to the node failed */
      if (mail->lost && mail->from < kMaxNodes) {
        member_lost(mail->from);
      }
      break;
    default:
      break;
  }
}

uint32_t page_service_serve(void) {
  uint32_t served = stats.served;
  /* The mail first: a copy that failed because a node died ends in the
     same instant as the unit reports the node lost. */
  lq_mail_t mail;
  while (lq_logical_take_mail(&mail)) {
    take_mail(&mail);
  }
  uint32_t copied;
  if (move.copying && lq_logical_copy_ended(&copied)) {
    move_copied(copied);
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
