// SPDX-License-Identifier: Apache-2.0
/* template: a starting point for an image of your own. It greets from its
 * node, counts its board's link ports with a cable, and exits 0. */
#include <stdio.h>

#include "lq/board_info.h"

int main(void) {
  if (!lq_board_info_present()) {
    printf("template: not an lqemu board\n");
    return 1;
  }
  unsigned cabled = 0;
  for (uint32_t port = 0; port < lq_board_port_count(); port++) {
    cabled += lq_board_port_cabled(port) ? 1 : 0;
  }
  printf("template: node %lu, %u of %lu ports cabled\n",
         (unsigned long)lq_board_node_id(), cabled,
         (unsigned long)lq_board_port_count());
  return 0;
}
