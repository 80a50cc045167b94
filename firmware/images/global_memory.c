// SPDX-License-Identifier: Apache-2.0
/* global_memory: the MCU's own loads, stores and atomics on other cards'
 * memory through the logical unit's global window (docs/spec/log.md
 * LOG-3.8, docs/board.md). Node n pairs with node n ^ 1. It points the
 * window at its partner's direct region, stores a pattern of 256 words
 * there and loads it back. Then both cards of the pair add 1 to the same
 * word in the lower card's memory GLOBAL_MEMORY_ADDS times each with
 * AMOADD.W, and wait until the word holds both cards' adds: a lost update
 * would leave it short, and the card would time out. The links and routes
 * come up by polling. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lq/board_info.h"
#include "lq/board_map.h"
#include "lq/clint.h"
#include "lq/lc.h"
#include "lq/logical.h"
#include "lq/router.h"

#ifndef GLOBAL_MEMORY_LINK_TIMEOUT_US
#define GLOBAL_MEMORY_LINK_TIMEOUT_US 200000
#endif
/* Simulated time allowed for the partner's adds to arrive. */
#ifndef GLOBAL_MEMORY_WAIT_US
#define GLOBAL_MEMORY_WAIT_US 100000
#endif
#ifndef GLOBAL_MEMORY_ADDS
#define GLOBAL_MEMORY_ADDS 50u
#endif

#define kWords 256u
/* Where, in the partner's direct region, this card's pattern goes: each
   card of a pair writes its own 1 MiB slot. */
#define kPatternOffset(writer) (0x100000ull * (1u + ((writer)&1u)))
/* The pair's counter, in the lower card's direct region. */
#define kCounterOffset 0x400000ull

static volatile uint32_t* const window =
    (volatile uint32_t*)LQ_GLOBAL_WINDOW_BASE;

static void point_window(uint64_t ga) {
  lq_logical_write(LOGICAL_GW_BASE_LO_OFFSET, (uint32_t)ga);
  lq_logical_write(LOGICAL_GW_BASE_HI_OFFSET, (uint32_t)(ga >> 32));
}

static uint32_t pattern(uint32_t node, uint32_t i) {
  return node << 24 | i * 0x01010101u;
}

static bool store_and_load(uint32_t node, uint32_t partner) {
  point_window(lq_logical_ga(partner, kPatternOffset(node)));
  for (uint32_t i = 0; i < kWords; i++) {
    window[i] = pattern(node, i);
  }
  for (uint32_t i = 0; i < kWords; i++) {
    uint32_t seen = window[i];
    if (seen != pattern(node, i)) {
      printf("global memory: word %lu of node %lu reads 0x%08lx\n",
             (unsigned long)i, (unsigned long)partner, (unsigned long)seen);
      return false;
    }
  }
  printf("global memory: %u words stored to node %lu and loaded back\n", kWords,
         (unsigned long)partner);
  return true;
}

static bool add_together(uint32_t node, uint32_t partner) {
  uint32_t lower = node < partner ? node : partner;
  point_window(lq_logical_ga(lower, kCounterOffset));
  volatile uint32_t* counter = &window[0];
  for (uint32_t i = 0; i < GLOBAL_MEMORY_ADDS; i++) {
    __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED);
  }
  uint64_t deadline = lq_clint_mtime() + lq_us_to_ticks(GLOBAL_MEMORY_WAIT_US);
  uint32_t seen = *counter;
  while (seen < 2u * GLOBAL_MEMORY_ADDS && lq_clint_mtime() < deadline) {
    seen = *counter;
  }
  printf("global memory: the counter on node %lu reads %lu\n",
         (unsigned long)lower, (unsigned long)seen);
  return seen == 2u * GLOBAL_MEMORY_ADDS;
}

int main(void) {
  if (!lq_logical_present()) {
    printf("global memory: no logical unit on this board\n");
    return 1;
  }
  uint32_t node = lq_board_node_id();
  uint32_t partner = node ^ 1u;
  if (partner >= lq_logical_endpoints()) {
    printf("global memory: ok (no partner)\n");
    return 0;
  }
  if (!lq_lc_bring_up_polled("global memory", GLOBAL_MEMORY_LINK_TIMEOUT_US) ||
      !lq_router_switch_in_routes() || !store_and_load(node, partner) ||
      !add_together(node, partner)) {
    printf("global memory: FAILED\n");
    return 1;
  }
  printf("global memory: ok\n");
  return 0;
}
