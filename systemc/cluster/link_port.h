// LinkPort: one port of a card below its router: the link controller (TL
// model), its PHY and the cable socket to the far card, with a SlotSink on
// the network side until routers take that place.
#pragma once

#include <systemc>

#include "systemc/link/slot_sink.h"
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
  link::SlotSink network;
  sc_core::sc_signal<bool> irq;

  phy::CableSocket& cable() { return phy.cable; }
};

}  // namespace lq::cluster
