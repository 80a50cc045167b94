// One card of the interim fabric: a traffic source that sends RoCEv2 SEND
// packets to random peers, a router that forwards on the topology's routing
// function, and a sink that checks every delivered packet end to end.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <systemc>
#include <utility>
#include <vector>

#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/common/delay_line.h"
#include "systemc/fabric/fabric_ifs.h"

namespace lq::fabric {

struct TrafficConfig {
  uint64_t messages = 0;       // Messages this node sends.
  uint32_t message_bytes = 0;  // Transport payload bytes per message.
  sc_core::sc_time mean_gap;   // Mean of the exponential inter-send gap.
};

struct NodeConfig {
  topo::NodeId id = 0;
  std::shared_ptr<const topo::RoutingFunction> routing;
  sc_core::sc_time router_latency;  // Input to output, per hop.
  TrafficConfig traffic;
  uint64_t seed = 1;
  bool capture = false;  // Keep every packet sent or delivered here.
};

// A packet as it was seen at a node, for pcap captures.
struct CapturedPacket {
  uint64_t time_ps;
  Bytes frame;
};

// What a node observed as the destination of traffic.
struct NodeCounters {
  uint64_t sent = 0;
  uint64_t delivered = 0;
  uint64_t duplicated = 0;  // Same (source, sequence) seen again.
  uint64_t reordered = 0;   // Arrived after a later one from the same source.
  uint64_t corrupted = 0;   // Failed the ICRC or the payload check.
  uint64_t unroutable = 0;  // Dropped: the routing function had no route.
  uint64_t ttl_drops = 0;   // Dropped: the IPv4 TTL ran out (NET-2.4).
  uint64_t forwarded = 0;   // Packets this node routed on to another node.
  uint64_t payload_bytes_delivered = 0;

  NodeCounters& operator+=(const NodeCounters& other);
};

class FabricNode : public sc_core::sc_module, public PacketSinkIf {
 public:
  // One port per topology port; ports without a neighbour stay unbound.
  sc_core::sc_vector<
      sc_core::sc_port<PacketLinkIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>>
      ports;

  FabricNode(sc_core::sc_module_name name, const NodeConfig& config);

  void Receive(int port, int vc, Bytes packet) override;

  const NodeCounters& counters() const { return counters_; }
  uint64_t expected_messages() const { return config_.traffic.messages; }
  uint64_t last_delivery_ps() const { return last_delivery_ps_; }
  // One-way latency (ns) and hop count of every packet delivered here.
  const std::vector<double>& latencies_ns() const { return latencies_ns_; }
  const std::vector<uint32_t>& hops() const { return hops_; }
  const std::vector<CapturedPacket>& captured() const { return captured_; }

 private:
  struct Arrival {
    int port;
    int vc;
    Bytes packet;
  };

  void Generate();  // SC_THREAD: the traffic source.
  void OnRouted();  // SC_METHOD: a packet leaves the router pipeline.
  void Forward(int in_port, int in_vc, Bytes packet);
  void Deliver(const Bytes& packet);
  Bytes MakeMessage(topo::NodeId destination, uint32_t sequence);
  void Capture(const Bytes& frame);
  // Updates the per-source sequence record; false for a duplicate.
  bool RecordSequence(topo::NodeId source, uint32_t sequence);

  NodeConfig config_;
  topo::NodeId id_;
  topo::PortId local_port_;
  std::mt19937_64 random_;
  DelayLine<Arrival> pipeline_;  // The router's fixed-latency pipeline.
  std::vector<uint32_t> next_sequence_to_;  // Per destination.
  // Per source: the next sequence expected, and earlier ones not yet seen.
  struct SourceRecord {
    uint32_t next = 0;
    std::set<uint32_t> missing;
  };
  std::map<topo::NodeId, SourceRecord> sources_;
  NodeCounters counters_;
  std::vector<double> latencies_ns_;
  std::vector<uint32_t> hops_;
  std::vector<CapturedPacket> captured_;
  uint64_t last_delivery_ps_ = 0;
};

}  // namespace lq::fabric
