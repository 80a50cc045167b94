// SPDX-License-Identifier: Apache-2.0
// Router: one node's input-buffered virtual-channel router (docs/spec/net.md
// section 8): wormhole switching with per-packet VC allocation, credit-based
// flow control in payload slots, a separable allocator (input-first
// round-robin or iSLIP), and the RC/VA/SA/ST pipeline in router cycles.
// Ports 0..P-1 face the node's link controllers, port P an endpoint's
// network interface (a switch has no port P); all are slot sockets.
// Event-driven: a router with nothing to move schedules nothing, and a cycle's
// work is proportional to the input VCs that hold packets (the input unit's
// work lists), not to the router's size.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/reuse_pool.h"
#include "models/common/sorted_queue.h"
#include "models/network/mgmt_message.h"
#include "models/network/packet_pool.h"
#include "models/network/route_header.h"
#include "models/network/router_core.h"
#include "models/network/router_params.h"
#include "models/network/router_workspace.h"
#include "models/network/routing_banks.h"
#include "models/network/separable_allocator.h"
#include "models/network/vc_allocator.h"
#include "models/network/vc_stream.h"
#include "models/topology/routing.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/csr_socket.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/stat_list.h"
#include "systemc/link/slot_socket.h"
#include "systemc/network/router_clock.h"

namespace lq::net {

class RouterRegisters;

// A router's parameters (RouterParams, shared with the cycle kernel) and
// what places it in a node and on a clock.
struct RouterConfig : RouterParams {
  topo::NodeId node = 0;
  unsigned network_ports = 0;  // P; port P is the local port
  bool local_port = true;      // false: a switch (NET-1), ports 0..P-1 only
  std::shared_ptr<const topo::RoutingFunction> routing;
  uint32_t nodes = 1;           // N, for header checks (NET-2.10)
  size_t slot_bytes = 236;      // the links' payload slot (PHY-2.4)
  double clock_ns = 1.0;        // router.clock
  uint16_t max_payload = 9216;  // net.max_payload
  // The clock that runs the router, shared by a network's routers
  // (decision 0049); nullptr: the router makes one of its own.
  std::shared_ptr<RouterClock> clock;
  // The pool of the fabric the router belongs to, shared with the routers
  // it is joined to by ideal links (decision 0053); nullptr: a pool of its
  // own.
  std::shared_ptr<PacketPool> pool;
  // The allocators' working state, shared by the routers the clock steps
  // one at a time (decision 0053); nullptr: one of its own.
  std::shared_ptr<RouterWorkspace> workspace;
};

// NET-8.9's counters.
struct RouterCounters {
  uint64_t injected = 0;
  uint64_t ejected = 0;
  uint64_t forwarded = 0;
  uint64_t hops = 0;
  uint64_t drops_ttl = 0;
  uint64_t drops_header = 0;
  uint64_t stream_errors = 0;
  uint64_t drops_no_route = 0;
  uint64_t drops_link_down = 0;    // NET-7.1
  uint64_t drops_stale_epoch = 0;  // NET-7.7
  uint64_t drops_node_down = 0;    // NET-7.8: lost inside a failed node
  // Link control messages that arrived with no hook to take them.
  uint64_t control_ignored = 0;
  // MGMT packets (NET-7.4), which the counters above leave out so that the
  // fabric manager's drain sums count DATA packets only (NET-7.7).
  uint64_t mgmt_injected = 0;
  uint64_t mgmt_ejected = 0;
  uint64_t mgmt_forwarded = 0;
  uint64_t mgmt_dropped = 0;

  // Packets dropped for any reason (NET-7.8: each counted exactly once).
  uint64_t Dropped() const {
    return drops_ttl + drops_header + stream_errors + FailureDropped();
  }
  // Those a failed link or node caused (NET-7): packets with no way on,
  // lost inside a dead node, from the old epoch, or with no route left.
  uint64_t FailureDropped() const {
    return drops_link_down + drops_node_down + drops_stale_epoch +
           drops_no_route;
  }
};

// What a router counted at its ports, for its statistics: per port its
// flits in and out; per VC, index port * VCs + vc, its output's credit
// stalls in cycles and its input's peak occupancy in slots (empty where a
// kernel does not track it).
struct RouterPortCounts {
  std::vector<uint64_t> flits_in, flits_out;
  std::vector<uint64_t> stall_cycles, peak_slots;
};

// Where the transport layer's ECN marking and PFC attach (NET-8.6, NET-8.7).
// Unset hooks cost nothing.
struct RouterHooks {
  // A DATA packet of traffic class `tc` is arriving at input `in_port`, where
  // `held_bytes` of that class were already waiting: the queue it joins in
  // this input-buffered router. Called once per packet, when its first
  // `inspect_bytes` after the routing header (or all of a shorter one) are
  // in `packet`, and before any of it leaves (a slot leaves only when full,
  // so `inspect_bytes` may be at most a slot less the routing header). The
  // hook may edit those bytes (e.g. set CE).
  std::function<void(unsigned in_port, uint8_t tc, uint64_t held_bytes,
                     Bytes& packet)>
      on_ingress_arrival;
  size_t inspect_bytes = 0;
  // The bytes held at input `in_port` for traffic class `tc` in VC class
  // `vc_class` changed to `bytes` (the local port's are all VC class 0).
  std::function<void(unsigned in_port, uint8_t tc, unsigned vc_class,
                     uint64_t bytes)>
      on_ingress_change;
  // A link control message (dll.md §11) arrived on port `in_port`, `delay`
  // past the kernel's time. Without this hook it is counted and dropped.
  std::function<void(unsigned in_port, Bytes message,
                     const sc_core::sc_time& delay)>
      on_control;
};

// What the head packet of one input VC is waiting for, for the deadlock
// watchdog: the output VC it holds or wants.
struct HeadWait {
  unsigned in_port = 0;
  unsigned in_vc = 0;
  unsigned out_port = 0;
  unsigned out_vc = 0;
};

class Router;

// Joins port `a_port` of `a` and port `b_port` of `b`, routers of one
// fabric (sharing a pool), by an ideal link of `latency` (decision 0053):
// packets cross it as chunks of the pool, credits and control messages
// directly, each `latency` after it was sent. The ports' sockets are bound
// to each other, as SystemC wants every socket bound; nothing crosses
// them. Throws std::invalid_argument if the routers share no pool.
void JoinRouters(Router& a, unsigned a_port, Router& b, unsigned b_port,
                 const sc_core::sc_time& latency);

class Router : public sc_core::sc_module, private RouterClock::Client {
 public:
  static constexpr unsigned kTrafficClasses = 8;

  Router(const sc_core::sc_module_name& name, const RouterConfig& config);
  ~Router() override;

  // Port p's socket: network ports to link controllers, an endpoint's last
  // one to the network interface.
  link::SlotSocket& port(unsigned p);
  unsigned port_count() const {
    return config_.network_ports + (config_.local_port ? 1 : 0);
  }
  // Port P; a switch has none, and no packet is routed to it there.
  unsigned local_port() const { return config_.network_ports; }
  unsigned vcs() const { return vcs_; }
  unsigned vc_classes() const { return config_.vc_classes; }
  topo::NodeId node() const { return config_.node; }

  // The register block (NET-5.6, docs/registers/router.md): its bus socket,
  // and the block itself for the node builder to hook the local port to.
  CsrTargetSocket& csr();
  RouterRegisters& registers() { return *registers_; }

  // Throws std::invalid_argument if hooks.inspect_bytes exceeds a slot
  // less the routing header.
  void SetHooks(RouterHooks hooks);
  // Reports slots in and out to `probe` (nullptr: none).
  void set_probe(PathProbe* probe) { probe_ = probe; }
  // PFC (NET-8.7, TRN-8.11): while paused, VC allocation starts no new
  // packet of traffic class `tc` on a VC of class `vc_class` of
  // `out_port`; packets already under way finish.
  void SetPaused(unsigned out_port, uint8_t tc, unsigned vc_class, bool paused);
  // Sends a link control message to the neighbour on `out_port` (TRN-8.3):
  // beside the packets, not through the router's queues.
  void SendControl(unsigned out_port, Bytes message,
                   const sc_core::sc_time& delay);
  bool paused(unsigned out_port, uint8_t tc, unsigned vc_class) const {
    return paused_[(out_port * kTrafficClasses + tc) * config_.vc_classes +
                   vc_class];
  }
  // Bytes of class `tc` routed to `out_port` and still in this router
  // (NET-8.6), and bytes held at input `in_port` for class `tc` (NET-8.7).
  uint64_t egress_bytes(unsigned out_port, uint8_t tc) const {
    return egress_bytes_[out_port * kTrafficClasses + tc];
  }
  uint64_t ingress_bytes(unsigned in_port, uint8_t tc) const {
    return ingress_bytes_[in_port * kTrafficClasses + tc];
  }

  // NET-7.1: the link on network port `port` went down. Packets routed to
  // it that have not started are dropped (drops_link_down), one partly
  // sent is cut (its receiver counts it), later routes to it drop. Packets
  // arriving on it partly received are dropped after `flush`, once every
  // slot sent before the failure has landed. The port stays down until
  // SetPortUp.
  void SetPortDown(unsigned port, const sc_core::sc_time& flush);
  // NET-7.1: the link on network port `port` came back up. The mark is
  // cleared: routes may select the port again, once the neighbour grants
  // credits, and this router grants the neighbour the room its input VCs
  // on the port have (a flush still pending for the port is done first).
  void SetPortUp(unsigned port);
  bool port_down(unsigned port) const { return port_down_.at(port); }
  // The node failed (NET-7.8). Its packets are lost and counted
  // (drops_node_down): those it holds or that are on their way in — all
  // but those it had begun to send to a neighbour, which counts them as cut
  // (NET-7.1) — and, of the `handed_over` packets its network interface
  // let in or lost before (NetworkInterface::injected()), those whose
  // header never reached it, plus `never_admitted`; those two kinds count
  // as injected as well. It moves and answers nothing from then on.
  void Fail(uint64_t handed_over, uint64_t never_admitted);
  bool failed() const { return failed_; }
  // The failed node came back (NET-7.12): empty, every VC free, EPOCH 0,
  // every port still down until SetPortUp (the local port's grants the
  // interface its injection buffer). The table banks keep what they held;
  // the fabric manager rewrites them before any packet is routed here.
  // Counters carry on.
  void Restore();

  // Routing banks (NET-5.6, NET-7.7): the fabric manager writes the shadow
  // bank; SwitchRouting() makes it active for every packet routed from now
  // on and flips the epoch. A DATA packet whose EPOCH differs from the
  // router's is dropped (drops_stale_epoch).
  void WriteShadowRouting(std::shared_ptr<const topo::RoutingFunction> routing);
  void SwitchRouting();
  uint8_t epoch() const { return banks_.epoch(); }
  // MGMT_PARENT_PORT (NET-7.4): where MGMT packets for the fabric manager
  // go; kNoParentPort ejects them here, at the manager's node.
  void SetMgmtParentPort(uint8_t port) { mgmt_parent_port_ = port; }
  uint8_t mgmt_parent_port() const { return mgmt_parent_port_; }
  const topo::RoutingFunction& routing() const { return banks_.active(); }

  const RouterCounters& counters() const { return counters_; }
  uint64_t flits_in(unsigned p) const;
  uint64_t flits_out(unsigned p) const;
  // Slots moved through the crossbar since construction: the watchdog's
  // measure of progress.
  uint64_t slots_moved() const { return slots_moved_; }
  // Packets whose header has arrived and whose last byte has not left.
  uint64_t packets_held() const { return packets_held_; }
  // The routed head packet of every input VC that holds one.
  std::vector<HeadWait> HeadWaits() const;
  StatList Stats() const;
  static const ComponentDecl& Declaration();
  // A router's statistics, named `prefix` + the declared names, from what
  // it counted; its interface is on port `local` (named "local"). Both
  // network kernels report through it.
  static StatList StatsOf(const RouterCounters& counters,
                          const RouterPortCounts& ports, unsigned local,
                          const std::string& prefix);

 private:
  friend void JoinRouters(Router& a, unsigned a_port, Router& b,
                          unsigned b_port, const sc_core::sc_time& latency);
  class PortEnd;

  // What a packet in an input VC carries beside its pipeline state (the
  // core's PacketState, whose `packet` is its index in bodies_), from its
  // header's arrival to its last byte's departure.
  struct PacketBody {
    RouteHeader header;
    // Its bytes in the fabric's pool: header + payload as far as they have
    // reached the router that received them from outside the fabric.
    uint32_t pooled = PacketPool::kNone;
    size_t received = 0;         // bytes arrived, also for a discarded packet
    size_t total = 0;            // header + LEN
    size_t sent = 0;             // bytes moved through the crossbar
    bool enqueued = false;       // counted in egress_bytes_ at out_port
    bool cut = false;            // truncated after forwarding began: its last
                                 // slot out is followed by an abort (NET-7.1)
    bool source_routed = false;  // MGMT on its SR: SR_PTR + 1 (NET-7.4)
  };
  // An input VC's byte stream: its parser and the slots of its buffer.
  struct InputStream {
    std::unique_ptr<SlotParser> parser;
    uint64_t arrived_bytes = 0;  // slot bytes received (padding included)
    uint64_t held_bytes = 0;     // bytes of live packets not yet sent
    uint64_t credits_returned = 0;
    uint64_t peak_slots = 0;  // most slots the VC's buffer held at once
    bool dirty = false;       // in dirty_inputs_: credits may be due
  };
  // What crosses an ideal link from a router of the fabric in place of a
  // slot (decision 0053): the next `bytes` of a pooled packet (its header
  // first when `first`), held once for the trip, on `vc`; or, with `abort`,
  // the end of the packet in progress on `vc` (NET-7.1).
  struct Chunk {
    uint32_t packet = PacketPool::kNone;
    unsigned bytes = 0;
    unsigned vc = 0;
    bool first = false;
    bool abort = false;
  };
  // Where a network port joined within the fabric sends its chunks.
  struct FabricPeer {
    Router* router = nullptr;  // nullptr: the port sends slots
    unsigned port = 0;
    sc_core::sc_time latency;
  };
  // A slot, chunk or credit on its way in. Arrivals are taken in order of
  // time, then of port, then of the calls that made them due on one port
  // (NET-8.12), the earliest first. A chunk or a credit is held whole here;
  // a slot's bytes wait in slots_in_.
  struct Arrival {
    enum class Kind : uint8_t { kSlot, kChunk, kCredit };
    uint64_t due;     // ticks
    uint64_t order;   // port << kPortShift | call number
    uint32_t packet;  // kChunk: in the pool, held for the trip; kSlot: its
                      // bytes in slots_in_ (kNone for an abort)
    uint32_t count;   // kCredit: credits; kChunk: bytes
    uint8_t vc;
    Kind kind;
    bool first;  // kChunk: the packet's header comes first
    bool abort;  // kSlot, kChunk: the packet in progress ends (NET-7.1)
    unsigned port() const { return static_cast<unsigned>(order >> kPortShift); }
    bool operator<(const Arrival& other) const {
      return due != other.due ? due < other.due : order < other.order;
    }
  };
  static constexpr unsigned kPortShift = 48;
  void OnSlot(unsigned port, link::Slot slot, const sc_core::sc_time& delay);
  void OnChunk(unsigned port, const Chunk& chunk,
               const sc_core::sc_time& delay);
  void OnCredit(unsigned port, unsigned vc, unsigned count,
                const sc_core::sc_time& delay);
  void OnControl(unsigned port, Bytes message, const sc_core::sc_time& delay);
  void OnClock() override { Cycle(); }
  void Cycle();  // one router cycle, then asks the clock for the next
  void start_of_simulation() override;

  void DeliverUntil(const sc_core::sc_time& until);  // arrivals due by then
  void Deliver(const Arrival& arrival);
  // Queues an arrival on `port` due at `due` ticks, numbering the call
  // (NET-8.12).
  void PushArrival(uint64_t due, unsigned port, Arrival arrival);
  // A slot from outside the fabric, through the VC's parser and its
  // checks (NET-2.10), its bytes into the pool; and a chunk from a router
  // of the fabric, whose bytes are in the pool already.
  void AcceptSlot(unsigned port, unsigned vc, const Bytes& slot);
  void AcceptChunk(const Arrival& chunk);
  // A new packet at the tail of input VC `vc`, whose header has arrived;
  // the body holds its reference to `pooled`.
  void AcceptHeader(unsigned port, unsigned vc, const RouteHeader& header,
                    uint32_t pooled);
  // `bytes` more of the packet at the tail of input VC `vc` have arrived.
  void AcceptPayload(unsigned port, unsigned vc, size_t bytes);
  // Calls on_ingress_arrival if `packet`, which had `had` bytes before its
  // latest chunk, now has the bytes the hook inspects.
  void InspectArrival(unsigned port, PacketBody& packet, size_t had);
  // The packet still arriving at the tail of input VC `vc`, if any, ends
  // with the bytes it has (Truncate).
  void EndPartialPacket(unsigned port, unsigned vc, bool count_drop);
  void Route(unsigned port, unsigned vc, PacketState& packet);
  // NET-7.4: a MGMT packet goes up the management tree or along its source
  // route, on VC set S-1, class 0, whatever the routing function.
  void RouteMgmt(unsigned port, unsigned vc, PacketState& packet);
  // Whether the bytes routing needs have arrived: the header, and for a
  // MGMT packet its message header with the source route.
  bool Routable(const PacketBody& packet) const;
  // Counts a dropped packet: in `counter` for DATA, mgmt_dropped for MGMT.
  void CountDrop(const PacketBody& packet, uint64_t RouterCounters::*counter);
  void Enqueue(const PacketState& packet);
  // Routed to a down port, or adaptive with every productive port down.
  bool Stranded(const PacketState& packet);
  bool AdaptiveWayOpen(const PacketState& packet);  // a productive port up
  void Discard(unsigned port, unsigned vc, PacketState& packet);
  void FlushInputs();  // SC_METHOD: NET-7.1's receive side, when due
  // Drops what arrived partly on `port`'s input VCs and restarts their
  // parsers (NET-7.1).
  void FlushPort(unsigned port);
  // Ends `packet` at the bytes it has: dropped if none went on, else its
  // last slot out carries an abort (NET-7.1). Counts drops_link_down if
  // asked.
  void Truncate(unsigned port, unsigned vc, PacketState& packet,
                bool count_drop);
  // A cut packet whose every byte has gone: abort it downstream, free its
  // output VC and let it go.
  void FinishCut(unsigned port, unsigned vc);
  void RouteHeads(const sc_core::sc_time& now);
  void AllocateVcs(const sc_core::sc_time& now);
  // Takes out the dropped packets at input VC i's head whose bytes have
  // all come; whether the VC still holds a packet.
  bool DrainDropped(unsigned i);
  void Send(unsigned in_port, unsigned in_vc);
  // The edits of the hop to the packet's first bytes, in the pool: the
  // header's but its HCRC (NET-2.4, NET-8.3), the IPv4 TTL (TRN-1.7) and
  // SR_PTR (NET-7.4).
  void EditFirstBytes(const PacketState& head, const PacketBody& packet,
                      size_t chunk);
  // The next `chunk` bytes of `packet` (from its byte `sent`) in a slot on
  // `out_vc`; the first slot's header gets its HCRC.
  link::Slot SlotOf(const PacketBody& packet, size_t chunk, unsigned out_vc);
  // Room for `count` more slots in input VC `vc` of `port`, to its sender
  // (NET-8.2).
  void SendCredit(unsigned port, unsigned vc, unsigned count);
  // NET-8.11's output queue: the delay after which a slot granted to
  // `port` now would leave.
  sc_core::sc_time DepartureDelay(unsigned port) const;
  void ReturnCredits(unsigned index);
  // Slots' worth of bytes that left input VC `in` (NET-8.2): sent, padding
  // or dropped.
  uint64_t FreedSlots(const InputStream& in) const {
    return (in.arrived_bytes - in.held_bytes) / config_.slot_bytes;
  }
  void ScheduleNext(const sc_core::sc_time& now);
  // Runs a cycle `delay` from now (and the earliest of several asked for).
  void Wake(const sc_core::sc_time& delay) { clock_->Wake(*this, delay); }
  // The time the router's shared core counts in: SystemC time units, as
  // the clock that runs it knows them.
  uint64_t Now() const { return clock_->Now(); }

  // Bookkeeping of the bytes a packet holds, per input and per output.
  void HoldBytes(unsigned port, unsigned vc, const PacketState& packet,
                 int64_t delta);
  // A body for a new packet, and its return once the packet has gone.
  uint32_t NewBody();
  void FreeBody(uint32_t id);
  PacketBody& body(const PacketState& packet) { return bodies_[packet.packet]; }
  const PacketBody& body(const PacketState& packet) const {
    return bodies_[packet.packet];
  }
  // The slots of `packet` that may leave: those whose bytes have all
  // arrived, the last one once the packet's last byte has.
  void CountArrivedSlots(PacketState& packet, const PacketBody& body) const;
  uint64_t ticks(unsigned cycles) const { return period_.value() * cycles; }
  void MarkDirty(unsigned index);

  unsigned index(unsigned port, unsigned vc) const { return port * vcs_ + vc; }
  InputStream& stream(unsigned port, unsigned vc) {
    return streams_[index(port, vc)];
  }

  RouterConfig config_;
  RoutingBanks banks_;
  uint8_t mgmt_parent_port_ = kNoParentPort;
  std::vector<bool> port_down_;
  bool failed_ = false;
  std::deque<std::pair<sc_core::sc_time, unsigned>> flushes_;  // due, port
  sc_core::sc_event flush_due_;
  unsigned vcs_;
  sc_core::sc_time period_;
  std::vector<std::unique_ptr<PortEnd>> ends_;
  std::vector<FabricPeer> peers_;  // per port
  std::shared_ptr<PacketPool> pool_;
  // Its input VCs' packets (NET-8.1), output VCs and allocators' pointers;
  // ticks are SystemC time units. A VC has room for a few packets behind
  // its head to start with: NET-8.2 counts bytes, so a VC may hold more
  // packets than slots, and widens.
  static constexpr unsigned kInitialPacketsBehind = 4;
  RouterCore core_;
  std::vector<InputStream> streams_;  // each input VC's bytes
  ReusePool<PacketBody> bodies_;      // indexed by PacketState::packet
  SortedQueue<Arrival> arrivals_;
  ReusePool<Bytes> slots_in_;  // the bytes of the slots in arrivals_
  // Buffers of slots delivered here, reused for slots sent: a router sends
  // about as many slots as it receives on edges, so few are ever
  // allocated.
  static constexpr size_t kSpareSlots = 16;
  std::vector<Bytes> spare_slots_;
  std::vector<SlotParser::Event> events_;  // Deliver()'s, reused
  uint64_t next_arrival_ = 0;
  RouterHooks hooks_;
  PathProbe* probe_ = nullptr;
  std::unique_ptr<RouterRegisters> registers_;
  std::vector<bool> paused_;             // [out_port][tc][vc class]
  std::vector<uint64_t> egress_bytes_;   // [out_port][tc]
  std::vector<uint64_t> ingress_bytes_;  // [in_port][tc]
  std::vector<uint64_t> class_bytes_;    // [in_port][tc][vc class]

  // The input VCs whose credits may be due this cycle.
  std::vector<unsigned> dirty_inputs_;

  // The allocators' working state (NET-8.3, NET-8.5), shared with the
  // routers stepped beside it.
  std::shared_ptr<RouterWorkspace> workspace_;

  std::vector<uint64_t> flits_in_;  // per port; flits out: core_.outputs
  RouterCounters counters_;
  uint64_t slots_moved_ = 0;
  uint64_t packets_held_ = 0;
  bool progress_ = false;  // this cycle routed, allocated or moved something
  bool ran_once_ = false;
  sc_core::sc_time last_cycle_;  // when Cycle() last ran
  std::shared_ptr<RouterClock> clock_;
};

// Why `config` cannot make a router (RouterParamsProblem for its routing
// function), or nothing.
std::optional<std::string> RouterConfigProblem(const RouterConfig& config);

}  // namespace lq::net
