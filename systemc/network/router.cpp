// SPDX-License-Identifier: Apache-2.0
// Router: arrivals, route computation, VC and switch allocation, crossbar
// traversal and credits, one cycle per activation while there is work.
#include "systemc/network/router.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/network/mgmt_message.h"
#include "models/roce/frame_edits.h"
#include "systemc/network/router_registers.h"

namespace lq::net {

// One port's socket: what the peer calls lands in the router with the
// port's number.
class Router::PortEnd : private link::SlotIf {
 public:
  PortEnd(Router& router, unsigned port, const std::string& name)
      : socket(name.c_str()), router_(router), port_(port) {
    socket.in.bind(static_cast<link::SlotIf&>(*this));
  }
  link::SlotSocket socket;

 private:
  void Put(link::Slot slot, const sc_core::sc_time& delay) override {
    router_.OnSlot(port_, std::move(slot), delay);
  }
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override {
    router_.OnCredit(port_, vc, count, delay);
  }
  void Control(Bytes message, const sc_core::sc_time& delay) override {
    router_.OnControl(port_, std::move(message), delay);
  }
  Router& router_;
  unsigned port_;
};

void JoinRouters(Router& a, unsigned a_port, Router& b, unsigned b_port,
                 const sc_core::sc_time& latency) {
  if (a.pool_ != b.pool_) {
    throw std::invalid_argument(std::string(a.name()) + " and " + b.name() +
                                " are joined by an ideal link but share no "
                                "packet pool");
  }
  Connect(a.port(a_port), b.port(b_port));
  a.peers_.at(a_port) = {&b, b_port, latency};
  b.peers_.at(b_port) = {&a, a_port, latency};
}

std::optional<std::string> RouterConfigProblem(const RouterConfig& config) {
  return RouterParamsProblem(config, config.routing->VcClasses(),
                             config.routing->Name());
}

Router::Router(const sc_core::sc_module_name& name, const RouterConfig& config)
    : sc_module(name),
      config_(config),
      banks_(config.routing),
      vcs_(config.vcs()),
      period_(config.clock_ns, sc_core::SC_NS),
      core_(config.network_ports + 1, config.network_ports, config,
            period_.value(),
            std::min(config.vc_buffer_flits, kInitialPacketsBehind)),
      workspace_(config.workspace ? config.workspace
                                  : std::make_shared<RouterWorkspace>(
                                        config.islip_rounds())) {
  if (auto problem = RouterConfigProblem(config)) {
    throw std::invalid_argument(std::string(this->name()) + ": " + *problem);
  }
  workspace_->Fit(config.network_ports + 1, vcs_, config.islip_rounds());
  const unsigned ports = port_count();
  for (unsigned p = 0; p < ports; ++p) {
    const std::string port_name =
        p == local_port() ? "local" : "port" + std::to_string(p);
    ends_.push_back(std::make_unique<PortEnd>(*this, p, port_name));
  }
  streams_.resize((config.network_ports + 1) * vcs_);
  for (unsigned p = 0; p < ports; ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      SlotParser::Config parser;
      parser.vc = v;
      parser.nodes = config.nodes;
      parser.max_payload = config.max_payload;
      parser.streaming = true;
      stream(p, v).parser = std::make_unique<SlotParser>(parser);
    }
  }
  paused_.assign(ports * kTrafficClasses * config.vc_classes, false);
  egress_bytes_.assign(ports * kTrafficClasses, 0);
  ingress_bytes_.assign(ports * kTrafficClasses, 0);
  class_bytes_.assign(ports * kTrafficClasses * config.vc_classes, 0);
  port_down_.assign(ports, false);
  flits_in_.assign(ports, 0);
  peers_.resize(ports);
  pool_ = config.pool ? config.pool : std::make_shared<PacketPool>();
  clock_ = config.clock ? config.clock : std::make_shared<RouterClock>("clock");
  SC_HAS_PROCESS(Router);
  SC_METHOD(FlushInputs);
  sensitive << flush_due_;
  dont_initialize();
  registers_ =
      std::make_unique<RouterRegisters>("registers", *this, config.vc_sets);
}

Router::~Router() = default;

link::SlotSocket& Router::port(unsigned p) { return ends_.at(p)->socket; }

CsrTargetSocket& Router::csr() { return registers_->socket; }

uint64_t Router::flits_in(unsigned p) const { return flits_in_.at(p); }
uint64_t Router::flits_out(unsigned p) const {
  return core_.outputs.flits_out(p);
}

void Router::SetHooks(RouterHooks hooks) {
  if (hooks.inspect_bytes + kRouteHeaderBytes > config_.slot_bytes) {
    throw std::invalid_argument(
        "router hooks inspect more than a slot's first bytes");
  }
  hooks_ = std::move(hooks);
}

void Router::SendControl(unsigned out_port, Bytes message,
                         const sc_core::sc_time& delay) {
  const FabricPeer& peer = peers_.at(out_port);
  if (peer.router) {
    peer.router->OnControl(peer.port, std::move(message), delay + peer.latency);
    return;
  }
  port(out_port).out->Control(std::move(message), delay);
}

void Router::SendCredit(unsigned port, unsigned vc, unsigned count) {
  const FabricPeer& peer = peers_[port];
  if (peer.router) {
    peer.router->OnCredit(peer.port, vc, count, peer.latency);
    return;
  }
  this->port(port).out->Credit(vc, count, sc_core::SC_ZERO_TIME);
}

void Router::OnControl(unsigned port, Bytes message,
                       const sc_core::sc_time& delay) {
  if (hooks_.on_control) {
    hooks_.on_control(port, std::move(message), delay);
  } else {
    ++counters_.control_ignored;
  }
}

void Router::SetPaused(unsigned out_port, uint8_t tc, unsigned vc_class,
                       bool paused) {
  paused_.at((out_port * kTrafficClasses + tc) * config_.vc_classes +
             vc_class) = paused;
  if (!paused) {
    Wake(period_);  // a held packet may start on the next cycle
  }
}

void Router::WriteShadowRouting(
    std::shared_ptr<const topo::RoutingFunction> routing) {
  banks_.WriteShadow(std::move(routing));
}

void Router::SwitchRouting() { banks_.Switch(); }

void Router::start_of_simulation() {
  // Every input VC's buffer is free: grant it to the sender (NET-8.2).
  for (unsigned p = 0; p < port_count(); ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      SendCredit(p, v, config_.vc_buffer_flits);
    }
  }
}

void Router::OnSlot(unsigned port, link::Slot slot,
                    const sc_core::sc_time& delay) {
  if (failed_) {
    return;
  }
  Probe(probe_, *this, PathPoint::kRouterIn, delay, port);
  uint32_t bytes = PacketPool::kNone;
  if (!slot.abort) {
    bytes = static_cast<uint32_t>(slots_in_.Take());
    slots_in_[bytes] = std::move(slot.bytes);
  }
  PushArrival(Now() + delay.value(), port,
              Arrival{0, 0, bytes, 0, static_cast<uint8_t>(slot.vc),
                      Arrival::Kind::kSlot, false, slot.abort});
  Wake(delay);
}

void Router::OnChunk(unsigned port, const Chunk& chunk,
                     const sc_core::sc_time& delay) {
  if (failed_) {
    if (chunk.packet != PacketPool::kNone) {
      pool_->Release(chunk.packet);
    }
    return;
  }
  Probe(probe_, *this, PathPoint::kRouterIn, delay, port);
  PushArrival(
      Now() + delay.value(), port,
      Arrival{0, 0, chunk.packet, chunk.bytes, static_cast<uint8_t>(chunk.vc),
              Arrival::Kind::kChunk, chunk.first, chunk.abort});
  Wake(delay);
}

void Router::OnCredit(unsigned port, unsigned vc, unsigned count,
                      const sc_core::sc_time& delay) {
  // A link controller grants room on each of the link's VCs; a router
  // with fewer takes only its own (NET-8.2).
  if (failed_ || vc >= vcs_) {
    return;
  }
  // A credit from a neighbour is processed for router.credit_cycles before
  // it may be spent (NET-8.2).
  const sc_core::sc_time processing = port == local_port()
                                          ? sc_core::SC_ZERO_TIME
                                          : period_ * config_.credit_cycles;
  PushArrival(Now() + (delay + processing).value(), port,
              Arrival{0, 0, PacketPool::kNone, count, static_cast<uint8_t>(vc),
                      Arrival::Kind::kCredit, false, false});
  Wake(delay + processing);
}

void Router::Cycle() {
  if (failed_) {
    return;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (ran_once_ && now == last_cycle_) {
    // Woken again within the cycle just run (a zero-delay credit): the
    // crossbar has already moved this cycle's slots.
    Wake(period_);
    return;
  }
  ran_once_ = true;
  last_cycle_ = now;
  DeliverUntil(now);
  // Switch allocation before route computation and VC allocation, or after
  // them, as router.vc_reuse says (NET-8.3). Before: an output VC whose
  // holder's last slot wins the switch, and the packet queued behind that
  // slot, are allocated in the same cycle. With internal speedup S, S
  // rounds of it (NET-8.11). Route computation and VC allocation run only
  // while a head waits for them.
  if (config_.allocates_vcs_first() && core_.inputs.AnyToAllocate()) {
    RouteHeads(now);
    AllocateVcs(now);
  }
  SeparableAllocator& allocator = workspace_->switch_allocator();
  for (unsigned round = 0; round < config_.speedup; ++round) {
    core_.RequestSwitch(
        allocator, now.value(), [this](unsigned i) { return i / vcs_; },
        [this](unsigned i) { return DrainDropped(i); });
    allocator.Allocate([this](unsigned port, unsigned vc) { Send(port, vc); });
  }
  if (!config_.allocates_vcs_first() && core_.inputs.AnyToAllocate()) {
    RouteHeads(now);
    AllocateVcs(now);
  }
  core_.EndAllocations();
  for (const unsigned i : dirty_inputs_) {
    ReturnCredits(i);
  }
  dirty_inputs_.clear();
  ScheduleNext(now);
}

// Next cycle if anything moved; otherwise sleep until a pipeline stage comes
// due or something arrives (a slot, a credit): a router blocked on credits
// or on bytes still in flight polls nothing.
void Router::ScheduleNext(const sc_core::sc_time& now) {
  if (progress_) {
    progress_ = false;
    // A period on, or sooner for what arrives sooner (NET-8.12), as an
    // arrival after this cycle would wake it.
    const uint64_t next = (now + period_).value();
    Wake(!arrivals_.empty() && arrivals_.front().due < next
             ? sc_core::sc_time::from_value(arrivals_.front().due) - now
             : period_);
    return;
  }
  std::optional<sc_core::sc_time> next;
  core_.inputs.ForEachHeld([&](unsigned i) {
    const PacketState& head = core_.inputs.front(i);
    if (head.ready > now.value() && (!next || head.ready < next->value())) {
      next = sc_core::sc_time::from_value(head.ready);
    }
  });
  if (!arrivals_.empty() && (!next || arrivals_.front().due < next->value())) {
    next = sc_core::sc_time::from_value(arrivals_.front().due);
  }
  if (next) {
    Wake(*next - now);
  }
}

void Router::DeliverUntil(const sc_core::sc_time& until) {
  while (!arrivals_.empty() && arrivals_.front().due <= until.value()) {
    Deliver(arrivals_.pop());
  }
}

void Router::PushArrival(uint64_t due, unsigned port, Arrival arrival) {
  arrival.due = due;
  arrival.order = (uint64_t{port} << kPortShift) | next_arrival_++;
  arrivals_.push(arrival);
}

void Router::Deliver(const Arrival& arrival) {
  const unsigned port = arrival.port();
  const unsigned vc = arrival.vc;
  if (arrival.kind == Arrival::Kind::kCredit) {
    if (!port_down_[port]) {
      core_.outputs.Grant(index(port, vc), arrival.count, arrival.due);
    }
    return;
  }
  if (arrival.abort) {
    // The sender lost the rest of the packet in progress (NET-7.1); the
    // router that cut it has counted it.
    stream(port, vc).parser->Reset();
    EndPartialPacket(port, vc, false);
    return;
  }
  ++flits_in_[port];
  InputStream& in = stream(port, vc);
  in.arrived_bytes += config_.slot_bytes;
  MarkDirty(index(port, vc));
  if (arrival.kind == Arrival::Kind::kChunk) {
    AcceptChunk(arrival);
  } else {
    // Out of the pool first: accepting may add arrivals, and grow it.
    Bytes slot = std::move(slots_in_[arrival.packet]);
    slots_in_.Free(arrival.packet);
    AcceptSlot(port, vc, slot);
    if (slot.capacity() >= config_.slot_bytes &&
        spare_slots_.size() < kSpareSlots) {
      spare_slots_.push_back(std::move(slot));
    }
  }
  in.peak_slots = std::max(
      in.peak_slots, in.arrived_bytes / config_.slot_bytes - FreedSlots(in));
}

void Router::AcceptSlot(unsigned port, unsigned vc, const Bytes& slot) {
  stream(port, vc).parser->Accept(slot, events_);
  for (auto& event : events_) {
    switch (event.kind) {
      case SlotParser::Event::Kind::kHeader: {
        const uint32_t pooled = pool_->New();
        Bytes& bytes = pool_->bytes(pooled);
        // The payload follows without moves.
        bytes.reserve(kRouteHeaderBytes + event.header.len);
        bytes.assign(event.header_bytes.begin(), event.header_bytes.end());
        AcceptHeader(port, vc, event.header, pooled);
        break;
      }
      case SlotParser::Event::Kind::kPayload: {
        const PacketState& packet = core_.inputs.back(index(port, vc));
        if (!packet.discard) {
          Bytes& bytes = pool_->bytes(body(packet).pooled);
          bytes.insert(bytes.end(), event.chunk.begin(), event.chunk.end());
        }
        AcceptPayload(port, vc, event.chunk.size());
        break;
      }
      case SlotParser::Event::Kind::kHeaderDrop:
        ++counters_.drops_header;
        break;
      case SlotParser::Event::Kind::kStreamError:
        ++counters_.stream_errors;
        // The stream cannot be parsed further (NET-2.10; taking the link
        // down is the fabric's).
        EndPartialPacket(port, vc, false);
        break;
      case SlotParser::Event::Kind::kPacket:
        break;  // not produced in streaming mode
    }
  }
}

// A router of the fabric sent it: the header is as that router left it
// (NET-2.10), and the bytes are in the pool.
void Router::AcceptChunk(const Arrival& chunk) {
  size_t payload = chunk.count;
  if (chunk.first) {
    pool_->Hold(chunk.packet);  // the body's reference
    AcceptHeader(chunk.port(), chunk.vc,
                 DecodeRouteHeader(pool_->bytes(chunk.packet).data()),
                 chunk.packet);
    payload -= kRouteHeaderBytes;
  }
  if (payload > 0) {
    AcceptPayload(chunk.port(), chunk.vc, payload);
  }
  pool_->Release(chunk.packet);  // the trip's
}

void Router::AcceptHeader(unsigned port, unsigned vc, const RouteHeader& header,
                          uint32_t pooled) {
  PacketState& packet = core_.inputs.emplace_back(index(port, vc));
  packet.packet = NewBody();
  PacketBody& held = body(packet);
  held.header = header;
  held.pooled = pooled;
  held.total = kRouteHeaderBytes + header.len;
  held.received = kRouteHeaderBytes;
  CountArrivedSlots(packet, held);
  packet.ready = Now() + ticks(config_.rc_cycles);
  if (port == local_port()) {
    ++(IsMgmt(held.header) ? counters_.mgmt_injected : counters_.injected);
  }
  ++packets_held_;
  HoldBytes(port, vc, packet, static_cast<int64_t>(held.received));
}

void Router::AcceptPayload(unsigned port, unsigned vc, size_t bytes) {
  PacketState& packet = core_.inputs.back(index(port, vc));
  PacketBody& arriving = body(packet);
  const size_t had = arriving.received;
  arriving.received += bytes;
  if (!packet.discard) {
    CountArrivedSlots(packet, arriving);
    InspectArrival(port, arriving, had);
    HoldBytes(port, vc, packet, static_cast<int64_t>(bytes));
  }
}

void Router::CountArrivedSlots(PacketState& packet,
                               const PacketBody& body) const {
  const size_t slot = config_.slot_bytes;
  packet.arrived = static_cast<uint16_t>(body.received >= body.total
                                             ? (body.total + slot - 1) / slot
                                             : body.received / slot);
}

uint32_t Router::NewBody() {
  const auto id = static_cast<uint32_t>(bodies_.Take());
  // The header and the packet's bytes come next.
  PacketBody& reused = bodies_[id];
  reused.received = reused.total = reused.sent = 0;
  reused.enqueued = reused.cut = reused.source_routed = false;
  return id;
}

void Router::FreeBody(uint32_t id) {
  pool_->Release(bodies_[id].pooled);
  bodies_[id].pooled = PacketPool::kNone;
  bodies_.Free(id);
}

// NET-8.6: the bytes queued ahead of it are its class's count at this
// input, which so far includes the `had` bytes of its own.
void Router::InspectArrival(unsigned port, PacketBody& packet, size_t had) {
  const size_t want =
      std::min(packet.total, kRouteHeaderBytes + hooks_.inspect_bytes);
  if (!hooks_.on_ingress_arrival || had >= want || packet.received < want ||
      packet.header.kind != static_cast<uint8_t>(PacketKind::kData)) {
    return;  // MGMT packets are never marked
  }
  const uint8_t tc = packet.header.tc;
  hooks_.on_ingress_arrival(port, tc,
                            ingress_bytes_[port * kTrafficClasses + tc] - had,
                            pool_->bytes(packet.pooled));
}

void Router::EndPartialPacket(unsigned port, unsigned vc, bool count_drop) {
  const unsigned i = index(port, vc);
  if (core_.inputs.vc(i).empty()) {
    return;
  }
  PacketState& tail = core_.inputs.back(i);
  if (body(tail).received < body(tail).total) {
    Truncate(port, vc, tail, count_drop);
  }
}

void Router::Truncate(unsigned port, unsigned vc, PacketState& packet,
                      bool count_drop) {
  PacketBody& cut = body(packet);
  if (packet.discard) {
    cut.total = cut.received;  // already counted where it was dropped
    return;
  }
  if (count_drop) {
    CountDrop(cut, &RouterCounters::drops_link_down);
  }
  cut.total = cut.received;
  CountArrivedSlots(packet, cut);
  if (cut.sent == 0) {
    Discard(port, vc, packet);
    return;
  }
  // Part of it is already downstream: send what is here, then the abort.
  cut.cut = true;
  if (cut.sent == cut.total) {
    FinishCut(port, vc);
  }
}

void Router::FinishCut(unsigned port, unsigned vc) {
  const unsigned i = index(port, vc);
  const PacketState& packet = core_.inputs.front(i);
  core_.outputs.Release(index(packet.out_port, packet.out_vc), Now());
  if (!port_down_[packet.out_port]) {
    const sc_core::sc_time leaves = DepartureDelay(packet.out_port);
    const FabricPeer& peer = peers_[packet.out_port];
    if (peer.router) {
      peer.router->OnChunk(
          peer.port, Chunk{PacketPool::kNone, 0, packet.out_vc, false, true},
          leaves + peer.latency);
    } else {
      link::Slot abort;
      abort.vc = packet.out_vc;
      abort.abort = true;
      this->port(packet.out_port).out->Put(std::move(abort), leaves);
    }
  }
  FreeBody(packet.packet);
  core_.inputs.pop_front(i);
  --packets_held_;
  progress_ = true;
  Wake(period_);
}

void Router::SetPortDown(unsigned port, const sc_core::sc_time& flush) {
  if (port_down_.at(port)) {
    return;
  }
  port_down_[port] = true;
  core_.inputs.ForEachHeld([&](unsigned i) {
    PacketState& head = core_.inputs.front(i);
    if (!head.routed || head.discard || !Stranded(head)) {
      return;
    }
    // One not yet started is lost here; one partly sent is lost at the
    // receiver, which counts it when it flushes the link's input.
    if (head.sent == 0) {
      CountDrop(body(head), &RouterCounters::drops_link_down);
    }
    Discard(i / vcs_, i % vcs_, head);
  });
  for (unsigned v = 0; v < vcs_; ++v) {
    core_.outputs.Reset(index(port, v), 0, Now());
  }
  flushes_.emplace_back(sc_core::sc_time_stamp() + flush, port);
  flush_due_.notify(flush);
  Wake(period_);
}

void Router::SetPortUp(unsigned port) {
  if (failed_ || !port_down_.at(port)) {
    return;
  }
  // The flush of the failure comes first: no partial packet of the old
  // link may meet the new link's first slots.
  for (auto it = flushes_.begin(); it != flushes_.end();) {
    if (it->second == port) {
      FlushPort(port);
      it = flushes_.erase(it);
    } else {
      ++it;
    }
  }
  port_down_[port] = false;
  for (unsigned v = 0; v < vcs_; ++v) {
    // The neighbour lost every credit it held when the link went down
    // (its output was reset as this one was); it gets the VC's room now,
    // and slots still held here come back as they leave (NET-8.2).
    InputStream& in = stream(port, v);
    const uint64_t arrived_slots = in.arrived_bytes / config_.slot_bytes;
    const uint64_t freed_slots = FreedSlots(in);
    in.credits_returned = freed_slots;
    const auto room = static_cast<unsigned>(config_.vc_buffer_flits -
                                            (arrived_slots - freed_slots));
    if (room > 0) {
      SendCredit(port, v, room);
    }
  }
  Wake(period_);
}

void Router::Fail(uint64_t handed_over, uint64_t never_admitted) {
  // Slots already on their way in land first, so that every packet whose
  // header was sent here is held here and counted once.
  DeliverUntil(sc_core::sc_max_time());
  failed_ = true;
  // Packets the interface had admitted, or held, whose header never
  // entered: lost here, and counted as injected too, so that the drain's
  // sums over this node balance once it is back (NET-7.8, NET-7.12).
  const uint64_t lost_before_entering =
      never_admitted + (handed_over - counters_.injected);
  counters_.drops_node_down += lost_before_entering;
  counters_.injected += lost_before_entering;
  for (unsigned i = 0; i < core_.inputs.size(); ++i) {
    while (!core_.inputs.vc(i).empty()) {
      const PacketState& packet = core_.inputs.front(i);
      // A packet partly sent on a network port is the neighbour's to count;
      // one partly ejected dies here with the interface.
      const bool partly_out =
          packet.sent > 0 && packet.out_port != local_port();
      if (!packet.discard && !partly_out) {
        CountDrop(body(packet), &RouterCounters::drops_node_down);
      }
      FreeBody(packet.packet);
      core_.inputs.pop_front(i);
    }
  }
  packets_held_ = 0;
  arrivals_.clear();
  flushes_.clear();
  port_down_.assign(port_down_.size(), true);
}

void Router::Restore() {
  if (!failed_) {
    return;
  }
  failed_ = false;
  banks_.ResetEpoch();
  for (InputStream& in : streams_) {
    in.parser->Reset();
    in.arrived_bytes = 0;
    in.held_bytes = 0;
    in.credits_returned = 0;
    in.dirty = false;
  }
  dirty_inputs_.clear();
  for (unsigned o = 0; o < core_.outputs.size(); ++o) {
    core_.outputs.Reset(o, 0, Now());
  }
  paused_.assign(paused_.size(), false);
  egress_bytes_.assign(egress_bytes_.size(), 0);
  ingress_bytes_.assign(ingress_bytes_.size(), 0);
  class_bytes_.assign(class_bytes_.size(), 0);
}

void Router::FlushInputs() {
  if (failed_) {
    return;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!flushes_.empty() && flushes_.front().first <= now) {
    FlushPort(flushes_.front().second);
    flushes_.pop_front();
  }
  if (!flushes_.empty()) {
    flush_due_.notify(flushes_.front().first - now);
  }
  Wake(period_);
}

void Router::FlushPort(unsigned port) {
  for (unsigned v = 0; v < vcs_; ++v) {
    stream(port, v).parser->Reset();
    EndPartialPacket(port, v, true);
  }
}

bool Router::Stranded(const PacketState& packet) {
  return packet.adaptive ? !AdaptiveWayOpen(packet)
                         : port_down_[packet.out_port];
}

bool Router::AdaptiveWayOpen(const PacketState& packet) {
  banks_.active().AdaptivePorts(config_.node, body(packet).header.dst,
                                workspace_->candidates());
  for (const topo::PortId port : workspace_->candidates()) {
    if (!port_down_[port]) {
      return true;
    }
  }
  return false;
}

void Router::Discard(unsigned port, unsigned vc, PacketState& packet) {
  PacketBody& dropped = body(packet);
  HoldBytes(port, vc, packet,
            -static_cast<int64_t>(dropped.received - dropped.sent));
  if (packet.allocated) {
    core_.outputs.Release(index(packet.out_port, packet.out_vc), Now());
  }
  packet.discard = true;
  MarkDirty(index(port, vc));
  if (&packet == &core_.inputs.front(index(port, vc))) {
    core_.inputs.Allocated(index(port, vc));  // waits only for its bytes now
  }
}

void Router::HoldBytes(unsigned port, unsigned vc, const PacketState& packet,
                       int64_t delta) {
  stream(port, vc).held_bytes += delta;
  const PacketBody& held_packet = body(packet);
  const unsigned tc = held_packet.header.tc;
  ingress_bytes_[port * kTrafficClasses + tc] += delta;
  const unsigned vc_class = core_.InputClass(port, vc);
  uint64_t& held =
      class_bytes_[(port * kTrafficClasses + tc) * config_.vc_classes +
                   vc_class];
  held += delta;
  if (hooks_.on_ingress_change) {
    hooks_.on_ingress_change(port, static_cast<uint8_t>(tc), vc_class, held);
  }
  if (held_packet.enqueued && !packet.discard) {
    egress_bytes_[packet.out_port * kTrafficClasses + tc] += delta;
  }
}

void Router::MarkDirty(unsigned i) {
  if (!streams_[i].dirty) {
    streams_[i].dirty = true;
    dirty_inputs_.push_back(i);
  }
}

void Router::RouteHeads(const sc_core::sc_time& now) {
  core_.inputs.ForEachDueToAllocate(now.value(), [&](unsigned i) {
    PacketState& head = core_.inputs.front(i);
    if (!head.routed && Routable(body(head))) {
      Route(i / vcs_, i % vcs_, head);
    }
  });
}

bool Router::Routable(const PacketBody& packet) const {
  return !IsMgmt(packet.header) ||
         packet.received >=
             std::min(packet.total, kRouteHeaderBytes + kMgmtHeaderBytes);
}

void Router::CountDrop(const PacketBody& packet,
                       uint64_t RouterCounters::*counter) {
  ++(IsMgmt(packet.header) ? counters_.mgmt_dropped : counters_.*counter);
}

void Router::RouteMgmt(unsigned port, unsigned vc, PacketState& packet) {
  PacketBody& mgmt = body(packet);
  const MgmtHop hop =
      MgmtHopOf(pool_->bytes(mgmt.pooled).data() + kRouteHeaderBytes,
                mgmt.total - kRouteHeaderBytes);
  const std::optional<unsigned> out = MgmtOutPort(
      hop, {config_.network_ports, config_.local_port, mgmt_parent_port_});
  if (!out) {
    ++counters_.mgmt_dropped;
    Discard(port, vc, packet);
    return;
  }
  mgmt.source_routed = hop.kind == MgmtHop::Kind::kRouted;
  if (*out != local_port() && mgmt.header.ttl == 0) {
    ++counters_.mgmt_dropped;  // NET-2.4
    Discard(port, vc, packet);
    return;
  }
  packet.out_port = static_cast<uint16_t>(*out);
  packet.out_vc = static_cast<uint8_t>(
      *out == local_port() ? vc : (config_.vc_sets - 1) * config_.vc_classes);
  if (Stranded(packet)) {
    ++counters_.mgmt_dropped;  // NET-7.1
    Discard(port, vc, packet);
    return;
  }
  Enqueue(packet);
}

void Router::Route(unsigned port, unsigned vc, PacketState& packet) {
  progress_ = true;
  packet.routed = true;
  const RouteHeader& header = body(packet).header;
  if (IsMgmt(header)) {
    RouteMgmt(port, vc, packet);
    return;
  }
  if (header.kind == static_cast<uint8_t>(PacketKind::kData) &&
      header.epoch != banks_.epoch()) {
    ++counters_.drops_stale_epoch;  // NET-7.7
    Discard(port, vc, packet);
    return;
  }
  const unsigned in_class = core_.InputClass(port, vc);
  topo::RouteStep step;
  if (!banks_.active().TryRoute(config_.node, port, in_class, header.dst,
                                step)) {
    ++counters_.drops_no_route;
    Discard(port, vc, packet);
    return;
  }
  if (step.port != local_port() && header.ttl == 0) {
    ++counters_.drops_ttl;  // NET-2.4
    Discard(port, vc, packet);
    return;
  }
  core_.TakeRoute(packet, vc, step,
                  banks_.active().ChoosesAdaptively(port, in_class, step.port,
                                                    local_port()));
  if (Stranded(packet)) {
    ++counters_.drops_link_down;  // NET-7.1
    Discard(port, vc, packet);
    return;
  }
  if (!packet.adaptive) {
    Enqueue(packet);
  }
}

// The packet's output is fixed: count its bytes there (NET-8.6).
void Router::Enqueue(const PacketState& packet) {
  PacketBody& queued = body(packet);
  queued.enqueued = true;
  egress_bytes_[packet.out_port * kTrafficClasses + queued.header.tc] +=
      queued.received - queued.sent;
}

// VC allocation (NET-8.3, NET-4.3: ChooseOutputVc and VcAllocator): a port
// whose link is down takes no new packet, nor does a VC class PFC pauses
// for the packet's TC (NET-8.7).
void Router::AllocateVcs(const sc_core::sc_time& now) {
  const VcChoiceContext at{config_, banks_.active(), config_.node, local_port(),
                           core_.outputs};
  VcAllocator& va = workspace_->va();
  va.Clear(core_.va);
  core_.inputs.ForEachDueToAllocate(now.value(), [&](unsigned i) {
    const PacketState& head = core_.inputs.front(i);
    if (!head.routed) {  // a management packet still short of its hop
      return;
    }
    const RouteHeader& header = body(head).header;
    const auto open = [this, &header](unsigned port, unsigned vc) {
      return !port_down_[port] &&
             !paused(port, header.tc, vc % config_.vc_classes);
    };
    const RoutedHead routed{header.src,    header.dst,  i % vcs_,
                            head.out_port, head.out_vc, head.adaptive};
    unsigned o;
    if (ChooseOutputVc(at, routed, open, workspace_->candidates(), o)) {
      va.Request(i, o);
    }
  });
  va.Allocate([this, &now](unsigned i, unsigned o) {
    // An adaptive packet's port is chosen now (NET-4.3), and a packet
    // ejecting may take another VC.
    const bool chose_port = core_.inputs.front(i).adaptive;
    core_.TakeOutputVc(i, o / vcs_, o % vcs_, now.value(),
                       now.value() + ticks(config_.va_cycles));
    if (chose_port) {
      Enqueue(core_.inputs.front(i));
    }
    progress_ = true;
  });
}

// A slot granted now leaves SA + ST cycles later, or after the slots
// already waiting at its output (NET-8.11). With speedup 1 no slot ever
// waits, since each output passes at most one slot per cycle.
sc_core::sc_time Router::DepartureDelay(unsigned port) const {
  const uint64_t now = Now();
  return sc_core::sc_time::from_value(core_.outputs.Departure(port, now) - now);
}

// Rare, and kept out of the requests' walk (as in CycleFabric).
__attribute__((cold)) bool Router::DrainDropped(unsigned i) {
  const auto complete = [this](const PacketState& head) {
    return body(head).received == body(head).total;
  };
  const auto gone = [this](const PacketState& head) {
    FreeBody(head.packet);
    --packets_held_;
    progress_ = true;
  };
  return core_.inputs.DrainDropped(i, complete, gone);
}

void Router::Send(unsigned in_port, unsigned in_vc) {
  const unsigned i = index(in_port, in_vc);
  PacketState& head = core_.inputs.front(i);
  PacketBody& packet = body(head);
  const size_t chunk = std::min(config_.slot_bytes, packet.total - packet.sent);
  const bool first = packet.sent == 0;
  const bool to_network = head.out_port != local_port();
  const FabricPeer& peer = peers_[head.out_port];
  progress_ = true;
  if (first) {
    EditFirstBytes(head, packet, chunk);
  }
  link::Slot slot;
  if (!peer.router) {
    slot = SlotOf(packet, chunk, head.out_vc);
  }
  packet.sent += chunk;
  HoldBytes(in_port, in_vc, head, -static_cast<int64_t>(chunk));
  MarkDirty(i);
  ++slots_moved_;
  // Switch allocation and crossbar traversal: the slot leaves the router
  // that many cycles after the grant, or in turn after those waiting at
  // its output (NET-8.11).
  const uint64_t now = Now();
  const sc_core::sc_time leaves =
      sc_core::sc_time::from_value(core_.CrossSwitch(i, now) - now);
  Probe(probe_, *this, PathPoint::kRouterOut, leaves, head.out_port);
  if (peer.router) {
    pool_->Hold(packet.pooled);  // for the trip
    peer.router->OnChunk(peer.port,
                         Chunk{packet.pooled, static_cast<unsigned>(chunk),
                               head.out_vc, first, false},
                         leaves + peer.latency);
  } else {
    port(head.out_port).out->Put(std::move(slot), leaves);
  }
  if (packet.sent == packet.total && packet.cut) {
    FinishCut(in_port, in_vc);
  } else if (packet.sent == packet.total) {
    if (IsMgmt(packet.header)) {
      ++(to_network ? counters_.mgmt_forwarded : counters_.mgmt_ejected);
    } else if (to_network) {
      ++counters_.forwarded;
    } else {
      ++counters_.ejected;
      counters_.hops += packet.header.hops;
    }
    FreeBody(head.packet);
    core_.FinishHead(i, now);
    --packets_held_;
  }
}

// On the pooled bytes: those sent on have left this router's hands (an
// earlier hop's edits are made before the chunk leaves it), and routers
// further on read them only once this hop's first chunk has reached them.
void Router::EditFirstBytes(const PacketState& head, const PacketBody& packet,
                            size_t chunk) {
  uint8_t* bytes = pool_->bytes(packet.pooled).data();
  if (head.out_port == local_port()) {
    SetRouteHeaderVc(bytes, head.out_vc);  // NET-8.3: it may eject on another
    return;
  }
  ForwardRouteHeaderFields(bytes, head.out_vc);  // NET-2.4
  const ByteView frame(bytes + kRouteHeaderBytes, chunk - kRouteHeaderBytes);
  if (packet.header.kind == static_cast<uint8_t>(PacketKind::kData) &&
      roce::IsIpv4Frame(frame)) {
    // NET-2.4, TRN-1.7: one less in the frame's IPv4 TTL, whose header lies
    // in this first slot. A payload that is not an IPv4 frame (the network
    // study's synthetic packets) is left as it is.
    roce::DecrementTtl(bytes + kRouteHeaderBytes, frame.size());
  }
  if (packet.source_routed) {
    // NET-7.4: the next hop's port is the next in the route. SR_PTR, payload
    // byte 2, lies in this first slot (PHY-2.4's smallest slot holds more
    // than 18 bytes).
    ++bytes[kRouteHeaderBytes + kMgmtRoutePtrOffset];
  }
}

link::Slot Router::SlotOf(const PacketBody& packet, size_t chunk,
                          unsigned out_vc) {
  link::Slot slot;
  slot.vc = out_vc;
  if (!spare_slots_.empty()) {  // a buffer of a slot that arrived here
    slot.bytes = std::move(spare_slots_.back());
    spare_slots_.pop_back();
  }
  slot.bytes.assign(config_.slot_bytes, 0);  // padded at the packet's end
  const Bytes& bytes = pool_->bytes(packet.pooled);
  std::copy(bytes.begin() + packet.sent, bytes.begin() + packet.sent + chunk,
            slot.bytes.begin());
  if (packet.sent == 0) {
    SealRouteHeader(slot.bytes.data());  // it leaves the fabric (NET-2.10)
  }
  return slot;
}

// Every slot's worth of bytes that left the buffer (sent, padding, dropped
// packets) is a credit back to the sender (NET-8.2).
void Router::ReturnCredits(unsigned i) {
  InputStream& in = streams_[i];
  in.dirty = false;
  const uint64_t freed_slots = FreedSlots(in);
  if (freed_slots > in.credits_returned && !port_down_[i / vcs_]) {
    const auto count = static_cast<unsigned>(freed_slots - in.credits_returned);
    in.credits_returned = freed_slots;
    SendCredit(i / vcs_, i % vcs_, count);
  }
}

std::vector<HeadWait> Router::HeadWaits() const {
  std::vector<HeadWait> waits;
  for (unsigned p = 0; p < port_count(); ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      const InputUnit::Vc& in = core_.inputs.vc(index(p, v));
      if (in.empty() || !in.head.routed || in.head.discard) {
        continue;
      }
      waits.push_back({p, v, in.head.out_port, in.head.out_vc});
    }
  }
  return waits;
}

const ComponentDecl& Router::Declaration() {
  static const ComponentDecl decl{
      "router",
      "a card's or switch's input-buffered VC router (net.md section 8)",
      {{"port<p>", "slot socket",
        "to the link controller of network port p (NET-1.4)"},
       {"local", "slot socket",
        "to the network interface (an endpoint's port P; NET-8.8)"},
       {"csr", "TLM-2.0 target, 32-bit",
        "register block (docs/registers/router.md)"}},
      {{"injected", "packets admitted at the local port"},
       {"ejected", "packets delivered to the local port"},
       {"forwarded", "packets sent on to a neighbour"},
       {"hops", "HOPS summed over the packets ejected"},
       {"drops_ttl", "packets dropped with TTL spent (NET-2.4)"},
       {"drops_header", "headers refused (NET-2.10)"},
       {"stream_errors", "VC byte streams that could not be parsed"},
       {"drops_no_route", "packets with no route (NET-7)"},
       {"drops_link_down", "packets for a down port or cut (NET-7.1)"},
       {"drops_stale_epoch", "packets of the old routing epoch (NET-7.7)"},
       {"drops_node_down", "packets lost inside this failed node (NET-7.8)"},
       {"control_ignored", "link control messages no hook took"},
       {"mgmt_injected", "MGMT packets admitted at the local port (NET-7.4)"},
       {"mgmt_ejected", "MGMT packets delivered to the local port"},
       {"mgmt_forwarded", "MGMT packets sent on to a neighbour"},
       {"mgmt_dropped", "MGMT packets dropped, for any reason"},
       {"<port>.flits_in", "slots received on port<p>, or local"},
       {"<port>.flits_out", "slots sent on port<p>, or local"},
       {"<port>.vc<v>.credit_stall_cycles",
        "cycles output VC v of port<p> (or local) was held by a packet "
        "with no credit left: backpressure from the buffer downstream "
        "(NET-8.2); present only when not 0"},
       {"<port>.vc<v>.peak_slots",
        "most slots input VC v of port<p> (or local) held at once, of "
        "router.vc_buffer_flits; present only when not 0"}}};
  return decl;
}

StatList Router::Stats() const {
  RouterPortCounts ports{flits_in_,
                         core_.outputs.FlitsOut(port_count()),
                         core_.outputs.StallCycles(port_count(), Now()),
                         {}};
  for (unsigned i = 0; i < port_count() * vcs_; ++i) {
    ports.peak_slots.push_back(streams_[i].peak_slots);
  }
  return StatsOf(counters_, ports, local_port(), std::string(name()) + ".");
}

StatList Router::StatsOf(const RouterCounters& counters,
                         const RouterPortCounts& ports, unsigned local,
                         const std::string& prefix) {
  StatWriter stats(Declaration(), prefix);
  stats.Add("injected", counters.injected)
      .Add("ejected", counters.ejected)
      .Add("forwarded", counters.forwarded)
      .Add("hops", counters.hops)
      .Add("drops_ttl", counters.drops_ttl)
      .Add("drops_header", counters.drops_header)
      .Add("stream_errors", counters.stream_errors)
      .Add("drops_no_route", counters.drops_no_route)
      .Add("drops_link_down", counters.drops_link_down)
      .Add("drops_stale_epoch", counters.drops_stale_epoch)
      .Add("drops_node_down", counters.drops_node_down)
      .Add("control_ignored", counters.control_ignored)
      .Add("mgmt_injected", counters.mgmt_injected)
      .Add("mgmt_ejected", counters.mgmt_ejected)
      .Add("mgmt_forwarded", counters.mgmt_forwarded)
      .Add("mgmt_dropped", counters.mgmt_dropped);
  const size_t port_count = ports.flits_out.size();
  const size_t vcs =
      port_count == 0 ? 0 : ports.stall_cycles.size() / port_count;
  // A statistic of VC v of `port`, if `values` holds it and it is not 0.
  const auto add_vc = [&stats](const char* family, const std::string& port,
                               unsigned v, const std::vector<uint64_t>& values,
                               size_t i) {
    if (i < values.size() && values[i] > 0) {
      stats.Add(family, {port, std::to_string(v)}, values[i]);
    }
  };
  for (unsigned p = 0; p < port_count; ++p) {
    const std::string port = p == local ? "local" : "port" + std::to_string(p);
    stats.Add("<port>.flits_in", {port}, ports.flits_in[p]);
    stats.Add("<port>.flits_out", {port}, ports.flits_out[p]);
    for (unsigned v = 0; v < vcs; ++v) {
      add_vc("<port>.vc<v>.credit_stall_cycles", port, v, ports.stall_cycles,
             p * vcs + v);
      add_vc("<port>.vc<v>.peak_slots", port, v, ports.peak_slots, p * vcs + v);
    }
  }
  return stats.Take();
}

}  // namespace lq::net
