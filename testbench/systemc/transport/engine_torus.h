// A test fabric for transport engines: a torus of routers, each node with a
// transport engine and a memory the test can read, and TRN-5.6's set-up
// agent.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/network/route_header.h"
#include "models/roce/packet.h"
#include "models/roce/pfc.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/router.h"
#include "systemc/transport/router_flow_control.h"
#include "systemc/transport/transport_engine.h"
#include "testbench/systemc/network/router_node.h"

namespace lq::transport {

// A node's memory: a byte array behind a TLM target, open to the test.
class TestMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TestMemory> socket;
  Bytes bytes;

  TestMemory(const sc_core::sc_module_name& name, size_t size)
      : sc_module(name), socket("socket"), bytes(size) {
    socket.register_b_transport(this, &TestMemory::BTransport);
  }

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const uint64_t at = trans.get_address();
    const size_t length = trans.get_data_length();
    if (at + length > bytes.size()) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (trans.is_write()) {
      std::copy_n(trans.get_data_ptr(), length, bytes.begin() + at);
    } else {
      std::copy_n(bytes.begin() + at, length, trans.get_data_ptr());
    }
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct EngineNode {
  std::unique_ptr<net::Router> router;
  std::unique_ptr<TransportEngine> engine;
  std::unique_ptr<TestMemory> memory;
  std::unique_ptr<RouterFlowControl> flow;  // with TorusOptions::flow_control
  uint32_t rkey = 0;  // of a region of the whole memory, every right
};

// How BuildTorus makes each node: `router` and `engine` are templates whose
// node, ports, routing and size fields it fills in.
struct TorusOptions {
  net::DeliveryFaults faults;
  size_t memory_bytes = 1 << 20;
  net::RouterConfig router;
  TransportEngineConfig engine;
  // PFC and ECN marking at every router (TRN-8, TRN-9), seeded per node.
  std::optional<FlowControlConfig> flow_control;
};

// A torus of routers with ring sizes `dims` ("4", "4x8x8") and dor, with an
// engine and a memory at each node, joined port to port (no link latency),
// and flow control if asked; `options.faults` apply at every node's
// interface (NET-8.10), seeded per node. Each node registers its whole
// memory for remote access (TRN-6.14) under EngineNode::rkey.
inline std::vector<EngineNode> BuildTorus(const std::string& dims,
                                          const TorusOptions& options) {
  auto topology = topo::CreateTopology("torus", {{"dims", dims}}).value();
  const unsigned count = topology->EndpointCount();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {}).value();
  std::vector<EngineNode> nodes(count);
  for (unsigned n = 0; n < count; ++n) {
    net::RouterConfig router = options.router;
    router.node = n;
    router.network_ports = topology->PortCount(n);
    router.routing = routing;
    router.nodes = count;
    const std::string id = std::to_string(n);
    nodes[n].router =
        std::make_unique<net::Router>(("router" + id).c_str(), router);
    TransportEngineConfig engine = options.engine;
    engine.node = n;
    engine.interface.nodes = count;
    engine.interface.faults = options.faults;
    engine.interface.faults.seed = options.faults.seed * 64 + n;
    nodes[n].engine =
        std::make_unique<TransportEngine>(("engine" + id).c_str(), engine);
    nodes[n].memory = std::make_unique<TestMemory>(("memory" + id).c_str(),
                                                   options.memory_bytes);
    nodes[n].engine->memory.bind(nodes[n].memory->socket);
    nodes[n].rkey =
        nodes[n].engine->RegisterMemory({0, options.memory_bytes, kRemoteAll});
    Connect(nodes[n].router->port(nodes[n].router->local_port()),
            nodes[n].engine->network());
    if (options.flow_control) {
      FlowControlConfig flow = *options.flow_control;
      flow.seed = flow.seed * 64 + n;
      nodes[n].flow = std::make_unique<RouterFlowControl>(
          ("flow" + id).c_str(), *nodes[n].router, flow);
      nodes[n].flow->AttachInterface(nodes[n].engine->interface());
    }
  }
  net::CableRouters(*topology, nodes);
  if (options.flow_control) {
    for (topo::NodeId n = 0; n < count; ++n) {
      for (topo::PortId p = 0; p < topology->PortCount(n); ++p) {
        const auto far = topology->Neighbour(n, p).value();
        RouterFlowControl::Cable(*nodes[n].flow, p, *nodes[far.node].flow,
                                 far.port);
      }
    }
  }
  return nodes;
}

inline std::vector<EngineNode> BuildTorus(const std::string& dims,
                                          const net::DeliveryFaults& faults,
                                          size_t memory_bytes = 1 << 20) {
  TorusOptions options;
  options.faults = faults;
  options.memory_bytes = memory_bytes;
  return BuildTorus(dims, options);
}

// A lossless fabric for congestion studies: pcie6-like ports (a 236-byte
// slot every 2 ns: 944 Gb/s of goodput), 4 KiB path MTU, PFC with TRN-8's
// defaults at every router.
inline constexpr double kLosslessClockNs = 2.0;
inline constexpr double kLosslessGoodputBps = 944e9;
inline constexpr uint64_t kLosslessRawRateBps = 1'024'000'000'000;
inline constexpr uint32_t kLosslessPmtu = 4096;
inline constexpr uint8_t kDataPriority = roce::PriorityOfDscp(roce::kDscpData);

// TRN-8.9: what one (input, priority) must hold there: XOFF plus the
// headroom of a port whose PFC messages take one slot time (routers are
// joined port to port).
inline uint64_t LosslessBufferBytes(const PfcParams& pfc) {
  roce::HeadroomInputs link;
  link.max_packet_bytes =
      roce::FrameSize(roce::Opcode::kWriteMiddle, kLosslessPmtu) +
      net::kRouteHeaderBytes;
  link.goodput_bps = static_cast<uint64_t>(kLosslessGoodputBps);
  link.flit_ps = static_cast<uint64_t>(kLosslessClockNs * 1000);
  link.react_ps = pfc.react_ps;
  return pfc.xoff_bytes + roce::PfcHeadroomBytes(link);
}

// That fabric, with ECN marking by the profile `marking` names (TRN-9.3)
// on the data priority and QPs using `congestion` unless they choose
// otherwise. Every VC holds LosslessBufferBytes(), so that credits never
// bind before PFC does.
inline TorusOptions LosslessTorusOptions(const std::string& congestion,
                                         const std::string& marking,
                                         size_t memory_bytes) {
  TorusOptions options;
  options.memory_bytes = memory_bytes;
  FlowControlConfig flow;
  flow.line_rate_bps = kLosslessRawRateBps;
  flow.message_delay = sc_core::sc_time(kLosslessClockNs, sc_core::SC_NS);
  flow.ecn[kDataPriority] = EcnProfileNamed(marking).value();
  const size_t slot = options.router.slot_bytes;
  options.router.clock_ns = kLosslessClockNs;
  options.router.vc_buffer_slots = static_cast<unsigned>(
      (LosslessBufferBytes(flow.pfc_params) + slot - 1) / slot);
  options.engine.interface.clock_ns = kLosslessClockNs;
  options.engine.congestion = congestion;
  options.engine.congestion_params.line_rate_bps = kLosslessGoodputBps;
  options.flow_control = flow;
  return options;
}

inline Bytes Pattern(size_t size, uint8_t seed) {
  Bytes bytes(size);
  for (size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 8));
  }
  return bytes;
}

// TRN-5.6's agent, step 2: both QPs to INIT; false if either refuses.
inline bool InitQps(TransportEngine& a, uint32_t qa, TransportEngine& b,
                    uint32_t qb) {
  QpModify init;
  init.to = QpState::kInit;
  return a.ModifyQp(qa, init).ok() && b.ModifyQp(qb, init).ok();
}

// Steps 4 and 5: each to RTR with its peer, `pmtu` and `congestion` (the
// engine's when none), then to RTS with the local ACK timeout code
// `timeout`; false if any modify fails.
inline bool ReadyQps(TransportEngine& a, uint32_t qa, uint32_t node_a,
                     TransportEngine& b, uint32_t qb, uint32_t node_b,
                     uint32_t pmtu = 1024,
                     std::optional<std::string> congestion = std::nullopt,
                     uint8_t timeout = QpAttributes{}.timeout) {
  QpModify rtr;
  rtr.to = QpState::kRtr;
  rtr.pmtu = pmtu;
  rtr.congestion_control = std::move(congestion);
  rtr.remote_node = node_b;
  rtr.remote_qpn = qb;
  if (!a.ModifyQp(qa, rtr).ok()) {
    return false;
  }
  rtr.remote_node = node_a;
  rtr.remote_qpn = qa;
  QpModify rts;
  rts.to = QpState::kRts;
  rts.timeout = timeout;
  return b.ModifyQp(qb, rtr).ok() && a.ModifyQp(qa, rts).ok() &&
         b.ModifyQp(qb, rts).ok();
}

// The QPNs of a connected pair, on node `a` and node `b`.
struct QpPair {
  uint32_t a = 0;
  uint32_t b = 0;
};

// TRN-5.6 whole: a new QP on node `a` and one on node `b`, taken to RTS as
// a connection with `pmtu`, `congestion` and `timeout`; nothing if a step
// failed.
inline std::optional<QpPair> ConnectQps(
    std::vector<EngineNode>& nodes, unsigned a, unsigned b,
    uint32_t pmtu = 1024, std::optional<std::string> congestion = std::nullopt,
    uint8_t timeout = QpAttributes{}.timeout) {
  TransportEngine& ea = *nodes[a].engine;
  TransportEngine& eb = *nodes[b].engine;
  const QpPair pair{ea.CreateQp(), eb.CreateQp()};
  if (!InitQps(ea, pair.a, eb, pair.b) ||
      !ReadyQps(ea, pair.a, a, eb, pair.b, b, pmtu, std::move(congestion),
                timeout)) {
    return std::nullopt;
  }
  return pair;
}

}  // namespace lq::transport
