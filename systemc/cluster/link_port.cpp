// SPDX-License-Identifier: Apache-2.0
// LinkPort: the controller of the port's fidelity and its PHY, bound.
#include "systemc/cluster/link_port.h"

#include <stdexcept>

namespace lq::cluster {
namespace {

std::unique_ptr<link::LinkController> MakeController(
    const LinkPortConfig& config) {
  if (config.rtl) {
    link::RtlLinkControllerConfig rtl = *config.rtl;
    rtl.clock_ns = config.controller.clock_ns;
    rtl.tx_slots_per_vc = config.controller.tx_slots_per_vc;
    // A router puts slots with no lookahead: a model running a batch of
    // cycles ahead would take them late, adding up to a batch of latency.
    // One cycle at a time costs about 8 % more wall time (decision 0027).
    rtl.batch_cycles = 1;
#ifdef LQ_CLUSTER_RTL
    return std::make_unique<link::RtlLinkController>("lc", rtl);
#else
    throw std::invalid_argument(
        "an RTL link port needs lqemu built with -DLQ_RTL=ON");
#endif
  }
  return std::make_unique<link::TlLinkController>("lc", config.controller);
}

}  // namespace

bool RtlPortsBuilt() {
#ifdef LQ_CLUSTER_RTL
  return true;
#else
  return false;
#endif
}

LinkPort::LinkPort(const sc_core::sc_module_name& name,
                   const LinkPortConfig& config)
    : sc_module(name),
      phy("phy", config.phy),
      irq("irq"),
      controller_(MakeController(config)) {
  Connect(controller_->phy_socket(), phy.link);
  controller_->irq_port()(irq);
}

}  // namespace lq::cluster
