// A test fabric for transport engines: a torus of routers, each node with a
// transport engine and a memory the test can read, and TRN-5.6's set-up
// agent.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/router.h"
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
};

// A torus of routers with ring sizes `dims` ("4", "4x8x8") and dor, with an
// engine and a memory of `memory_bytes` at each node, joined port to port (no
// link latency); `faults` apply at every node's interface (NET-8.10), seeded
// per node.
inline std::vector<EngineNode> BuildTorus(const std::string& dims,
                                          const net::DeliveryFaults& faults,
                                          size_t memory_bytes = 1 << 20) {
  auto topology = topo::CreateTopology("torus", {{"dims", dims}}).value();
  const unsigned count = topology->EndpointCount();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {}).value();
  std::vector<EngineNode> nodes(count);
  for (unsigned n = 0; n < count; ++n) {
    net::RouterConfig router;
    router.node = n;
    router.network_ports = topology->PortCount(n);
    router.routing = routing;
    router.nodes = count;
    const std::string id = std::to_string(n);
    nodes[n].router =
        std::make_unique<net::Router>(("router" + id).c_str(), router);
    TransportEngineConfig engine;
    engine.node = n;
    engine.interface.nodes = count;
    engine.interface.faults = faults;
    engine.interface.faults.seed = faults.seed * 64 + n;
    nodes[n].engine =
        std::make_unique<TransportEngine>(("engine" + id).c_str(), engine);
    nodes[n].memory =
        std::make_unique<TestMemory>(("memory" + id).c_str(), memory_bytes);
    nodes[n].engine->memory.bind(nodes[n].memory->socket);
    Connect(nodes[n].router->port(nodes[n].router->local_port()),
            nodes[n].engine->network());
  }
  net::CableRouters(*topology, nodes);
  return nodes;
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

// Steps 4 and 5: each to RTR with its peer, then to RTS; false if any
// modify fails.
inline bool ReadyQps(TransportEngine& a, uint32_t qa, uint32_t node_a,
                     TransportEngine& b, uint32_t qb, uint32_t node_b) {
  QpModify rtr;
  rtr.to = QpState::kRtr;
  rtr.pmtu = 1024;
  rtr.remote_node = node_b;
  rtr.remote_qpn = qb;
  if (!a.ModifyQp(qa, rtr).ok()) {
    return false;
  }
  rtr.remote_node = node_a;
  rtr.remote_qpn = qa;
  QpModify rts;
  rts.to = QpState::kRts;
  return b.ModifyQp(qb, rtr).ok() && a.ModifyQp(qa, rts).ok() &&
         b.ModifyQp(qb, rts).ok();
}

}  // namespace lq::transport
