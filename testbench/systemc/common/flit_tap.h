// SPDX-License-Identifier: Apache-2.0
// A testbench module between a link controller and its PHY: it passes every
// flit through and damages chosen PAYLOAD flits on their first transmission,
// so that targeted errors hit the same flits whatever the controller's
// fidelity (the RTL/TL equivalence test) or timing.
#pragma once

#include <cstdint>
#include <set>
#include <systemc>

#include "models/phy/link_profile.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::testing {

class FlitTap : public sc_core::sc_module,
                private phy::PhyTxIf,
                private phy::PhyRxIf {
 public:
  phy::PhyTargetSocket controller;  // Bound to the controller's PHY socket.
  phy::PhyInitiatorSocket phy;      // Bound to the PHY port.

  FlitTap(sc_core::sc_module_name name, const phy::LinkProfile& profile);

  // Damages the payload of the new PAYLOAD flits with these ordinals
  // (0 = the first new one sent), so the far end sees a CRC mismatch.
  void CorruptNewPayloads(std::set<uint64_t> ordinals) {
    targets_ = std::move(ordinals);
  }
  uint64_t new_payloads() const { return new_payloads_; }
  uint64_t corrupted() const { return corrupted_; }

 private:
  sc_core::sc_time Transmit(phy::PhyTxFlit flit,
                            const sc_core::sc_time& offset) override;
  sc_core::sc_time Lookahead() const override { return phy.out->Lookahead(); }
  void Receive(phy::PhyRxFlit flit, const sc_core::sc_time& delay) override {
    controller.out->Receive(std::move(flit), delay);
  }
  void UpdateLanes(phy::LaneStatus status,
                   const sc_core::sc_time& delay) override {
    controller.out->UpdateLanes(status, delay);
  }

  phy::LinkProfile profile_;
  std::set<uint64_t> targets_;
  bool any_new_ = false;
  uint16_t last_new_seq_ = 0;
  uint64_t new_payloads_ = 0;
  uint64_t corrupted_ = 0;
};

}  // namespace lq::testing
