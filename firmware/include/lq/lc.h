/* Access to the link controller of each port (docs/registers/lc.md) through the
 * generated lc_regs.h, plus names for its enum values. */
#ifndef LQ_LC_H_
#define LQ_LC_H_

#include <stdint.h>

#include "lc_regs.h"
#include "lq/board_map.h"

static inline uintptr_t lq_lc_base(uint32_t port) {
  return (uintptr_t)(LQ_LC_BASE + LQ_LC_STRIDE * port);
}

static inline uint32_t lq_lc_read(uint32_t port, uint32_t offset) {
  return lc_read(lq_lc_base(port), offset);
}

static inline void lq_lc_write(uint32_t port, uint32_t offset, uint32_t value) {
  lc_write(lq_lc_base(port), offset, value);
}

/* "DETECT", "L0", ...; "?" for a value outside the enum. */
const char* lq_lc_ltssm_name(uint32_t ltssm);

/* "64 GT/s", "200 Gb/s", "none", ... */
const char* lq_lc_speed_name(uint32_t speed);

#endif /* LQ_LC_H_ */
