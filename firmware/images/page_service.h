// SPDX-License-Identifier: Apache-2.0
/* page_service: this card's answers, as the owner of its paged region, to
 * the page faults of every requester (docs/spec/log.md LOG-5.5 to LOG-6.5):
 * the region is a buffer pooled over every endpoint, each page getting a
 * frame from its member at first touch and moving to a node that stores to
 * it (LOG-6.9); and, as a member, the frames it lends to other owners
 * (LOG-5.6). */
#ifndef PAGE_SERVICE_H_
#define PAGE_SERVICE_H_

#include <stdint.h>

typedef struct {
  uint32_t served;          /* fault records answered */
  uint32_t allocated;       /* pages given a frame (ALLOCATED) */
  uint32_t lent;            /* frames lent to other owners (FRAME_ALLOC_RSP) */
  uint32_t rejected;        /* REJECT answers */
  uint32_t failed;          /* commands the unit refused (CMD_STATUS) */
  uint32_t migrated;        /* pages moved to their writer (LOG-6.9) */
  uint32_t moves_abandoned; /* moves that left the page where it was */
  uint32_t freed;           /* frames given back (FRAME_FREE), never reused */
} page_service_stats_t;

/* Sets the pool up from the unit's SPACE and DIRECT_FRAMES; call once,
   before the first page_service_serve(). */
void page_service_init(void);

/* Takes every mailbox message, then answers the records waiting in the
   fault queue (those whose frame must be asked for, once the member
   answers); returns how many faults it answered. */
uint32_t page_service_serve(void);

const page_service_stats_t* page_service_stats(void);

#endif /* PAGE_SERVICE_H_ */
