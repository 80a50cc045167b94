// LinkPort: the controller and its PHY, bound.
#include "systemc/cluster/link_port.h"

namespace lq::cluster {

LinkPort::LinkPort(const sc_core::sc_module_name& name,
                   const LinkPortConfig& config)
    : sc_module(name),
      controller("lc", config.controller),
      phy("phy", config.phy),
      irq("irq") {
  Connect(controller.phy, phy.link);
  controller.irq(irq);
}

}  // namespace lq::cluster
