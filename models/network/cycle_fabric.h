// SPDX-License-Identifier: Apache-2.0
// CycleFabric: a whole network study's routers, network interfaces and
// ideal links as one compact, cycle-stepped kernel (decision 0025). It
// models the same router as systemc/network/Router (docs/spec/net.md
// section 8: input-buffered VCs, credits per VC in flits, separable
// round-robin or iSLIP allocation, the RC/VA/SA/ST pipeline, all set by one
// RouterParams) and the same Bernoulli sources, at flit level: a packet is a
// number of flits, not bytes, and one loop steps every busy router once per
// cycle, in node order through state laid out for that walk (decision
// 0039). What it leaves out: payload bytes and header checks, faults and
// failover, PFC, ECN and collectives (the SystemC kernel's network study does
// those).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <random>
#include <string>
#include <vector>

#include "models/network/node_calendar.h"
#include "models/network/router_params.h"
#include "models/network/router_workspace.h"
#include "models/network/traffic_pattern.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"

namespace lq::net {

class SeparableAllocator;
class VcAllocator;
struct PacketState;

// The routers' parameters (RouterParams, shared with the SystemC router),
// the links' and the sources'.
struct CycleFabricConfig : RouterParams {
  unsigned link_cycles = 2;  // a flit's and a credit's time on a link
  // net.interface_cycles: a flit's and a credit's time on the channel
  // between an interface and its router, each way, beyond the one cycle a
  // flit takes to enter.
  unsigned interface_cycles = 0;
  unsigned flits_per_packet = 1;
  uint8_t initial_ttl = 64;  // NET-2.4
  // Sources: Bernoulli injection per endpoint, seeded seed + node.
  double packets_per_cycle = 0;
  uint64_t packets_per_node = 0;  // 0: no limit
  uint64_t stop_cycle = 0;        // no injection from then on (0: never)
  uint64_t seed = 1;
  // A deadlock is declared after this many cycles without a flit crossing
  // any crossbar while packets are held (0: never).
  uint64_t watchdog_cycles = 10000;
};

// What one router counted of its packets.
struct CyclePacketCounts {
  uint64_t injected = 0;   // packets admitted at the local port
  uint64_t ejected = 0;    // packets delivered to the local port
  uint64_t forwarded = 0;  // packets sent on to a neighbour
  uint64_t hops = 0;       // links crossed by the packets ejected
  uint64_t drops_no_route = 0;
  uint64_t drops_ttl = 0;
};

// What one router counted: its packets, per port the flits in and out,
// and per output VC its credit stalls in cycles (OutputUnit).
struct CycleRouterCounts : CyclePacketCounts {
  std::vector<uint64_t> flits_in, flits_out;  // per port, the local last
  std::vector<uint64_t> stall_cycles;         // per output VC, port * VCs + vc
};

// A packet handed up at its destination endpoint.
struct CycleDelivery {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint64_t created = 0;    // the cycle the source made it
  uint64_t delivered = 0;  // the cycle its last flit reached the interface
  uint32_t hops = 0;       // links crossed
};

class CycleFabric {
 public:
  // Throws std::invalid_argument for a configuration no router could have
  // (no VCs, a routing function needing more classes, zero-cycle stages).
  CycleFabric(std::shared_ptr<const topo::RoutingFunction> routing,
              std::shared_ptr<const TrafficPattern> pattern,
              const CycleFabricConfig& config);
  ~CycleFabric();

  // Called for every packet delivered, in delivery order.
  void SetDeliveryHook(std::function<void(const CycleDelivery&)> hook) {
    on_delivery_ = std::move(hook);
  }

  // Runs until `cycle` (exclusive), or until a deadlock is declared.
  void RunUntil(uint64_t cycle);
  // Runs until every source has sent its packets and all are delivered
  // (packets_per_node > 0), or a deadlock; false if neither happened by
  // `limit`.
  bool RunToCompletion(uint64_t limit);

  uint64_t now() const { return now_; }
  unsigned endpoints() const { return endpoints_; }
  unsigned links() const { return links_; }
  uint64_t sent() const { return sent_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t dropped() const { return dropped_; }  // no route or TTL spent
  uint64_t in_flight() const { return sent_ - delivered_ - dropped_; }
  // Flits moved through all crossbars, and flit-hops (flits over links).
  uint64_t flits_switched() const { return flits_switched_; }
  uint64_t flit_hops() const { return flit_hops_; }

  // Every router's counters so far, in node order, and the port router
  // `node`'s interface is on (its port count if it has none).
  std::vector<CycleRouterCounts> RouterCounts() const;
  unsigned local_port(uint32_t node) const;

  bool deadlocked() const { return deadlocked_; }
  uint64_t deadlock_cycle() const { return deadlock_cycle_; }
  // The cycle of input VCs waiting on one another, as the SystemC
  // watchdog names it: "router3.port0.vc0 -> router0.port1.vc0 -> ...".
  const std::string& deadlock_report() const { return deadlock_report_; }

 private:
  struct Router;
  struct Source;
  // A flit or credit on its way to `node`'s `port`, VC `vc`. A flit
  // carries its packet's handle, destination and links crossed; a credit
  // its count in `packet` and kCredit in `dst`.
  struct Event {
    static constexpr uint32_t kCredit = UINT32_MAX;
    uint32_t node;
    uint32_t packet;
    uint32_t dst;
    uint16_t port;
    uint8_t vc;
    uint8_t hops;
    bool credit() const { return dst == kCredit; }
  };

  void Step();
  void DeliverEvents();
  void StepRouter(Router& router);
  // Puts a router in the busy list: stepped every cycle.
  void MarkBusy(Router& router);
  // One round of switch allocation (NET-8.3, NET-8.11) and its grants.
  void AllocateSwitch(Router& router);
  // Takes out the dropped packets at input VC i's head whose flits have
  // all come; whether the VC still holds a packet.
  bool DrainDropped(Router& router, unsigned i);
  void SendFlit(Router& router, unsigned port, unsigned vc);
  void AllocateVcs(Router& router);
  void Route(Router& router, unsigned input, PacketState& head);
  void StepSource(Source& source);
  // A flit of `packet` (to `dst`, `hops` links crossed), or `count`
  // credits, to `node`'s `port`, VC `vc`, due `delay` cycles from now.
  void ScheduleFlit(uint64_t delay, uint32_t node, unsigned port, unsigned vc,
                    uint32_t packet, uint32_t dst, unsigned hops);
  void ScheduleCredits(uint64_t delay, uint32_t node, unsigned port,
                       unsigned vc, uint32_t count);
  void CheckWatchdog();
  std::string FindWaitCycle() const;
  uint32_t NewPacket(uint32_t src, uint32_t dst);

  std::shared_ptr<const topo::RoutingFunction> routing_;
  std::shared_ptr<const TrafficPattern> pattern_;
  CycleFabricConfig config_;
  unsigned vcs_;
  bool adaptive_;  // the routing function has an adaptive class
  unsigned endpoints_ = 0;
  unsigned links_ = 0;

  // What a packet's flits do not carry, read where it is made and where it
  // leaves.
  struct PacketRecord {
    uint32_t src, dst;
    uint64_t created;
  };
  std::vector<PacketRecord> packets_;
  std::vector<uint32_t> free_packets_;

  // The routers' state, in node order, from an arena that keeps each
  // router's together (decision 0039), and what few steps touch (the rings
  // of packets behind their input VCs' heads, their stall counts) from
  // another.
  std::pmr::monotonic_buffer_resource router_memory_, cold_memory_;
  std::vector<Router> routers_;
  // A bit per router stepped this cycle: holding packets, awake.
  std::vector<uint64_t> busy_routers_;
  std::vector<uint32_t> stepping_;  // this cycle's busy routers, in order
  // Routers asleep, by the cycle they wake modulo the wheel's size.
  std::vector<std::vector<uint32_t>> sleepers_;
  std::vector<Source> sources_;
  std::vector<uint32_t> busy_sources_;  // with packets waiting to go
  std::vector<uint32_t> injecting_;     // sources making a packet this cycle
  NodeCalendar injections_;             // the cycles sources make packets
  // Flits and credits on their way, by due cycle modulo the wheel's size.
  std::vector<std::vector<Event>> wheel_;
  // The allocators' working state, shared by the routers in turn (each
  // keeps its own arbiters' pointers), and other per-step scratch.
  RouterWorkspace workspace_;
  std::vector<unsigned> dirty_;  // a router's inputs with freed flits
  // An input or output VC's index in a router, i = port * VCs + vc, split.
  std::vector<uint16_t> port_of_;
  std::vector<uint8_t> vc_of_;

  uint64_t now_ = 0;
  uint64_t sent_ = 0, delivered_ = 0, dropped_ = 0;
  uint64_t flits_switched_ = 0, flit_hops_ = 0;
  uint64_t held_ = 0;  // packets inside routers or on links
  uint64_t last_progress_ = 0;
  bool deadlocked_ = false;
  uint64_t deadlock_cycle_ = 0;
  std::string deadlock_report_;
  std::function<void(const CycleDelivery&)> on_delivery_;
};

}  // namespace lq::net
