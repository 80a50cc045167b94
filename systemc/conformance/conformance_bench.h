// SPDX-License-Identifier: Apache-2.0
// The set-up every conformance case runs in: the device under test on one
// side of a cable, a reference link controller (the TL model) as its link
// partner on the other, a PortTap at the DUT's PHY port, a traffic endpoint
// on each controller's network side, and a register master on each
// controller's CSR socket. Cases drive the DUT only through these: its
// port, its network side and its registers, as a peer device would.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/phy/link_profile.h"
#include "systemc/common/csr_socket.h"
#include "systemc/common/register_master.h"
#include "systemc/conformance/port_tap.h"
#include "systemc/link/lc_rtl_model.h"
#include "systemc/link/slot_endpoint.h"
#include "systemc/link/slot_socket.h"
#include "systemc/phy/phy_port.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::link {
class TlLinkController;
}

namespace lq::conformance {

// LTSSM_TIME_SCALE of the Verilated controller (lq_lc_rtl: MsCycles=100);
// every controller in the bench uses it, so that a case's timeouts are the
// same whichever DUT it runs against.
inline constexpr double kLtssmTimeScale = link::kLcRtlLtssmTimeScale;

// What each side of the link sends from its network side.
struct BenchTraffic {
  uint64_t dut_slots = 0;   // The DUT sends these to the partner...
  uint64_t peer_slots = 0;  // ...and the partner these to the DUT,
  sc_core::sc_time start = sc_core::sc_time(20, sc_core::SC_US);  // from here,
  sc_core::sc_time interval = sc_core::SC_ZERO_TIME;  // this far apart.
  unsigned vcs = 4;  // Round-robin over VCs 0..vcs-1.
  // Slots the DUT's network side has room for per VC; 0 never takes one.
  unsigned dut_room_per_vc = 16;
};

// The DUT's sockets, whatever its implementation.
struct DutPorts {
  CsrTargetSocket* csr = nullptr;
  phy::PhyInitiatorSocket* phy = nullptr;
  link::SlotSocket* network = nullptr;
  sc_core::sc_out<bool>* irq = nullptr;
};

// A device under test: the module and its sockets.
struct Dut {
  std::unique_ptr<sc_core::sc_module> module;
  DutPorts ports;
};

class ConformanceBench {
 public:
  // `mutant` (may be null) sits between the DUT and the tap: the part of a
  // broken DUT variant that breaks it (mutants.h).
  ConformanceBench(Dut dut, std::unique_ptr<PortTap> mutant,
                   const BenchTraffic& traffic);
  ~ConformanceBench();

  const phy::LinkProfile& profile() const { return profile_; }
  PortTap& tap() { return *tap_; }
  RegisterMaster& dut_csr() { return *dut_csr_; }
  RegisterMaster& peer_csr() { return *peer_csr_; }
  testing::SlotEndpoint& dut_net() { return *dut_net_; }
  testing::SlotEndpoint& peer_net() { return *peer_net_; }
  const sc_core::sc_signal<bool>& dut_irq() const { return dut_irq_; }
  const BenchTraffic& traffic() const { return traffic_; }
  // Cuts the cable at `at` (absolute): every lane of both directions
  // delivers noise from then on (PHY-5.6).
  void CutCable(const sc_core::sc_time& at);

 private:
  phy::LinkProfile profile_;
  BenchTraffic traffic_;
  Dut dut_;
  std::unique_ptr<PortTap> mutant_;
  std::unique_ptr<PortTap> tap_;
  std::unique_ptr<phy::PhyPort> dut_phy_, peer_phy_;
  std::unique_ptr<link::TlLinkController> peer_;
  std::unique_ptr<testing::SlotEndpoint> dut_net_, peer_net_;
  std::unique_ptr<RegisterMaster> dut_csr_, peer_csr_;
  sc_core::sc_signal<bool> dut_irq_{"dut_irq"}, peer_irq_{"peer_irq"};
};

// The DUTs this build can make: "tlm"; "rtl" when built with Verilator;
// "own" when built with -DLQ_DUT_RTL as well.
std::vector<std::string> DutNames();
// The layers DUT `name` implements, as test points name them: "dll" for
// every DUT, and "trn" for tlm, whose transport engine the TransportBench
// runs (the RTL is a link controller only).
std::vector<std::string> DutLayers(const std::string& name);
// Makes DUT `name` (one of DutNames()); throws std::invalid_argument for
// another name.
Dut MakeDut(const std::string& name);

}  // namespace lq::conformance
