// SPDX-License-Identifier: Apache-2.0
// CycleFabric: routers, interfaces and links stepped cycle by cycle.
#include "models/network/cycle_fabric.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

#include "models/network/input_unit.h"
#include "models/network/round_robin_round.h"
#include "models/network/router_core.h"
#include "models/network/separable_allocator.h"
#include "models/network/vc_allocator.h"
#include "models/network/wait_cycle.h"

namespace lq::net {
namespace {

constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();
constexpr size_t kCacheLine = 64;  // the unit of a prefetch

}  // namespace

// A router: the core's state, its ticks cycles, and where its ports lead.
// An input VC's buffer holds `vc_buffer_flits` flits, so never more packets
// than that behind its head: its ring never widens.
struct CycleFabric::Router : RouterCore {
  // The state the router's steps read comes from `memory`, in order, what
  // few touch from `cold_memory`.
  Router(uint32_t node_id, unsigned network_ports, bool endpoint,
         const RouterParams& params, std::pmr::memory_resource* memory,
         std::pmr::memory_resource* cold_memory)
      : RouterCore(network_ports + (endpoint ? 1 : 0), network_ports, params, 1,
                   params.vc_buffer_flits, memory, cold_memory),
        node(node_id),
        ports(network_ports + (endpoint ? 1 : 0)),
        far(network_ports, topo::PortRef{kNoNode, 0}, memory) {
    // Its state runs from the input VCs, allocated first, to `far`, last,
    // unless the arena began a new block in between; a prefetch is only a
    // hint, so that case is merely slower.
    state_ = reinterpret_cast<const char*>(&inputs.vc(0));
    const auto* end = reinterpret_cast<const char*>(far.data() + far.size());
    const size_t vcs_bytes = inputs.size() * sizeof(InputUnit::Vc);
    state_bytes_ = static_cast<uint32_t>(std::min<size_t>(
        end > state_ ? static_cast<size_t>(end - state_) : vcs_bytes,
        kMostPrefetched));
  }

  // Asks the CPU to fetch what a step of this router reads, as the walk
  // comes near it: the router itself, then (once that has arrived, since
  // it holds the way there) its state in the arena. On a network too big
  // for the cache, each step otherwise waits on a dozen misses in turn.
  void PrefetchSelf() const {
    const auto* self = reinterpret_cast<const char*>(this);
    for (size_t at = 0; at < sizeof(Router); at += kCacheLine) {
      __builtin_prefetch(self + at);
    }
  }
  void PrefetchState() const {
    for (size_t at = 0; at < state_bytes_; at += kCacheLine) {
      __builtin_prefetch(state_ + at);
    }
  }

  uint32_t node;
  unsigned ports;
  std::pmr::vector<topo::PortRef> far;  // per network port; kNoNode: none
  uint64_t held = 0;                    // packets in input VCs
  // In the busy list: stepped every cycle. A router holding packets but
  // not busy is asleep (see DeliverEvents).
  bool busy = false;
  CyclePacketCounts packets;

 private:
  // A step reads few of a big router's VCs: more than this is not worth
  // fetching ahead.
  static constexpr size_t kMostPrefetched = 32 * kCacheLine;
  const char* state_ = nullptr;
  uint32_t state_bytes_ = 0;
};

struct CycleFabric::Source {
  Source(uint32_t node_id, unsigned vcs, unsigned buffer, uint64_t seed,
         std::pmr::memory_resource* memory)
      : node(node_id),
        pending_packet(vcs, 0, memory),
        pending_flits(vcs, 0, memory),
        credits(vcs, buffer, memory),
        random(seed) {}

  // Asks the CPU to fetch what an injection reads: the source's fields
  // ahead of its random engine, and the engine's end, where libstdc++
  // keeps its position in the state.
  void Prefetch() const {
    const auto* self = reinterpret_cast<const char*>(this);
    const auto* engine = reinterpret_cast<const char*>(&random);
    for (const char* at = self; at < engine; at += kCacheLine) {
      __builtin_prefetch(at);
    }
    __builtin_prefetch(self + sizeof(Source) - 1);
  }

  uint32_t node;
  uint64_t sent = 0;             // packets made
  uint64_t flits_sent = 0;       // into the interface's channel
  std::deque<uint32_t> waiting;  // made, not yet admitted
  // Per VC: the admitted packet whose flits are still to go (NET-8.8: one
  // at a time, admitted whole).
  std::pmr::vector<uint32_t> pending_packet, pending_flits, credits;
  unsigned next_vc = 0;
  bool busy = false;
  std::mt19937_64 random;  // last: 2.5 KB, of which a draw reads two words
};

CycleFabric::CycleFabric(std::shared_ptr<const topo::RoutingFunction> routing,
                         std::shared_ptr<const TrafficPattern> pattern,
                         const CycleFabricConfig& config)
    : routing_(std::move(routing)),
      pattern_(std::move(pattern)),
      config_(config),
      vcs_(config.vcs()),
      adaptive_(routing_->AdaptiveClass().has_value()),
      injections_(routing_->topology().EndpointCount()),
      workspace_(config.islip_rounds()) {
  if (auto problem = RouterParamsProblem(config, routing_->VcClasses(),
                                         routing_->Name())) {
    throw std::invalid_argument(*problem);
  }
  if (config.flits_per_packet == 0 || config.link_cycles == 0) {
    throw std::invalid_argument("a packet has flits, a link takes a cycle");
  }
  constexpr unsigned kMostFlits = std::numeric_limits<uint16_t>::max();
  if (config.flits_per_packet > kMostFlits ||
      config.vc_buffer_flits >= kMostFlits) {
    throw std::invalid_argument(
        "the cycle kernel counts a packet's flits and a VC's packets in 16 "
        "bits: at most 65535 flits per packet and 65534 per VC buffer");
  }
  const topo::Topology& topology = routing_->topology();
  endpoints_ = topology.EndpointCount();
  routers_.reserve(topology.NodeCount());
  for (topo::NodeId n = 0; n < topology.NodeCount(); ++n) {
    const unsigned ports = topology.PortCount(n);
    Router* router =
        &routers_.emplace_back(n, ports, topology.IsEndpoint(n), config,
                               &router_memory_, &cold_memory_);
    for (topo::PortId p = 0; p < ports; ++p) {
      if (auto far = topology.Neighbour(n, p)) {
        router->far[p] = *far;
        links_ += far->node > n || (far->node == n && far->port > p);
        for (unsigned v = 0; v < vcs_; ++v) {
          router->outputs.Reset(p * vcs_ + v, config.vc_buffer_flits, 0);
        }
      }
    }
    if (topology.IsEndpoint(n)) {
      for (unsigned v = 0; v < vcs_; ++v) {
        router->outputs.Reset(  // the interface sinks all
            router->local_port() * vcs_ + v,
            std::numeric_limits<uint32_t>::max(), 0);
      }
    }
  }
  busy_routers_.assign((routers_.size() + 63) / 64, 0);
  sources_.reserve(endpoints_);
  for (uint32_t n = 0; n < endpoints_; ++n) {
    sources_.emplace_back(n, vcs_, config.vc_buffer_flits, config.seed + n,
                          &router_memory_);
    if (config.packets_per_cycle > 0) {
      injections_.Add(0, n);
    }
  }
  // The longest delay: a flit behind a full output queue, then the link,
  // or a credit over the link and then processed.
  const size_t longest = std::max(
      {config.sa_cycles + config.st_cycles + config.output_buffer_flits +
           config.link_cycles,
       config.link_cycles + config.credit_cycles, 1 + config.interface_cycles});
  size_t wheel = 1;
  while (wheel <= longest) {
    wheel *= 2;  // a mask, not a division, finds a cycle's slot
  }
  wheel_.resize(wheel);
  size_t sleepers = 1;  // an arriving packet's route computation ahead
  while (sleepers <= config.rc_cycles) {
    sleepers *= 2;
  }
  sleepers_.resize(sleepers);
  unsigned most_ports = 0;
  for (const Router& router : routers_) {
    most_ports = std::max(most_ports, router.ports);
  }
  workspace_.Fit(most_ports, vcs_, config.islip_rounds());
  for (unsigned i = 0; i < most_ports * vcs_; ++i) {
    port_of_.push_back(static_cast<uint16_t>(i / vcs_));
    vc_of_.push_back(static_cast<uint8_t>(i % vcs_));
  }
}

CycleFabric::~CycleFabric() = default;

void CycleFabric::RunUntil(uint64_t cycle) {
  while (now_ < cycle && !deadlocked_) {
    Step();
  }
}

bool CycleFabric::RunToCompletion(uint64_t limit) {
  const uint64_t expected = config_.packets_per_node * endpoints_;
  while (now_ < limit && !deadlocked_) {
    if (config_.packets_per_cycle <= 0 ||
        (sent_ == expected && delivered_ + dropped_ == sent_)) {
      return true;
    }
    Step();
  }
  return deadlocked_;
}

// One cycle: what the links bring, every busy router's pipeline, then the
// sources (which see the credits their routers returned this cycle, as
// the SystemC interface does).
void CycleFabric::Step() {
  DeliverEvents();
  std::vector<uint32_t>& waking = sleepers_[now_ & (sleepers_.size() - 1)];
  for (const uint32_t n : waking) {
    MarkBusy(routers_[n]);
  }
  waking.clear();
  // In node order: routers lie in memory in that order, so the walk
  // streams through them, fetching two routers ahead (Router::PrefetchSelf).
  // No step wakes another router for this cycle, so the list holds.
  stepping_.clear();
  for (size_t w = 0; w < busy_routers_.size(); ++w) {
    for (uint64_t bits = busy_routers_[w]; bits != 0; bits &= bits - 1) {
      stepping_.push_back(
          static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits)));
    }
  }
  for (size_t k = 0; k < stepping_.size(); ++k) {
    if (k + 2 < stepping_.size()) {
      routers_[stepping_[k + 2]].PrefetchSelf();
    }
    if (k + 1 < stepping_.size()) {
      routers_[stepping_[k + 1]].PrefetchState();
    }
    const uint32_t n = stepping_[k];
    Router& router = routers_[n];
    StepRouter(router);
    if (router.held == 0) {
      router.busy = false;
      busy_routers_[n / 64] &= ~(uint64_t{1} << (n % 64));
    }
  }
  // The sources due now, in node order, fetched together so that their
  // misses overlap.
  injecting_.clear();
  injections_.Take(now_, injecting_);
  for (const uint32_t n : injecting_) {
    sources_[n].Prefetch();
  }
  for (const uint32_t n : injecting_) {
    Source& source = sources_[n];
    const uint32_t dst = pattern_->Destination(n, source.random);
    source.waiting.push_back(NewPacket(n, dst));
    ++source.sent;
    ++sent_;
    if (!source.busy) {
      source.busy = true;
      busy_sources_.push_back(n);
    }
    // Bernoulli trials once per cycle: the gap to the next success is
    // geometric (TrafficSource draws the same numbers).
    if (config_.packets_per_node != 0 &&
        source.sent >= config_.packets_per_node) {
      continue;
    }
    const double p = std::min(config_.packets_per_cycle, 1.0);
    uint64_t gap = 1;
    if (p < 1.0) {
      std::geometric_distribution<uint64_t> cycles(p);
      gap = 1 + cycles(source.random);
    }
    if (config_.stop_cycle == 0 || now_ + gap < config_.stop_cycle) {
      injections_.Add(now_ + gap, n);
    }
  }
  for (size_t i = 0; i < busy_sources_.size();) {
    Source& source = sources_[busy_sources_[i]];
    StepSource(source);
    if (!source.busy) {
      busy_sources_[i] = busy_sources_.back();
      busy_sources_.pop_back();
    } else {
      ++i;
    }
  }
  CheckWatchdog();
  ++now_;
}

std::vector<CycleRouterCounts> CycleFabric::RouterCounts() const {
  // A port's flits in are those sent to it, by the neighbour at the link's
  // far end or by the interface, less those still on their way: nothing is
  // lost on an ideal link, and no step counts a flit as it arrives.
  std::vector<std::vector<uint64_t>> on_their_way(routers_.size());
  for (size_t n = 0; n < routers_.size(); ++n) {
    on_their_way[n].assign(routers_[n].ports, 0);
  }
  for (const std::vector<Event>& slot : wheel_) {
    for (const Event& event : slot) {
      if (!event.credit()) {
        ++on_their_way[event.node][event.port];
      }
    }
  }
  std::vector<CycleRouterCounts> all(routers_.size());
  for (size_t n = 0; n < routers_.size(); ++n) {
    const Router& r = routers_[n];
    CycleRouterCounts& counts = all[n];
    static_cast<CyclePacketCounts&>(counts) = r.packets;
    for (unsigned p = 0; p < r.ports; ++p) {
      uint64_t sent = 0;
      if (p == r.local_port()) {
        sent = sources_[n].flits_sent;
      } else if (r.far[p].node != kNoNode) {
        sent = routers_[r.far[p].node].outputs.flits_out(r.far[p].port);
      }
      counts.flits_in.push_back(sent - on_their_way[n][p]);
    }
    counts.flits_out = r.outputs.FlitsOut(r.ports);
    counts.stall_cycles = r.outputs.StallCycles(r.ports, now_);
  }
  return all;
}

unsigned CycleFabric::local_port(uint32_t node) const {
  return routers_.at(node).local_port();
}

// The record and the events below are written field by field where they
// are kept, not copied from the stack (decision 0058).
uint32_t CycleFabric::NewPacket(uint32_t src, uint32_t dst) {
  uint32_t id;
  if (!free_packets_.empty()) {
    id = free_packets_.back();
    free_packets_.pop_back();
  } else {
    id = static_cast<uint32_t>(packets_.size());
    packets_.emplace_back();
  }
  PacketRecord& record = packets_[id];
  record.src = src;
  record.dst = dst;
  record.created = now_;
  return id;
}

void CycleFabric::ScheduleFlit(uint64_t delay, uint32_t node, unsigned port,
                               unsigned vc, uint32_t packet, uint32_t dst,
                               unsigned hops) {
  Event& flit = wheel_[(now_ + delay) & (wheel_.size() - 1)].emplace_back();
  flit.node = node;
  flit.packet = packet;
  flit.dst = dst;
  flit.port = static_cast<uint16_t>(port);
  flit.vc = static_cast<uint8_t>(vc);
  flit.hops = static_cast<uint8_t>(hops);
}

void CycleFabric::ScheduleCredits(uint64_t delay, uint32_t node, unsigned port,
                                  unsigned vc, uint32_t count) {
  ScheduleFlit(delay, node, port, vc, count, Event::kCredit, 0);
}

void CycleFabric::DeliverEvents() {
  std::vector<Event>& due = wheel_[now_ & (wheel_.size() - 1)];
  for (const Event& event : due) {
    Router& router = routers_[event.node];
    const unsigned i = event.port * vcs_ + event.vc;
    if (event.credit()) {  // event.packet is a count
      if (event.port == router.local_port()) {
        sources_[event.node].credits[event.vc] += event.packet;
      } else {
        router.outputs.Grant(i, event.packet, now_);
      }
      continue;
    }
    if (!router.inputs.vc(i).empty()) {
      PacketState& tail = router.inputs.back(i);
      if (tail.packet == event.packet &&
          tail.arrived < config_.flits_per_packet) {
        ++tail.arrived;
        continue;
      }
    }
    if (event.port == router.local_port()) {
      ++router.packets.injected;
    }
    PacketState& entry = router.inputs.emplace_back(i);
    entry.packet = event.packet;
    entry.dst = event.dst;
    entry.hops = event.hops;
    entry.arrived = 1;
    entry.ready = now_ + config_.rc_cycles;
    ++router.held;
    // A router that held no packet sleeps until this one's route
    // computation is due, rc_cycles (at least 1) ahead: a step before then
    // would do nothing, as every stage waits for its head's `ready`, and
    // packets arriving meanwhile come due later. Once awake, it is stepped
    // every cycle until it holds no packet.
    if (!router.busy && router.held == 1) {
      sleepers_[entry.ready & (sleepers_.size() - 1)].push_back(event.node);
    }
  }
  due.clear();
}

void CycleFabric::MarkBusy(Router& r) {
  r.busy = true;
  busy_routers_[r.node / 64] |= uint64_t{1} << (r.node % 64);
}

void CycleFabric::StepRouter(Router& r) {
  // Switch allocation in `speedup` rounds (NET-8.11), before VC allocation
  // or after it as router.vc_reuse says (NET-8.3).
  if (config_.allocates_vcs_first()) {
    AllocateVcs(r);
  }
  for (unsigned round = 0; round < config_.speedup; ++round) {
    AllocateSwitch(r);
  }
  if (!config_.allocates_vcs_first()) {
    AllocateVcs(r);
  }
  r.EndAllocations();
  // Credits for the flits that left (NET-8.2): over the link, or at once
  // to the local interface.
  for (const unsigned i : dirty_) {
    InputUnit::Vc& in = r.inputs.vc(i);
    if (in.freed == 0) {
      continue;
    }
    const unsigned port = port_of_[i], vc = vc_of_[i];
    if (port == r.local_port() && config_.interface_cycles == 0) {
      sources_[r.node].credits[vc] += in.freed;
    } else if (port == r.local_port()) {
      ScheduleCredits(config_.interface_cycles, r.node, port, vc, in.freed);
    } else {
      const topo::PortRef far = r.far[port];
      ScheduleCredits(config_.link_cycles + config_.credit_cycles, far.node,
                      far.port, vc, in.freed);
    }
    in.freed = 0;
  }
  dirty_.clear();
}

// One round of switch allocation: the core's requests (an output whose
// queue is full, NET-8.11, takes none), then the grants.
void CycleFabric::AllocateSwitch(Router& r) {
  SeparableAllocator& allocator = workspace_.switch_allocator();
  r.RequestSwitch(
      allocator, now_, [this](unsigned i) { return port_of_[i]; },
      [this, &r](unsigned i) { return DrainDropped(r, i); });
  allocator.Allocate([this, &r](unsigned p, unsigned v) { SendFlit(r, p, v); });
}

// Rare (packets are dropped only for want of a route or of TTL), and kept
// out of AllocateSwitch: inlined there, it cost the common path 4 % more
// instructions through worse register allocation.
__attribute__((cold)) bool CycleFabric::DrainDropped(Router& r, unsigned i) {
  const unsigned flits = config_.flits_per_packet;
  InputUnit::Vc& in = r.inputs.vc(i);
  const auto complete = [flits](const PacketState& head) {
    return head.arrived == flits;
  };
  const auto gone = [&](const PacketState&) {
    in.freed += flits;
    dirty_.push_back(i);
    --r.held;
    --held_;
  };
  return r.inputs.DrainDropped(i, complete, gone);
}

void CycleFabric::SendFlit(Router& r, unsigned p, unsigned v) {
  const unsigned flits = config_.flits_per_packet;
  const unsigned i = p * vcs_ + v;
  InputUnit::Vc& in = r.inputs.vc(i);
  const PacketState& head = in.head;
  ++in.freed;
  dirty_.push_back(i);
  ++flits_switched_;
  last_progress_ = now_;
  // Switch allocation and crossbar traversal: the flit leaves that many
  // cycles after the grant, or in turn after the flits waiting at its
  // output (NET-8.11).
  const uint64_t departs = r.CrossSwitch(i, now_);
  const uint64_t leaves = departs - now_;
  if (head.out_port == r.local_port()) {
    if (head.sent == flits) {
      ++delivered_;
      --held_;
      ++r.packets.ejected;
      r.packets.hops += head.hops;
      if (on_delivery_) {
        const PacketRecord& packet = packets_[head.packet];
        on_delivery_({packet.src, packet.dst, packet.created,
                      departs + config_.interface_cycles, head.hops});
      }
      free_packets_.push_back(head.packet);
    }
  } else {
    ++flit_hops_;
    const topo::PortRef far = r.far[head.out_port];
    // Forwarded, the packet has crossed fewer links than its 8-bit TTL
    // (Route), so one more still fits in `hops`.
    ScheduleFlit(leaves + config_.link_cycles, far.node, far.port, head.out_vc,
                 head.packet, head.dst, head.hops + 1u);
  }
  if (head.sent == flits) {
    r.packets.forwarded += head.out_port != r.local_port();
    r.FinishHead(i, now_);
    --r.held;
  }
}

// Route computation (NET-4, NET-8.4) and VC allocation (NET-8.3, NET-4.3:
// ChooseOutputVc and VcAllocator). It comes after switch allocation, or
// before it, as router.vc_reuse says (StepRouter).
void CycleFabric::AllocateVcs(Router& r) {
  const VcChoiceContext at{config_, *routing_, r.node, r.local_port(),
                           r.outputs};
  const auto open = [](unsigned, unsigned) { return true; };
  workspace_.va().Clear(r.va);
  r.inputs.ForEachDueToAllocate(now_, [&](unsigned i) {
    PacketState& head = r.inputs.front(i);
    if (!head.routed) {
      Route(r, i, head);
    }
    if (head.discard) {
      return;
    }
    // Only an adaptive choice reads the source (FirstCandidate).
    const uint32_t src = head.adaptive ? packets_[head.packet].src : 0;
    const RoutedHead routed{src,           head.dst,    vc_of_[i],
                            head.out_port, head.out_vc, head.adaptive};
    unsigned o;
    if (ChooseOutputVc(at, routed, open, workspace_.candidates(), o)) {
      workspace_.va().Request(i, o);
    }
  });
  workspace_.va().Allocate([&](unsigned i, unsigned o) {
    r.TakeOutputVc(i, port_of_[o], vc_of_[o], now_, now_ + config_.va_cycles);
  });
}

// The packet at the head of input `i` of `r` takes its route (NET-4), or is
// dropped: no route, or its TTL spent (NET-2.4).
void CycleFabric::Route(Router& r, unsigned i, PacketState& head) {
  const unsigned port = port_of_[i], vc = vc_of_[i];
  const unsigned in_class = r.InputClass(port, vc);
  topo::RouteStep step;
  const bool routed =
      routing_->TryRoute(r.node, port, in_class, head.dst, step);
  if (!routed ||
      (step.port != r.local_port() && head.hops >= config_.initial_ttl)) {
    head.routed = true;
    head.discard = true;
    r.inputs.Allocated(i);
    ++dropped_;
    ++(routed ? r.packets.drops_ttl : r.packets.drops_no_route);
    return;
  }
  r.TakeRoute(head, vc, step,
              adaptive_ && routing_->ChoosesAdaptively(
                               port, in_class, step.port, r.local_port()));
}

// The interface admits waiting packets whole (NET-8.8), each into the VC
// of set 0 with the most room once that VC has none of another packet's
// flits left, and sends at most one flit per cycle, round-robin over VCs.
void CycleFabric::StepSource(Source& s) {
  while (!s.waiting.empty()) {
    const auto room = [&s](unsigned v) {
      return static_cast<int64_t>(s.credits[v]) -
             static_cast<int64_t>(s.pending_flits[v]);
    };
    unsigned best = 0;
    for (unsigned v = 1; v < config_.vc_classes; ++v) {
      if (room(v) > room(best)) {
        best = v;
      }
    }
    if (s.pending_flits[best] > 0) {
      break;
    }
    s.pending_packet[best] = s.waiting.front();
    s.pending_flits[best] = config_.flits_per_packet;
    s.waiting.pop_front();
  }
  bool more = false;
  unsigned v = s.next_vc;
  for (unsigned k = 0; k < vcs_; ++k, v = RoundRobinRound::Next(v, vcs_)) {
    if (s.credits[v] == 0 || s.pending_flits[v] == 0) {
      continue;
    }
    if (s.pending_flits[v] == config_.flits_per_packet) {
      ++held_;  // the head flit enters the network
    }
    --s.credits[v];
    --s.pending_flits[v];
    ++s.flits_sent;
    const uint32_t packet = s.pending_packet[v];
    ScheduleFlit(1 + config_.interface_cycles, s.node,
                 routers_[s.node].local_port(), v, packet, packets_[packet].dst,
                 0);
    s.next_vc = RoundRobinRound::Next(v, vcs_);
    break;
  }
  for (unsigned v = 0; v < vcs_ && !more; ++v) {
    more = s.pending_flits[v] > 0;
  }
  s.busy = more || !s.waiting.empty();
}

// NET-4.7's failure seen in simulation: packets held and no flit through
// any crossbar for a whole window.
void CycleFabric::CheckWatchdog() {
  if (config_.watchdog_cycles == 0 || held_ == 0) {
    last_progress_ = now_;
    return;
  }
  if (now_ - last_progress_ < config_.watchdog_cycles) {
    return;
  }
  deadlocked_ = true;
  deadlock_cycle_ = now_;
  deadlock_report_ = std::to_string(held_) +
                     " packets held and no flit moved for " +
                     std::to_string(config_.watchdog_cycles) +
                     " cycles; waiting cycle: " + FindWaitCycle();
}

std::string CycleFabric::FindWaitCycle() const {
  std::vector<VcWait> waits;
  for (const Router& r : routers_) {
    for (unsigned i = 0; i < r.ports * vcs_; ++i) {
      const InputUnit::Vc& in = r.inputs.vc(i);
      if (in.empty()) {
        continue;
      }
      const PacketState& head = in.head;
      if (!head.routed || head.discard || head.out_port == r.local_port() ||
          r.far[head.out_port].node == kNoNode) {
        continue;
      }
      const topo::PortRef far = r.far[head.out_port];
      waits.push_back(
          {{r.node, i / vcs_, i % vcs_}, {far.node, far.port, head.out_vc}});
    }
  }
  return DescribeWaitCycle(routing_->topology(), waits);
}

}  // namespace lq::net
