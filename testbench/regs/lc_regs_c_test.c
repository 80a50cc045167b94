// SPDX-License-Identifier: Apache-2.0
/* C99 check of the generated firmware header lc_regs.h: it compiles cleanly and
 * its accessors work. */
#include <stdint.h>
#include <stdio.h>

#include "generated/firmware/lc_regs.h"

/* Returns 1 (one failure) when ok is false, so main can sum the failures. */
static int Check(int ok, const char* why) {
  if (!ok) {
    fprintf(stderr, "lc_regs_c_test: FAIL: %s\n", why);
  }
  return !ok;
}

int main(void) {
  uint32_t window[LC_BLOCK_SIZE / sizeof(uint32_t)] = {0};
  uintptr_t base = (uintptr_t)window;
  uint32_t ctrl = LC_CTRL_RESET;
  int failures = 0;

  failures +=
      Check(lc_ctrl_target_width_get(ctrl) == LC_CTRL_TARGET_WIDTH_RESET,
            "getter must read the field's reset out of the register reset");
  ctrl = lc_ctrl_target_width_set(ctrl, LC_WIDTH_X4);
  failures += Check(lc_ctrl_target_width_get(ctrl) == LC_WIDTH_X4,
                    "set then get must round-trip");
  failures += Check((ctrl & ~LC_CTRL_TARGET_WIDTH_MASK) ==
                        (LC_CTRL_RESET & ~LC_CTRL_TARGET_WIDTH_MASK),
                    "a setter must leave the other fields alone");
  failures += Check(lc_ctrl_profile_set(0u, UINT32_MAX) == LC_CTRL_PROFILE_MASK,
                    "an oversized value must not spill into neighbouring bits");
  failures += Check(LC_CREDIT_INIT_VC_OFFSET(3) == LC_CREDIT_INIT_VC3_OFFSET,
                    "computed per-VC offsets must match the named instances");

  lc_write(base, LC_IRQ_ENABLE_OFFSET, LC_IRQ_ENABLE_LINK_DOWN_MASK);
  failures += Check(window[LC_IRQ_ENABLE_OFFSET / sizeof(uint32_t)] ==
                        LC_IRQ_ENABLE_LINK_DOWN_MASK,
                    "lc_write must store at base + offset");
  failures +=
      Check(lc_read(base, LC_IRQ_ENABLE_OFFSET) == LC_IRQ_ENABLE_LINK_DOWN_MASK,
            "lc_read must load from base + offset");

  if (failures == 0) {
    printf("lc_regs_c_test: PASS\n");
  }
  return failures == 0 ? 0 : 1;
}
