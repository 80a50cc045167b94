/* page_service: this card's answers, as the owner of its paged region, to
 * the page faults of every requester (docs/spec/log.md LOG-5.5 to LOG-6.5):
 * first-touch allocation from its own pool frames. */
#ifndef PAGE_SERVICE_H_
#define PAGE_SERVICE_H_

#include <stdint.h>

typedef struct {
  uint32_t served;    /* fault records answered */
  uint32_t allocated; /* pages given a frame (ALLOCATED) */
  uint32_t rejected;  /* REJECT answers */
  uint32_t failed;    /* answers the unit could not send (CMD_STATUS) */
} page_service_stats_t;

/* Sets the pool up from the unit's SPACE and DIRECT_FRAMES; call once,
   before the first page_service_serve(). */
void page_service_init(void);

/* Answers every record waiting in the fault queue; returns how many. */
uint32_t page_service_serve(void);

const page_service_stats_t* page_service_stats(void);

#endif /* PAGE_SERVICE_H_ */
