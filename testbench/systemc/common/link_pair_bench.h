// SPDX-License-Identifier: Apache-2.0
// Two link controllers of one fidelity joined through two PhyPorts and a
// cable, each with a traffic endpoint, a CSR master, an interrupt line and a
// flit tap (pass-through unless told to damage flits): the back-to-back
// set-up of the SystemC link testbenches.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <systemc>

#include "systemc/link/slot_endpoint.h"
#include "systemc/phy/phy_port.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/flit_tap.h"

namespace lq::testing {

inline constexpr unsigned kBenchSides = 2;
// Room a bench's controller grants its network per VC: enough to cover the
// credit loop at line rate.
inline constexpr unsigned kBenchSlotsPerVc = 32;

template <typename Controller>
class LinkPairBench {
 public:
  template <typename ControllerConfig>
  // `prefix` starts every module name, so that benches can share a
  // simulation. Without `cabled` the caller joins the two PHYs' cables.
  LinkPairBench(const phy::PhyPortConfig& phy,
                const ControllerConfig& controller,
                const std::array<SlotEndpointConfig, kBenchSides>& traffic,
                const std::string& prefix = "", bool cabled = true) {
    for (unsigned side = 0; side < kBenchSides; ++side) {
      const std::string n = std::to_string(side);
      phy::PhyPortConfig phy_config = phy;
      phy_config.seed = phy.seed * kBenchSides + side;  // One per direction.
      phys[side] = std::make_unique<phy::PhyPort>((prefix + "phy" + n).c_str(),
                                                  phy_config);
      controllers[side] =
          std::make_unique<Controller>((prefix + "lc" + n).c_str(), controller);
      endpoints[side] = std::make_unique<SlotEndpoint>(
          (prefix + "net" + n).c_str(), traffic[side]);
      masters[side] = std::make_unique<CsrMaster>((prefix + "csr" + n).c_str());
      irqs[side] = std::make_unique<sc_core::sc_signal<bool>>(
          (prefix + "irq" + n).c_str());
      taps[side] =
          std::make_unique<FlitTap>((prefix + "tap" + n).c_str(), phy.profile);
      Connect(controllers[side]->phy, taps[side]->controller);
      Connect(taps[side]->phy, phys[side]->link);
      Connect(controllers[side]->network, endpoints[side]->socket);
      masters[side]->socket.bind(controllers[side]->csr);
      controllers[side]->irq(*irqs[side]);
    }
    if (cabled) {
      Connect(phys[0]->cable, phys[1]->cable);
    }
    Pair(*endpoints[0], *endpoints[1]);
  }

  std::array<std::unique_ptr<phy::PhyPort>, kBenchSides> phys;
  std::array<std::unique_ptr<Controller>, kBenchSides> controllers;
  std::array<std::unique_ptr<SlotEndpoint>, kBenchSides> endpoints;
  std::array<std::unique_ptr<CsrMaster>, kBenchSides> masters;
  std::array<std::unique_ptr<sc_core::sc_signal<bool>>, kBenchSides> irqs;
  std::array<std::unique_ptr<FlitTap>, kBenchSides> taps;

  // From a thread: returns once both endpoints have their expected slots.
  void WaitForTraffic() {
    for (auto& endpoint : endpoints) {
      endpoint->WaitForExpected();
    }
  }
};

// Symmetric traffic: `slots` from each side, starting at once.
inline std::array<SlotEndpointConfig, kBenchSides> SymmetricTraffic(
    uint64_t slots, size_t slot_bytes) {
  std::array<SlotEndpointConfig, kBenchSides> traffic;
  for (unsigned side = 0; side < kBenchSides; ++side) {
    traffic[side].side = side;
    traffic[side].peer_side = 1 - side;
    traffic[side].slots = slots;
    traffic[side].slot_bytes = slot_bytes;
  }
  return traffic;
}

}  // namespace lq::testing
