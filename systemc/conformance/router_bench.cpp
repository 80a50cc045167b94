// SPDX-License-Identifier: Apache-2.0
// RouterBench: the router under test and its neighbours.
#include "systemc/conformance/router_bench.h"

#include <stdexcept>
#include <string>

#include "models/network/route_header.h"
#include "models/phy/link_profile.h"
#include "systemc/app/network_study.h"
#include "systemc/app/run_command.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router_registers.h"

namespace lq::conformance {

namespace {

constexpr uint8_t kTtl = 32;

// Takes `keys` into `params`; throws on one it refuses.
void SetKeys(ParamSet& params,
             const std::vector<std::pair<std::string, std::string>>& keys) {
  for (const auto& [key, value] : keys) {
    if (auto problem = params.Set(key, value)) {
      throw std::invalid_argument(key + ": " + *problem);
    }
  }
}

}  // namespace

Bytes RoutedPacket(const net::RouteHeader& header, ByteView frame) {
  Bytes packet(net::kRouteHeaderBytes);
  net::EncodeRouteHeader(header, packet.data());
  packet.insert(packet.end(), frame.begin(), frame.end());
  return packet;
}

RouterBench::RouterBench(const RouterBenchOptions& options,
                         const RouterMutant* mutant) {
  ParamSet params(app::ScenarioParamSpecs());
  SetKeys(params, options.keys);
  if (mutant) {
    SetKeys(params, mutant->keys);
  }
  auto routed = app::ScenarioRoutedTopology(params);
  if (!routed) {
    throw std::invalid_argument(routed.error().reason);
  }
  topology_ = routed->topology;
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  auto config = app::ScenarioLosslessRouter(
      params, routed->routing, profile,
      static_cast<uint32_t>(params.Integer("transport.pmtu")),
      params.Text("transport.cc"));
  if (!config) {
    throw std::invalid_argument(config.error().reason);
  }
  config_ = *config;
  net::RouterConfig router = config_.router;
  node_ = options.node;
  if (node_ >= topology_->NodeCount()) {
    throw std::invalid_argument("the topology has no node " +
                                std::to_string(node_));
  }
  router.node = node_;
  router.network_ports = topology_->PortCount(node_);
  router.local_port = topology_->IsEndpoint(node_);
  if (options.interface_at_local_port && !router.local_port) {
    throw std::invalid_argument("node " + std::to_string(node_) +
                                " is a switch: it has no local port");
  }
  router.nodes = topology_->EndpointCount();
  router_ = std::make_unique<net::Router>("dut", router);
  flow_ = std::make_unique<transport::RouterFlowControl>("dut_flow", *router_,
                                                         config_.plan.flow);
  csr_ = std::make_unique<RegisterMaster>("dut_csr");
  csr_->socket.bind(router_->csr());
  RouterPeerConfig peer;
  peer.slot_bytes = router.slot_bytes;
  peer.vcs = router_->vcs();
  peer.nodes = router.nodes;
  peer.max_payload = router.max_payload;
  peer.gap = sc_core::sc_time(router.clock_ns, sc_core::SC_NS);
  peer.loses_control = mutant && mutant->loses_pfc_frames;
  if (mutant) {
    peer.mutate_received = mutant->sends;
  }
  for (unsigned p = 0; p < router_->port_count(); ++p) {
    if (p == router_->local_port() && options.interface_at_local_port) {
      break;
    }
    peers_.push_back(std::make_unique<RouterPeer>(
        ("peer" + std::to_string(p)).c_str(), peer));
    Connect(router_->port(p), peers_.back()->socket);
  }
  if (options.interface_at_local_port) {
    net::NetworkInterfaceConfig local = app::InterfaceFor(router);
    local.node = node_;
    local.nodes = router.nodes;
    local.max_payload = router.max_payload;
    initial_ttl_ = local.initial_ttl;
    interface_ = std::make_unique<net::NetworkInterface>("dut_interface", local,
                                                         [](net::Delivered) {});
    Connect(router_->port(router_->local_port()), interface_->socket);
    router_->registers().SetHooks(net::LocalPortHooks(*interface_));
    router_->registers().PresetMode(params.Text("routing.name"));
  }
}

RouterBench::~RouterBench() = default;

uint16_t RouterBench::neighbour(unsigned port) const {
  if (port == router_->local_port()) {
    return node_;
  }
  return static_cast<uint16_t>(topology_->Neighbour(node_, port).value().node);
}

unsigned RouterBench::VcOf(uint8_t tc, unsigned vc_class) const {
  return net::DefaultTcMap(config_.router.vc_sets).at(tc) *
             config_.router.vc_classes +
         vc_class;
}

Bytes RouterBench::Packet(unsigned from, unsigned to, uint8_t tc,
                          ByteView frame, unsigned vc_class) const {
  net::RouteHeader header;
  header.kind = static_cast<uint8_t>(net::PacketKind::kData);
  header.tc = tc;
  header.dst = neighbour(to);
  header.src = neighbour(from);
  header.epoch = router_->epoch();
  header.vc = static_cast<uint8_t>(VcOf(tc, vc_class));
  header.ttl = kTtl;
  header.len = static_cast<uint16_t>(frame.size());
  return RoutedPacket(header, frame);
}

}  // namespace lq::conformance
