// LinkPort: one port of a card below its router: the link controller (TL
// model), its PHY and the cable socket to the far card. Its network side
// (controller.network) is the owner's to connect: a router port, or a
// SlotSink where nothing forwards traffic.
#pragma once

#include <systemc>

#include "systemc/link/tl_link_controller.h"
#include "systemc/phy/phy_port.h"

namespace lq::cluster {

struct LinkPortConfig {
  phy::PhyPortConfig phy;
  link::TlLinkControllerConfig controller;
};

class LinkPort : public sc_core::sc_module {
 public:
  LinkPort(const sc_core::sc_module_name& name, const LinkPortConfig& config);

  link::TlLinkController controller;
  phy::PhyPort phy;
  sc_core::sc_signal<bool> irq;

  phy::CableSocket& cable() { return phy.cable; }
};

}  // namespace lq::cluster
