// SPDX-License-Identifier: Apache-2.0
// NoCable: what a PhyPort's cable socket is bound to when the port has no
// cable (NET-1.5, a ring of one in a torus). No far transmitter exists, so
// the port's receivers see none from the start (PHY-5.4), and what the port
// might transmit goes nowhere. Its link controller stays disabled: the
// firmware reads CABLED and does not enable it.
#pragma once

#include <cstdint>
#include <systemc>

#include "systemc/phy/cable.h"

namespace lq::phy {

class NoCable : public sc_core::sc_module, private CableIf {
 public:
  CableSocket cable;

  // `lanes`: every lane of the port (PhyPort::AllLanes()).
  NoCable(const sc_core::sc_module_name& name, uint32_t lanes)
      : sc_module(name), cable("cable"), lanes_(lanes) {
    cable.in.bind(static_cast<CableIf&>(*this));
    SC_HAS_PROCESS(NoCable);
    SC_METHOD(ReportNoSignal);  // once, at the start
  }

 private:
  void Carry(WireFlit, const sc_core::sc_time&) override {}
  void FailedLanes(uint32_t, const sc_core::sc_time&) override {}
  // After every PhyPort's start-of-simulation report of its lanes.
  void ReportNoSignal() {
    cable.out->FailedLanes(lanes_, sc_core::SC_ZERO_TIME);
  }

  uint32_t lanes_;
};

}  // namespace lq::phy
