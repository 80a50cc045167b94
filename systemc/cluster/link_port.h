// SPDX-License-Identifier: Apache-2.0
// LinkPort: one port of a card below its router: the link controller, its
// PHY and the cable socket to the far card. The controller is the TL model
// or, for a port chosen to run at RTL fidelity, the Verilated RTL (DESIGN
// §2); the rest of the card sees the same sockets either way. Its network
// side (controller().network_socket()) is the owner's to connect: a router
// port, or a SlotSink where nothing forwards traffic.
#pragma once

#include <memory>
#include <optional>
#include <systemc>

#include "systemc/link/link_controller.h"
#include "systemc/link/rtl_link_controller.h"
#include "systemc/link/tl_link_controller.h"
#include "systemc/phy/phy_port.h"

namespace lq::cluster {

struct LinkPortConfig {
  phy::PhyPortConfig phy;
  link::TlLinkControllerConfig controller;
  // Set: the controller is the Verilated RTL with these settings instead of
  // the TL model. Its build fixes the profile (pcie6) and the LTSSM's time
  // scale (link::kLcRtlLtssmTimeScale); `controller` still gives the clock.
  std::optional<link::RtlLinkControllerConfig> rtl;
  // No link controller or PHY: the router's port itself is the cable's
  // end, joined port to port to the far router's (link.fidelity ideal,
  // decision 0009). Both ends of a cable are ideal or neither is. An
  // ideal cable takes `ideal_latency` each way (zero: the two router ports
  // are bound to each other).
  bool ideal = false;
  sc_core::sc_time ideal_latency = sc_core::SC_ZERO_TIME;
};

// Whether this build has the Verilated controller (CMake option LQ_RTL).
bool RtlPortsBuilt();

// Throws std::invalid_argument for an RTL port in a build without it.
class LinkPort : public sc_core::sc_module {
 public:
  LinkPort(const sc_core::sc_module_name& name, const LinkPortConfig& config);

  link::LinkController& controller() { return *controller_; }
  const link::LinkController& controller() const { return *controller_; }

  phy::PhyPort phy;
  sc_core::sc_signal<bool> irq;

  phy::CableSocket& cable() { return phy.cable; }

 private:
  std::unique_ptr<link::LinkController> controller_;
};

}  // namespace lq::cluster
