// SPDX-License-Identifier: Apache-2.0
// The set-up every router conformance case runs in (decision 0023): the
// transport layer's part of a router — PFC (trn.md §8) and ECN marking
// (§9, TRN-11.2) — checked at the router's ports. The DUT is node 0's
// router of the default scenario's fabric (a 4x8x8 torus on `pcie6` links)
// with its flow control, built as the transport study builds its routers
// (app::ScenarioLosslessRouter), and a RouterPeer stands on each of its
// ports, the local port's included. Cases drive the DUT only as its
// neighbours would: packets and PFC frames in, packets and PFC frames out,
// and credits. For the injection clauses (NET-2.3, NET-8.8) the local port
// is instead the DUT's own network interface, which a case hands packets
// as the transport engine would.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/common/bytes.h"
#include "models/network/route_header.h"
#include "models/topology/topology.h"
#include "systemc/app/scenario_lossless.h"
#include "systemc/common/register_master.h"
#include "systemc/conformance/router_peer.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"
#include "systemc/transport/router_flow_control.h"

namespace lq::conformance {

// A broken router variant (router_mutants.h): scenario keys that mis-set
// it, PFC frames it never takes in, or an edit of the packets it sends.
struct RouterMutant {
  std::vector<std::pair<std::string, std::string>> keys;
  bool loses_pfc_frames = false;
  std::function<void(Bytes& packet)> sends;
};

struct RouterBenchOptions {
  // The scenario keys the DUT is built with, beyond the defaults: e.g.
  // {"transport.cc", "lqcc"} picks the lqcc marking profile (TRN-9.3).
  std::vector<std::pair<std::string, std::string>> keys;
  // The DUT's network interface at the local port (following the router's
  // registers, as on a card) instead of a peer.
  bool interface_at_local_port = false;
  // The node whose router is under test; a switch's router has no local
  // port (NET-1.1).
  topo::NodeId node = 0;
};

// A packet as a neighbour sends it: `header`'s wire bytes with its HCRC
// (NET-2.1), then `frame`.
Bytes RoutedPacket(const net::RouteHeader& header, ByteView frame);

class RouterBench {
 public:
  // Throws std::invalid_argument if the keys cannot make a router.
  RouterBench(const RouterBenchOptions& options, const RouterMutant* mutant);
  ~RouterBench();

  net::Router& dut() { return *router_; }
  transport::RouterFlowControl& flow() { return *flow_; }
  RouterPeer& peer(unsigned port) { return *peers_.at(port); }
  // The DUT's network interface (interface_at_local_port only).
  net::NetworkInterface& interface() { return *interface_; }
  // net.initial_ttl, which the interface writes in each header it builds.
  uint8_t initial_ttl() const { return initial_ttl_; }
  // The neighbour node beyond network port `port`.
  uint16_t neighbour(unsigned port) const;
  // A bus master on the DUT's register block (NET-5.6): firmware's view.
  RegisterMaster& dut_csr() { return *csr_; }
  const app::LosslessRouter& config() const { return config_; }
  const topo::Topology& topology() const { return *topology_; }

  // A DATA packet (routing header + `frame`) of class `tc` from the node
  // beyond `from` to the node beyond `to`: what the peer at `from` sends
  // for the DUT to forward out of `to`.
  Bytes Packet(unsigned from, unsigned to, uint8_t tc, ByteView frame,
               unsigned vc_class = 0) const;
  // The VC a neighbour sends class `tc` on: the one of `vc_class` in its
  // set (NET-3.5's TC_MAP).
  unsigned VcOf(uint8_t tc, unsigned vc_class = 0) const;

 private:
  std::shared_ptr<const topo::Topology> topology_;
  topo::NodeId node_ = 0;  // the DUT's
  app::LosslessRouter config_;
  std::unique_ptr<net::Router> router_;
  std::unique_ptr<transport::RouterFlowControl> flow_;
  std::vector<std::unique_ptr<RouterPeer>> peers_;
  std::unique_ptr<net::NetworkInterface> interface_;
  uint8_t initial_ttl_ = 0;
  std::unique_ptr<RegisterMaster> csr_;
};

}  // namespace lq::conformance
