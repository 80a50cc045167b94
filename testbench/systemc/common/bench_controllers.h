// SPDX-License-Identifier: Apache-2.0
// The link controller configurations the SystemC link testbenches use:
// room enough for line rate, and for the TL model the RTL's LTSSM time
// scale, so that RTL and TL pairs are compared like for like.
#pragma once

#include "systemc/link/rtl_link_controller.h"
#include "systemc/link/tl_link_controller.h"
#include "testbench/systemc/common/link_pair_bench.h"

namespace lq::testing {

inline link::RtlLinkControllerConfig BenchRtlConfig() {
  link::RtlLinkControllerConfig config;
  config.tx_slots_per_vc = kBenchSlotsPerVc;
  return config;
}

inline link::TlLinkControllerConfig BenchTlConfig() {
  link::TlLinkControllerConfig config;
  config.tx_slots_per_vc = kBenchSlotsPerVc;
  config.ltssm_time_scale = link::kLcRtlLtssmTimeScale;  // as the RTL is built
  return config;
}

}  // namespace lq::testing
