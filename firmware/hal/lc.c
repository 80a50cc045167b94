// SPDX-License-Identifier: Apache-2.0
/* The steps of a link bring-up, and names of the link controller's enum
 * values for console output. */
#include "lq/lc.h"

#include <stdio.h>

#include "lq/board_info.h"
#include "lq/clint.h"

bool lq_lc_present(uint32_t port) {
  return lc_id_magic_get(lq_lc_read(port, LC_ID_OFFSET)) == LC_ID_MAGIC_RESET;
}

void lq_lc_enable(uint32_t port) {
  uint32_t ctrl = lq_lc_read(port, LC_CTRL_OFFSET);
  lq_lc_write(port, LC_CTRL_OFFSET, lc_ctrl_enable_set(ctrl, 1));
}

void lq_lc_disable(uint32_t port) {
  uint32_t ctrl = lq_lc_read(port, LC_CTRL_OFFSET);
  lq_lc_write(port, LC_CTRL_OFFSET, lc_ctrl_enable_set(ctrl, 0));
}

bool lq_lc_in_l0(uint32_t port) {
  return lc_status_ltssm_get(lq_lc_read(port, LC_STATUS_OFFSET)) == LC_LTSSM_L0;
}

bool lq_lc_all_in_l0(const bool* present, uint32_t port_count) {
  for (uint32_t port = 0; port < port_count; port++) {
    if (present[port] && !lq_lc_in_l0(port)) {
      return false;
    }
  }
  return true;
}

/* Prints the port's line; true for a link in L0. */
static bool report_port(uint32_t port) {
  uint32_t status = lq_lc_read(port, LC_STATUS_OFFSET);
  uint32_t ltssm = lc_status_ltssm_get(status);
  if (ltssm != LC_LTSSM_L0) {
    printf("port %lu: down (state %s)\n", (unsigned long)port,
           lq_lc_ltssm_name(ltssm));
    return false;
  }
  printf("port %lu: up x%lu %s\n", (unsigned long)port,
         (unsigned long)lc_status_width_get(status),
         lq_lc_speed_name(lc_status_speed_get(status)));
  return true;
}

uint32_t lq_lc_report(const bool* present, uint32_t port_count) {
  uint32_t up = 0;
  for (uint32_t port = 0; port < port_count; port++) {
    if (present[port] && report_port(port)) {
      up++;
    }
  }
  return up;
}

bool lq_lc_bring_up_polled(const char* who, uint32_t timeout_us) {
  uint32_t port_count = lq_board_port_count();
  if (port_count > LQ_LC_MAX_PORTS) {
    port_count = LQ_LC_MAX_PORTS;
  }
  bool present[LQ_LC_MAX_PORTS] = {false};
  uint32_t enabled = 0;
  for (uint32_t port = 0; port < port_count; port++) {
    if (!lq_lc_present(port)) {
      printf("port %lu: no link controller\n", (unsigned long)port);
      continue;
    }
    present[port] = true;
    enabled++;
    lq_lc_enable(port);
  }
  uint64_t start = lq_clint_mtime();
  uint64_t deadline = start + lq_us_to_ticks(timeout_us);
  while (!lq_lc_all_in_l0(present, port_count) && lq_clint_mtime() < deadline) {
  }
  uint64_t elapsed_us = (lq_clint_mtime() - start) / LQ_MTIME_TICKS_PER_US;
  uint32_t up = lq_lc_report(present, port_count);
  printf("%s: %lu of %lu ports up in %llu us\n", who, (unsigned long)up,
         (unsigned long)enabled, (unsigned long long)elapsed_us);
  if (up != enabled) {
    printf("%s: timed out after %lu us waiting for the links\n", who,
           (unsigned long)timeout_us);
    return false;
  }
  return true;
}

const char* lq_lc_ltssm_name(uint32_t ltssm) {
  switch (ltssm) {
    case LC_LTSSM_DETECT:
      return "DETECT";
    case LC_LTSSM_POLLING:
      return "POLLING";
    case LC_LTSSM_CONFIG:
      return "CONFIG";
    case LC_LTSSM_L0:
      return "L0";
    case LC_LTSSM_RECOVERY:
      return "RECOVERY";
    case LC_LTSSM_DISABLED:
      return "DISABLED";
    default:
      return "?";
  }
}

const char* lq_lc_speed_name(uint32_t speed) {
  switch (speed) {
    case LC_SPEED_NONE:
      return "none";
    case LC_SPEED_GT64:
      return "64 GT/s";
    case LC_SPEED_GB200:
      return "200 Gb/s";
    default:
      return "?";
  }
}
