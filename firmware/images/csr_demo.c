// SPDX-License-Identifier: Apache-2.0
/* csr_demo: reads the board information block, exercises SCRATCH, decodes each
 * port's link controller ID and STATUS, and shows that a read of an unmapped
 * address traps (board only). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "board_regs.h"
#include "lq/board_info.h"
#include "lq/board_map.h"
#include "lq/csr.h"
#include "lq/lc.h"
#include "lq/trap.h"

static volatile uint32_t faults;
static volatile uint32_t fault_cause;
static volatile uint32_t fault_address;

static bool expect_fault(lq_trap_frame_t* frame) {
  faults++;
  fault_cause = frame->mcause;
  fault_address = frame->mtval;
  lq_trap_skip_instruction(frame);
  return true;
}

int main(void) {
  int failures = 0;
  uint32_t id = lq_board_id();
  printf("board: ID 0x%08lx (magic 0x%04lx, version %lu.%lu)\n",
         (unsigned long)id, (unsigned long)board_id_magic_get(id),
         (unsigned long)board_id_major_get(id),
         (unsigned long)board_id_minor_get(id));
  if (!lq_board_info_present()) {
    printf("board: no board information block here: not an lqemu board\n");
    return 1;
  }
  uint32_t ports = lq_board_port_count();
  printf("board: node %lu, %lu ports, cpu %lu kHz, mtime %lu Hz\n",
         (unsigned long)lq_board_node_id(), (unsigned long)ports,
         (unsigned long)lq_board_cpu_khz(), (unsigned long)lq_board_mtime_hz());

  const uint32_t patterns[] = {0xa5a5a5a5u, 0x5a5a5a5au, 0x00000000u,
                               0xffffffffu};
  for (unsigned i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
    lq_board_set_scratch(patterns[i]);
    uint32_t back = lq_board_scratch();
    if (back != patterns[i]) {
      printf("board: SCRATCH wrote 0x%08lx, read 0x%08lx\n",
             (unsigned long)patterns[i], (unsigned long)back);
      failures++;
    }
  }
  printf("board: SCRATCH %s\n", failures == 0 ? "ok" : "FAILED");

  for (uint32_t port = 0; port < ports; port++) {
    uint32_t lc_id = lq_lc_read(port, LC_ID_OFFSET);
    uint32_t status = lq_lc_read(port, LC_STATUS_OFFSET);
    printf(
        "port %lu: ID 0x%08lx magic 0x%04lx v%lu.%lu, STATUS 0x%08lx: "
        "%s, link %s, x%lu, %s\n",
        (unsigned long)port, (unsigned long)lc_id,
        (unsigned long)lc_id_magic_get(lc_id),
        (unsigned long)lc_id_major_get(lc_id),
        (unsigned long)lc_id_minor_get(lc_id), (unsigned long)status,
        lq_lc_ltssm_name(lc_status_ltssm_get(status)),
        lc_status_link_up_get(status) ? "up" : "down",
        (unsigned long)lc_status_width_get(status),
        lq_lc_speed_name(lc_status_speed_get(status)));
    if (lc_id_magic_get(lc_id) != LC_ID_MAGIC_RESET) {
      failures++;
    }
  }

  /* A decode miss must be an access fault (mcause 5), not a hang or 0. */
  lq_trap_set_exception_handler(expect_fault);
  uint32_t value = *(volatile uint32_t*)LQ_UNMAPPED_ADDRESS;
  (void)value;
  lq_trap_set_exception_handler(NULL);
  printf("unmapped read of 0x%08lx: %lu trap(s), mcause %lu, mtval 0x%08lx\n",
         (unsigned long)LQ_UNMAPPED_ADDRESS, (unsigned long)faults,
         (unsigned long)fault_cause, (unsigned long)fault_address);
  if (faults != 1 || fault_cause != LQ_EXC_LOAD_ACCESS_FAULT ||
      fault_address != LQ_UNMAPPED_ADDRESS) {
    failures++;
  }
  printf("csr_demo: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
