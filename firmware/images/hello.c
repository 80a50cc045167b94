// SPDX-License-Identifier: Apache-2.0
/* hello: the smallest useful image; greets from the board's node id and shows
 * that printf, the board information block and mtime work. */
#include <stdio.h>

#include "lq/board_info.h"
#include "lq/clint.h"
#include "lq/csr.h"

int main(void) {
  /* On QEMU's virt machine the block's address holds a real-time clock:
     without the "BD" magic, fall back to node 0 and say so. */
  if (lq_board_info_present()) {
    printf("Hello from node %lu\n", (unsigned long)lq_board_node_id());
    printf("board: %lu ports, cpu %lu kHz, mtime %lu Hz\n",
           (unsigned long)lq_board_port_count(),
           (unsigned long)lq_board_cpu_khz(),
           (unsigned long)lq_board_mtime_hz());
  } else {
    printf("Hello from node 0\n");
    printf("board: no board information block (not an lqemu board)\n");
  }
  printf("hart %lu, misa 0x%08lx, mtime %llu\n",
         (unsigned long)lq_csr_read(mhartid), (unsigned long)lq_csr_read(misa),
         (unsigned long long)lq_clint_mtime());
  return 0;
}
