// SPDX-License-Identifier: Apache-2.0
/* link_bringup: the link bring-up firmware: enables the link controller of
 * every port with a cable and disables the others (CABLED, NET-1.5), waits
 * (WFI, CLINT timeout) for each link to reach L0 while handling its interrupts
 * through the PLIC, and reports the result. On a card of a fabric it then
 * switches in the router's routes: the shadow bank the board strapped (e.g. dor
 * with the torus's ring sizes in SHAPE). On a card with a logical unit it then
 * serves, as owner of its paged region, the page faults of every node
 * (page_service.c) for as long as it runs. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lq/board_info.h"
#include "lq/board_map.h"
#include "lq/clint.h"
#include "lq/irq.h"
#include "lq/lc.h"
#include "lq/logical.h"
#include "lq/plic.h"
#include "lq/router.h"
#include "lq/trap.h"
#include "page_service.h"

/* Simulated time allowed for every port to reach L0 (-D to change). */
#ifndef LINK_BRINGUP_TIMEOUT_US
#define LINK_BRINGUP_TIMEOUT_US 100000
#endif
/* After bring-up, how long to keep serving LINK_DOWN interrupts before
   exiting; 0 exits at once (the image is a bring-up test, not a daemon). */
#ifndef LINK_BRINGUP_WATCH_US
#define LINK_BRINGUP_WATCH_US 0
#endif

#define kIrqEnabled (LC_IRQ_ENABLE_LINK_UP_MASK | LC_IRQ_ENABLE_LINK_DOWN_MASK)
/* Every IRQ_STATUS cause: stale causes from before boot are cleared. */
#define kIrqAllCauses 0x1fu

/* Written by the interrupt handlers, read by main with interrupts off. */
static volatile uint32_t link_up_events[LQ_LC_MAX_PORTS];
static volatile uint32_t link_down_events[LQ_LC_MAX_PORTS];
static volatile bool timed_out;
static bool watching; /* bring-up is over: a LINK_DOWN asks for retraining */

static void on_link_irq(uint32_t source) {
  uint32_t port = source - LQ_IRQ_LC(0);
  uint32_t causes = lq_lc_read(port, LC_IRQ_STATUS_OFFSET);
  /* W1C: acknowledge exactly what was seen, so nothing new is lost. */
  lq_lc_write(port, LC_IRQ_STATUS_OFFSET, causes);
  if (causes & LC_IRQ_STATUS_LINK_UP_MASK) {
    link_up_events[port]++;
  }
  if (causes & LC_IRQ_STATUS_LINK_DOWN_MASK) {
    link_down_events[port]++;
    if (watching) {
      /* RETRAIN acts on a link that is back in L0 by now (DLL-6.6); a
         link still down retrains from Detect by itself while
         CTRL.ENABLE = 1 (DLL-6.4). Pulse fields read 0, so the
         read-modify-write cannot re-trigger anything else. */
      uint32_t ctrl = lq_lc_read(port, LC_CTRL_OFFSET);
      lq_lc_write(port, LC_CTRL_OFFSET, lc_ctrl_retrain_set(ctrl, 1));
    }
  }
}

static void on_timeout(void) {
  lq_clint_disarm();
  timed_out = true;
}

/* Sleeps until an interrupt unless done() already holds; checked with
   interrupts off so that a wake-up between check and WFI is not lost. */
static void wait_unless(bool (*done)(void)) {
  uint32_t mie = lq_irq_global_disable();
  if (!done()) {
    lq_wfi();
  }
  lq_irq_global_restore(mie);
}

static uint32_t port_count;
static bool port_present[LQ_LC_MAX_PORTS];

static bool all_up_or_timed_out(void) {
  return timed_out || lq_lc_all_in_l0(port_present, port_count);
}

static bool watch_over(void) { return timed_out; }

/* The logical unit's interrupt: fault records or mailbox messages wait
   (LOG-6.2, LOG-6.10). */
static void on_fault_irq(uint32_t source) {
  (void)source;
  page_service_serve();
}

static void arm_timeout(uint32_t us) {
  timed_out = false;
  lq_clint_set_mtimecmp(lq_clint_mtime() + lq_us_to_ticks(us));
}

int main(void) {
  if (!lq_board_info_present()) {
    printf("link bring-up: no board information block: not an lqemu board\n");
    return 1;
  }
  port_count = lq_board_port_count();
  if (port_count > LQ_LC_MAX_PORTS) {
    port_count = LQ_LC_MAX_PORTS;
  }
  printf("link bring-up: node %lu, %lu ports, timeout %u us\n",
         (unsigned long)lq_board_node_id(), (unsigned long)port_count,
         LINK_BRINGUP_TIMEOUT_US);

  lq_trap_set_timer_handler(on_timeout);
  lq_plic_set_threshold(0);
  uint32_t enabled = 0;
  for (uint32_t port = 0; port < port_count; port++) {
    if (!lq_lc_present(port)) {
      printf("port %lu: no link controller (ID 0x%08lx)\n", (unsigned long)port,
             (unsigned long)lq_lc_read(port, LC_ID_OFFSET));
      continue;
    }
    if (!lq_board_port_cabled(port)) {
      lq_lc_disable(port); /* NET-1.5 */
      printf("port %lu: no cable, disabled\n", (unsigned long)port);
      continue;
    }
    port_present[port] = true;
    enabled++;
    lq_lc_write(port, LC_IRQ_STATUS_OFFSET, kIrqAllCauses);
    lq_lc_write(port, LC_IRQ_ENABLE_OFFSET, kIrqEnabled);
    lq_plic_attach(LQ_IRQ_LC(port), on_link_irq);
    lq_lc_enable(port);
  }

  uint64_t start = lq_clint_mtime();
  arm_timeout(LINK_BRINGUP_TIMEOUT_US);
  lq_irq_enable(LQ_MIE_MEIE | LQ_MIE_MTIE);
  lq_irq_global_enable();
  while (!all_up_or_timed_out()) {
    wait_unless(all_up_or_timed_out);
  }
  uint64_t elapsed_us = (lq_clint_mtime() - start) / LQ_MTIME_TICKS_PER_US;

  uint32_t up = lq_lc_report(port_present, port_count);
  printf("link bring-up: %lu of %lu ports up in %llu us\n", (unsigned long)up,
         (unsigned long)enabled, (unsigned long long)elapsed_us);
  bool routed = true;
  if (up == enabled && lq_router_present()) {
    routed = lq_router_switch_in_routes();
  }
  bool serving = routed && lq_logical_present();
  if (serving) {
    page_service_init();
    lq_plic_attach(LQ_IRQ_LOGICAL_PAGE_FAULT, on_fault_irq);
    lq_logical_write(
        LOGICAL_IRQ_ENABLE_OFFSET,
        LOGICAL_IRQ_ENABLE_FAULT_MASK | LOGICAL_IRQ_ENABLE_MAIL_MASK);
    printf("page service: serving page faults\n");
  }

  if (LINK_BRINGUP_WATCH_US > 0) {
    uint32_t downs_seen[LQ_LC_MAX_PORTS] = {0};
    uint32_t ups_seen[LQ_LC_MAX_PORTS] = {0};
    for (uint32_t port = 0; port < port_count; port++) {
      downs_seen[port] = link_down_events[port];
      ups_seen[port] = link_up_events[port];
    }
    watching = true;
    arm_timeout(LINK_BRINGUP_WATCH_US);
    printf("link bring-up: watching for link-down for %u us\n",
           LINK_BRINGUP_WATCH_US);
    while (!timed_out) {
      wait_unless(watch_over);
      for (uint32_t port = 0; port < port_count; port++) {
        uint32_t status = lq_lc_read(port, LC_STATUS_OFFSET);
        if (link_down_events[port] != downs_seen[port]) {
          downs_seen[port] = link_down_events[port];
          printf("port %lu: link down, retrain requested (state %s)\n",
                 (unsigned long)port,
                 lq_lc_ltssm_name(lc_status_ltssm_get(status)));
        }
        if (link_up_events[port] != ups_seen[port]) {
          ups_seen[port] = link_up_events[port];
          printf("port %lu: link up again x%lu %s\n", (unsigned long)port,
                 (unsigned long)lc_status_width_get(status),
                 lq_lc_speed_name(lc_status_speed_get(status)));
        }
      }
    }
    /* What counts is how the links stand when the watch ends. */
    up = 0;
    for (uint32_t port = 0; port < port_count; port++) {
      if (port_present[port] && lq_lc_in_l0(port)) {
        up++;
      }
    }
    printf("link watch: %lu of %lu ports up at the end\n", (unsigned long)up,
           (unsigned long)enabled);
  }
  lq_irq_global_disable();
  if (serving) {
    const page_service_stats_t* s = page_service_stats();
    printf(
        "page service: %lu faults served, %lu pages allocated, %lu frames "
        "lent, %lu rejected, %lu pages moved (%lu abandoned), %lu frames "
        "freed, %lu commands refused\n",
        (unsigned long)s->served, (unsigned long)s->allocated,
        (unsigned long)s->lent, (unsigned long)s->rejected,
        (unsigned long)s->migrated, (unsigned long)s->moves_abandoned,
        (unsigned long)s->freed, (unsigned long)s->failed);
  }
  return up == enabled && routed ? 0 : 1;
}
