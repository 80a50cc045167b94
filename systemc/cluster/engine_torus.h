// SPDX-License-Identifier: Apache-2.0
// A test fabric for transport engines: a torus of the stack's cards on
// ideal links (cluster::Cluster), each node with a memory the test can read
// and write.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/roce/packet.h"
#include "models/roce/pfc.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "systemc/network/router.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/node_memories.h"

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
  std::shared_ptr<cluster::Cluster> cards;  // every node's, kept alive
  net::Router* router = nullptr;
  TransportEngine* engine = nullptr;
  std::unique_ptr<TestMemory> memory;
  RouterFlowControl* flow = nullptr;  // with TorusOptions::flow_control
  uint32_t rkey = 0;  // of a region of the whole memory, every right
};

// How BuildTorus makes each node (EngineFabricConfig), and the size of
// each node's memory.
struct TorusOptions : EngineFabricConfig {
  size_t memory_bytes = 1 << 20;
  // False: no region registered, for a workload that registers its own
  // (RegisterFirstRegion); EngineNode::rkey is then 0.
  bool register_memory = true;
};

// A torus of routers with ring sizes `dims` ("4", "4x8x8") and dor, with an
// engine and a memory at each node, joined port to port (ideal links, no
// latency), and flow control if asked. Each node registers its whole
// memory for remote access (TRN-6.14) under EngineNode::rkey, unless
// options.register_memory is false.
inline std::vector<EngineNode> BuildTorus(const std::string& dims,
                                          const TorusOptions& options) {
  auto topology = topo::CreateTopology("torus", {{"dims", dims}}).value();
  const auto cards = std::make_shared<cluster::Cluster>(
      sc_core::sc_gen_unique_name("torus"),
      cluster::EngineCards(topo::CreateRouting("dor", topology, {}).value(),
                           options),
      topology);
  std::vector<EngineNode> nodes(cards->node_count());
  for (size_t n = 0; n < nodes.size(); ++n) {
    cluster::Node& card = cards->node(static_cast<unsigned>(n));
    nodes[n].cards = cards;
    nodes[n].router = card.router();
    nodes[n].engine = card.transport();
    nodes[n].flow = card.flow_control();
    nodes[n].memory = std::make_unique<TestMemory>(
        ("memory" + std::to_string(n)).c_str(), options.memory_bytes);
    nodes[n].engine->memory.bind(nodes[n].memory->socket);
    if (options.register_memory) {
      nodes[n].rkey = nodes[n].engine->RegisterMemory(
          {0, options.memory_bytes, kRemoteAll});
    }
  }
  return nodes;
}

// The engines of `nodes`, by node.
inline std::vector<TransportEngine*> Engines(std::vector<EngineNode>& nodes) {
  std::vector<TransportEngine*> engines;
  for (EngineNode& node : nodes) {
    engines.push_back(node.engine);
  }
  return engines;
}

// A workload's reach into the test memories of `nodes`, by node.
inline NodeMemories TestMemories(std::vector<EngineNode>& nodes) {
  NodeMemories memories;
  memories.write = [&nodes](unsigned node, uint64_t address,
                            const Bytes& bytes) {
    std::copy(bytes.begin(), bytes.end(),
              nodes[node].memory->bytes.begin() + address);
  };
  memories.read = [&nodes](unsigned node, uint64_t address, uint32_t length) {
    return ByteView(nodes[node].memory->bytes.data() + address, length);
  };
  return memories;
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
  link.max_packet_bytes = LargestBufferedPacketBytes(kLosslessPmtu);
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
  options.router.vc_buffer_flits = static_cast<unsigned>(
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

// TRN-5.6 between node `a` and node `b` (ConnectQps of the engines).
inline std::optional<QpPair> ConnectQps(
    std::vector<EngineNode>& nodes, unsigned a, unsigned b,
    uint32_t pmtu = 1024, std::optional<std::string> congestion = std::nullopt,
    uint8_t timeout = QpAttributes{}.timeout) {
  return ConnectQps(*nodes[a].engine, *nodes[b].engine, pmtu,
                    std::move(congestion), timeout);
}

}  // namespace lq::transport
