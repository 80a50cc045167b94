/* Names of the link controller's enum values, for console output. */
#include "lq/lc.h"

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
