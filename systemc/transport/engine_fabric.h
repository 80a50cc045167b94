// SPDX-License-Identifier: Apache-2.0
// EngineFabric: the transport layer's part in a fabric of cards (built by
// cluster::Cluster): each card's router, engine and flow-control settings
// (EngineFabricConfig), the figures of the cards summed, and TRN-5.6's
// set-up agent, which connects QPs through the engines' API.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/network/route_header.h"
#include "models/roce/packet.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"
#include "systemc/transport/router_flow_control.h"
#include "systemc/transport/transport_engine.h"

namespace lq::transport {

// `router` and `engine` are templates whose node, ports, routing and size
// fields the builder fills in per node.
struct EngineFabricConfig {
  net::RouterConfig router;
  TransportEngineConfig engine;
  // Drops and corruption at every node's interface (NET-8.10), seeded per
  // node from faults.seed.
  net::DeliveryFaults faults;
  // PFC and ECN marking at every router (TRN-8, TRN-9), seeded per node.
  std::optional<FlowControlConfig> flow_control;
};

// What a fabric's routers, flow control and engines counted, summed over
// the nodes (TRN-8.10, TRN-9, the engines' counters).
struct FabricFigures {
  uint64_t pfc_frames = 0, xoff_frames = 0;
  double pause_us = 0;  // of the data priority, summed over every output
  uint64_t ecn_marked = 0;
  uint64_t router_drops = 0;
  uint64_t packets_sent = 0, retransmits = 0, cnps = 0;
  uint64_t bad_packets = 0, duplicates = 0;
  uint64_t work_posted = 0, work_completed = 0, work_failed = 0;

  void Add(const FabricFigures& other);
};

// Sums the figures of `nodes` (anything with router, engine and flow
// members; a switch has no engine and may have no
// flow control); `data_priority` is the TC whose pause time counts.
template <typename Nodes>
FabricFigures SumFigures(const Nodes& nodes, uint8_t data_priority) {
  FabricFigures sum;
  for (const auto& node : nodes) {
    if (node.flow) {
      const FlowControlCounters& flow = node.flow->counters();
      sum.pfc_frames += flow.pfc_frames;
      sum.xoff_frames += flow.xoff_frames;
      sum.ecn_marked += flow.ecn_marked;
      for (unsigned p = 0; p < node.router->port_count(); ++p) {
        sum.pause_us += node.flow->paused_ps(p, data_priority) / 1e6;
      }
    }
    sum.router_drops += node.router->counters().Dropped();
    if (!node.engine) {
      continue;  // a switch
    }
    const EngineCounters& engine = node.engine->counters();
    sum.packets_sent += engine.packets_sent;
    sum.retransmits += engine.retransmits;
    sum.cnps += engine.cnps_sent;
    sum.bad_packets += engine.bad_packets;
    sum.duplicates += engine.duplicates;
    sum.work_posted += engine.work_posted;
    sum.work_completed += engine.work_completed;
    sum.work_failed += engine.work_failed;
  }
  return sum;
}

// TRN-8.8's S_max at path MTU `pmtu`: the largest packet a router buffers,
// a full WRITE MIDDLE frame with its NET routing header.
inline uint64_t LargestBufferedPacketBytes(uint32_t pmtu) {
  return roce::FrameSize(roce::Opcode::kWriteMiddle, pmtu) +
         net::kRouteHeaderBytes;
}

// TRN-5.6's agent, step 2: both QPs to INIT; false if either refuses.
bool InitQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb);

// Steps 4 and 5: each to RTR with its peer, `pmtu` and `congestion` (the
// engine's when none), then to RTS with the local ACK timeout code
// `timeout`; false if any modify fails.
bool ReadyQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb,
              uint32_t pmtu = 1024,
              std::optional<std::string> congestion = std::nullopt,
              uint8_t timeout = QpAttributes{}.timeout);

// The QPNs of a connected pair, on engine `a` and engine `b`.
struct QpPair {
  uint32_t a = 0;
  uint32_t b = 0;
};

// TRN-5.6 whole: a new QP on each engine, taken to RTS as a connection
// with `pmtu`, `congestion` and `timeout`; nothing if a step failed.
std::optional<QpPair> ConnectQps(
    TransportEngine& a, TransportEngine& b, uint32_t pmtu = 1024,
    std::optional<std::string> congestion = std::nullopt,
    uint8_t timeout = QpAttributes{}.timeout);

// Calls `handler(n)` from an SC_METHOD each time engine n's completion
// event fires (one method per engine, spawned now): a workload's way to
// take its completions as they happen, without a thread per node. A
// nullptr engine (another rank's) has none.
void OnCompletions(const std::vector<TransportEngine*>& engines,
                   const std::function<void(unsigned node)>& handler);

// The R_Key of the first region a new engine registers, `region`,
// registered on `engine` unless it is nullptr (another rank's, which
// registers it there): every rank names it alike (TRN-6.14). Throws
// std::logic_error if the engine had registered a region before.
uint32_t RegisterFirstRegion(TransportEngine* engine,
                             const MemoryRegion& region);

// ConnectQps for each ordered (source, destination) pair of `pairs`, in
// their order, the source's engine as `a`; `congestion` empty: the
// engines'. An engine that is nullptr is on another rank (decision 0050):
// a pair with one end here connects that end alone, to the QPN the far
// engine gives its QP (TRN-5.4: the engines are new, so the k-th QP made
// on one is TransportEngine::NthQpn(k)), as the far rank connects its end.
// Throws std::invalid_argument naming a pair that failed, and
// std::logic_error if an engine was not new.
std::vector<QpPair> ConnectPairs(
    const std::vector<TransportEngine*>& engines,
    const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint32_t pmtu,
    const std::string& congestion);

}  // namespace lq::transport
