// SPDX-License-Identifier: Apache-2.0
// Building the conformance bench and its DUTs.
#include "systemc/conformance/conformance_bench.h"

#include <stdexcept>
#include <utility>

#include "systemc/link/tl_link_controller.h"
#ifdef LQ_CONFORMANCE_RTL
#include "systemc/link/rtl_link_controller.h"
#endif
#ifdef LQ_CONFORMANCE_OWN_RTL
#include "systemc/conformance/own_rtl.h"
#endif

namespace lq::conformance {

namespace {

// Room a controller grants its network per VC: enough for line rate.
constexpr unsigned kSlotsPerVc = 32;

link::TlLinkControllerConfig TlConfig() {
  link::TlLinkControllerConfig config;
  config.tx_slots_per_vc = kSlotsPerVc;
  config.ltssm_time_scale = kLtssmTimeScale;
  return config;
}

template <typename Controller>
Dut WrapDut(std::unique_ptr<Controller> controller) {
  Dut dut;
  dut.ports.csr = &controller->csr;
  dut.ports.phy = &controller->phy;
  dut.ports.network = &controller->network;
  dut.ports.irq = &controller->irq;
  dut.module = std::move(controller);
  return dut;
}

}  // namespace

std::vector<std::string> DutNames() {
  std::vector<std::string> names = {"tlm"};
#ifdef LQ_CONFORMANCE_RTL
  names.push_back("rtl");
#endif
#ifdef LQ_CONFORMANCE_OWN_RTL
  names.push_back("own");
#endif
  return names;
}

std::vector<std::string> DutLayers(const std::string& name) {
  // Every DUT is a link controller: it decides what its PHY port sends and
  // how it meets what the PHY does (the points of layer phy).
  if (name == "tlm") {
    return {"phy", "dll", "net", "trn", "log"};
  }
  return {"phy", "dll"};
}

Dut MakeDut(const std::string& name) {
  if (name == "tlm") {
    return WrapDut(std::make_unique<link::TlLinkController>("dut", TlConfig()));
  }
#ifdef LQ_CONFORMANCE_RTL
  if (name == "rtl") {
    link::RtlLinkControllerConfig config;
    config.tx_slots_per_vc = kSlotsPerVc;
    return WrapDut(std::make_unique<link::RtlLinkController>("dut", config));
  }
#endif
#ifdef LQ_CONFORMANCE_OWN_RTL
  if (name == "own") {
    link::RtlLinkControllerConfig config;
    config.tx_slots_per_vc = kSlotsPerVc;
    config.model = MakeOwnRtlModel;
    return WrapDut(std::make_unique<link::RtlLinkController>("dut", config));
  }
#endif
  throw std::invalid_argument("no DUT named '" + name + "' in this build");
}

ConformanceBench::ConformanceBench(Dut dut, std::unique_ptr<PortTap> mutant,
                                   const BenchTraffic& traffic)
    : profile_(phy::FindLinkProfile("pcie6").value()),
      traffic_(traffic),
      dut_(std::move(dut)),
      mutant_(std::move(mutant)) {
  tap_ = std::make_unique<PortTap>("tap", profile_);
  const phy::PhyPortConfig phy_config =
      phy::PhyPortConfig::ForProfile(profile_);
  dut_phy_ = std::make_unique<phy::PhyPort>("dut_phy", phy_config);
  peer_phy_ = std::make_unique<phy::PhyPort>("peer_phy", phy_config);
  peer_ = std::make_unique<link::TlLinkController>("peer", TlConfig());

  if (mutant_) {
    Connect(*dut_.ports.phy, mutant_->dut);
    Connect(mutant_->phy, tap_->dut);
  } else {
    Connect(*dut_.ports.phy, tap_->dut);
  }
  Connect(tap_->phy, dut_phy_->link);
  Connect(dut_phy_->cable, peer_phy_->cable);
  Connect(peer_->phy, peer_phy_->link);

  testing::SlotEndpointConfig dut_side;
  dut_side.side = 0;
  dut_side.peer_side = 1;
  dut_side.slots = traffic.dut_slots;
  dut_side.vcs = traffic.vcs;
  dut_side.slot_bytes = profile_.payload_bytes;
  dut_side.room_per_vc = traffic.dut_room_per_vc;
  dut_side.start = traffic.start;
  dut_side.interval = traffic.interval;
  testing::SlotEndpointConfig peer_side = dut_side;
  peer_side.side = 1;
  peer_side.peer_side = 0;
  peer_side.slots = traffic.peer_slots;
  peer_side.room_per_vc = kSlotsPerVc;
  dut_net_ = std::make_unique<testing::SlotEndpoint>("dut_net", dut_side);
  peer_net_ = std::make_unique<testing::SlotEndpoint>("peer_net", peer_side);
  Connect(*dut_.ports.network, dut_net_->socket);
  Connect(peer_->network, peer_net_->socket);
  testing::Pair(*dut_net_, *peer_net_);

  dut_csr_ = std::make_unique<RegisterMaster>("dut_csr");
  peer_csr_ = std::make_unique<RegisterMaster>("peer_csr");
  dut_csr_->socket.bind(*dut_.ports.csr);
  peer_csr_->socket.bind(peer_->csr);
  (*dut_.ports.irq)(dut_irq_);
  peer_->irq(peer_irq_);
}

ConformanceBench::~ConformanceBench() = default;

void ConformanceBench::CutCable(const sc_core::sc_time& at) {
  dut_phy_->ScheduleLaneFailure(dut_phy_->AllLanes(), at);
  peer_phy_->ScheduleLaneFailure(peer_phy_->AllLanes(), at);
}

}  // namespace lq::conformance
