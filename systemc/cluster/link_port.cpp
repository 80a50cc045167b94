// LinkPort: the controller, its PHY and its network stand-in, bound.
#include "systemc/cluster/link_port.h"

namespace lq::cluster {

LinkPort::LinkPort(const sc_core::sc_module_name& name,
                   const LinkPortConfig& config)
    : sc_module(name),
      controller("lc", config.controller),
      phy("phy", config.phy),
      network("network", flit::kLinkVcs, config.controller.tx_slots_per_vc),
      irq("irq") {
  Connect(controller.phy, phy.link);
  Connect(controller.network, network.socket);
  controller.irq(irq);
}

}  // namespace lq::cluster
