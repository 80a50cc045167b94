// Router: arrivals, route computation, VC and switch allocation, crossbar
// traversal and credits, one cycle per activation while there is work.
#include "systemc/network/router.h"

#include <algorithm>
#include <stdexcept>
#include <string>

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
  Router& router_;
  unsigned port_;
};

Router::Router(const sc_core::sc_module_name& name, const RouterConfig& config)
    : sc_module(name),
      config_(config),
      vcs_(config.vc_classes * config.vc_sets),
      period_(config.clock_ns, sc_core::SC_NS) {
  if (vcs_ == 0 || vcs_ > 4) {
    throw std::invalid_argument(std::string(this->name()) +
                                ": net.vc_sets x net.vc_classes must be 1..4 "
                                "(NET-3.1)");
  }
  if (config.routing->VcClasses() > config.vc_classes) {
    throw std::invalid_argument(
        std::string(this->name()) + ": routing " + config.routing->Name() +
        " needs " + std::to_string(config.routing->VcClasses()) +
        " VC classes, net.vc_classes is " + std::to_string(config.vc_classes) +
        " (NET-3.2)");
  }
  const unsigned ports = port_count();
  for (unsigned p = 0; p < ports; ++p) {
    const std::string port_name =
        p == local_port() ? "local" : "port" + std::to_string(p);
    ends_.push_back(std::make_unique<PortEnd>(*this, p, port_name));
  }
  inputs_.resize(ports * vcs_);
  for (unsigned p = 0; p < ports; ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      SlotParser::Config parser;
      parser.vc = v;
      parser.nodes = config.nodes;
      parser.max_payload = config.max_payload;
      parser.streaming = true;
      input(p, v).parser = std::make_unique<SlotParser>(parser);
    }
  }
  outputs_.resize(ports * vcs_);
  va_next_.assign(ports * vcs_, 0);
  sa_input_next_.assign(ports, 0);
  sa_output_next_.assign(ports, 0);
  flits_in_.assign(ports, 0);
  flits_out_.assign(ports, 0);
  SC_HAS_PROCESS(Router);
  SC_METHOD(Cycle);
  sensitive << wake_;
  dont_initialize();
}

Router::~Router() = default;

link::SlotSocket& Router::port(unsigned p) { return ends_.at(p)->socket; }

uint64_t Router::flits_in(unsigned p) const { return flits_in_.at(p); }
uint64_t Router::flits_out(unsigned p) const { return flits_out_.at(p); }

void Router::start_of_simulation() {
  // Every input VC's buffer is free: grant it to the sender (NET-8.2).
  for (unsigned p = 0; p < port_count(); ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      port(p).out->Credit(v, config_.vc_buffer_slots, sc_core::SC_ZERO_TIME);
    }
  }
}

void Router::OnSlot(unsigned port, link::Slot slot,
                    const sc_core::sc_time& delay) {
  const sc_core::sc_time due = sc_core::sc_time_stamp() + delay;
  arrivals_.emplace(due,
                    Arrival{port, false, slot.vc, 0, std::move(slot.bytes)});
  wake_.notify(delay);
}

void Router::OnCredit(unsigned port, unsigned vc, unsigned count,
                      const sc_core::sc_time& delay) {
  const sc_core::sc_time due = sc_core::sc_time_stamp() + delay;
  arrivals_.emplace(due, Arrival{port, true, vc, count, {}});
  wake_.notify(delay);
}

void Router::Cycle() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!arrivals_.empty() && arrivals_.begin()->first <= now) {
    const Arrival arrival = std::move(arrivals_.begin()->second);
    arrivals_.erase(arrivals_.begin());
    Deliver(arrival);
  }
  for (unsigned p = 0; p < port_count(); ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      InputVc& in = input(p, v);
      if (!in.packets.empty() && !in.packets.front().routed &&
          in.packets.front().ready <= now) {
        Route(p, v, in.packets.front());
      }
    }
  }
  AllocateVcs();
  AllocateSwitch();
  for (unsigned p = 0; p < port_count(); ++p) {
    for (unsigned v = 0; v < vcs_; ++v) {
      ReturnCredits(p, v);
    }
  }
  // Next cycle if anything moved; otherwise sleep until a pipeline stage
  // comes due or something arrives (a slot, a credit): a router blocked on
  // credits or on bytes still in flight polls nothing.
  if (progress_) {
    progress_ = false;
    wake_.notify(period_);
    return;
  }
  sc_core::sc_time next = sc_core::SC_ZERO_TIME;
  bool have_next = false;
  for (const InputVc& in : inputs_) {
    if (!in.packets.empty() && in.packets.front().ready > now &&
        (!have_next || in.packets.front().ready < next)) {
      next = in.packets.front().ready;
      have_next = true;
    }
  }
  if (!arrivals_.empty() && (!have_next || arrivals_.begin()->first < next)) {
    next = arrivals_.begin()->first;
    have_next = true;
  }
  if (have_next) {
    wake_.notify(next - now);
  }
}

void Router::Deliver(const Arrival& arrival) {
  if (arrival.is_credit) {
    output(arrival.port, arrival.vc).credits += arrival.count;
    return;
  }
  ++flits_in_[arrival.port];
  InputVc& in = input(arrival.port, arrival.vc);
  in.arrived_bytes += config_.slot_bytes;
  for (auto& event : in.parser->Accept(arrival.slot)) {
    switch (event.kind) {
      case SlotParser::Event::Kind::kHeader: {
        InputPacket packet;
        packet.header = event.header;
        packet.bytes = std::move(event.packet);
        packet.total = kRouteHeaderBytes + event.header.len;
        packet.ready = sc_core::sc_time_stamp() + period_ * config_.rc_cycles;
        if (arrival.port == local_port()) {
          ++counters_.injected;
        }
        in.packets.push_back(std::move(packet));
        break;
      }
      case SlotParser::Event::Kind::kPayload: {
        InputPacket& packet = in.packets.back();
        packet.bytes.insert(packet.bytes.end(), event.packet.begin(),
                            event.packet.end());
        break;
      }
      case SlotParser::Event::Kind::kHeaderDrop:
        ++counters_.drops_header;
        break;
      case SlotParser::Event::Kind::kStreamError:
        // The VC's stream cannot be parsed further: a packet cut short by
        // it ends here (NET-2.10; taking the link down is the fabric's).
        ++counters_.stream_errors;
        if (!in.packets.empty() &&
            in.packets.back().bytes.size() < in.packets.back().total) {
          InputPacket& cut = in.packets.back();
          if (cut.allocated) {
            output(cut.out_port, cut.out_vc).owned = false;
          }
          cut.discard = true;
          cut.total = cut.bytes.size();
        }
        break;
      case SlotParser::Event::Kind::kPacket:
        break;  // not produced in streaming mode
    }
  }
}

void Router::Route(unsigned port, unsigned vc, InputPacket& packet) {
  const unsigned set = vc / config_.vc_classes;
  const unsigned in_class = vc % config_.vc_classes;
  const auto step =
      config_.routing->Route(config_.node, port, in_class, packet.header.dst);
  packet.routed = true;
  progress_ = true;
  if (!step.ok()) {
    ++counters_.drops_no_route;
    packet.discard = true;
    return;
  }
  packet.out_port = step->port;
  // The local port keeps the packet's VC; network hops take the routing
  // function's class within the packet's set (NET-3.4).
  packet.out_vc =
      step->port == local_port() ? vc : set * config_.vc_classes + step->vc;
  if (step->port != local_port() && packet.header.ttl == 0) {
    ++counters_.drops_ttl;  // NET-2.4
    packet.discard = true;
  }
}

void Router::AllocateVcs() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const unsigned inputs = port_count() * vcs_;
  for (unsigned o = 0; o < port_count() * vcs_; ++o) {
    if (outputs_[o].owned) {
      continue;
    }
    // Round-robin over the input VCs whose head packet wants this VC.
    for (unsigned k = 0; k < inputs; ++k) {
      const unsigned i = (va_next_[o] + k) % inputs;
      InputVc& in = inputs_[i];
      if (in.packets.empty()) {
        continue;
      }
      InputPacket& head = in.packets.front();
      if (!head.routed || head.allocated || head.discard || head.ready > now ||
          head.out_port * vcs_ + head.out_vc != o) {
        continue;
      }
      head.allocated = true;
      head.ready = now + period_ * config_.va_cycles;
      outputs_[o].owned = true;
      va_next_[o] = (i + 1) % inputs;
      progress_ = true;
      break;
    }
  }
}

void Router::AllocateSwitch() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const unsigned ports = port_count();
  // Input stage: each input port picks one of its VCs that can move a slot.
  std::vector<int> request(ports, -1);  // input port -> chosen VC
  for (unsigned p = 0; p < ports; ++p) {
    for (unsigned k = 0; k < vcs_; ++k) {
      const unsigned v = (sa_input_next_[p] + k) % vcs_;
      InputVc& in = input(p, v);
      if (in.packets.empty()) {
        continue;
      }
      InputPacket& head = in.packets.front();
      if (head.discard) {
        // A dropped packet only absorbs its bytes; once all are in, it goes.
        if (head.bytes.size() == head.total) {
          in.packets.pop_front();
          progress_ = true;
        }
        continue;
      }
      const size_t chunk = std::min(config_.slot_bytes, head.total - head.sent);
      const bool bytes_here = head.bytes.size() - head.sent >= chunk;
      if (head.allocated && head.ready <= now && bytes_here &&
          output(head.out_port, head.out_vc).credits > 0) {
        request[p] = static_cast<int>(v);
        break;
      }
    }
  }
  // Output stage: each output port grants one requesting input.
  for (unsigned o = 0; o < ports; ++o) {
    for (unsigned k = 0; k < ports; ++k) {
      const unsigned p = (sa_output_next_[o] + k) % ports;
      if (request[p] < 0 || input(p, static_cast<unsigned>(request[p]))
                                    .packets.front()
                                    .out_port != o) {
        continue;
      }
      Send(p, static_cast<unsigned>(request[p]));
      sa_output_next_[o] = (p + 1) % ports;
      sa_input_next_[p] = (static_cast<unsigned>(request[p]) + 1) % vcs_;
      request[p] = -1;
      break;
    }
  }
}

void Router::Send(unsigned in_port, unsigned in_vc) {
  InputVc& in = input(in_port, in_vc);
  InputPacket& packet = in.packets.front();
  const size_t chunk = std::min(config_.slot_bytes, packet.total - packet.sent);
  link::Slot slot;
  slot.vc = packet.out_vc;
  slot.bytes.assign(config_.slot_bytes, 0);  // padded at the packet's end
  std::copy(packet.bytes.begin() + packet.sent,
            packet.bytes.begin() + packet.sent + chunk, slot.bytes.begin());
  const bool to_network = packet.out_port != local_port();
  progress_ = true;
  if (packet.sent == 0 && to_network) {
    ForwardRouteHeader(slot.bytes.data(), packet.out_vc);  // NET-2.4
  }
  packet.sent += chunk;
  OutputVc& out = output(packet.out_port, packet.out_vc);
  --out.credits;
  ++flits_out_[packet.out_port];
  // Switch allocation and crossbar traversal: the slot leaves the router
  // that many cycles after the grant.
  port(packet.out_port)
      .out->Put(std::move(slot),
                period_ * (config_.sa_cycles + config_.st_cycles));
  if (packet.sent == packet.total) {
    out.owned = false;
    if (to_network) {
      ++counters_.forwarded;
    } else {
      ++counters_.ejected;
      counters_.hops += packet.header.hops;
    }
    in.packets.pop_front();
  } else {
    // Later slots of the packet follow one cycle after another.
    packet.ready = sc_core::sc_time_stamp() + period_;
  }
}

void Router::ReturnCredits(unsigned port_index, unsigned vc) {
  InputVc& in = input(port_index, vc);
  // Bytes still held are those of live packets not yet sent; everything
  // else that arrived (sent bytes, padding, dropped packets) is free.
  uint64_t held = 0;
  for (const InputPacket& packet : in.packets) {
    held += packet.discard ? 0 : packet.bytes.size() - packet.sent;
  }
  const uint64_t freed_slots = (in.arrived_bytes - held) / config_.slot_bytes;
  if (freed_slots > in.credits_returned) {
    const auto count = static_cast<unsigned>(freed_slots - in.credits_returned);
    in.credits_returned = freed_slots;
    port(port_index).out->Credit(vc, count, sc_core::SC_ZERO_TIME);
  }
}

StatList Router::Stats() const {
  const std::string prefix = std::string(name()) + ".";
  StatList stats = {{prefix + "injected", counters_.injected},
                    {prefix + "ejected", counters_.ejected},
                    {prefix + "forwarded", counters_.forwarded},
                    {prefix + "hops", counters_.hops},
                    {prefix + "drops_ttl", counters_.drops_ttl},
                    {prefix + "drops_header", counters_.drops_header},
                    {prefix + "stream_errors", counters_.stream_errors},
                    {prefix + "drops_no_route", counters_.drops_no_route}};
  for (unsigned p = 0; p < port_count(); ++p) {
    const std::string port_prefix =
        prefix + (p == local_port() ? "local" : "port" + std::to_string(p));
    stats.push_back({port_prefix + ".flits_in", flits_in_[p]});
    stats.push_back({port_prefix + ".flits_out", flits_out_[p]});
  }
  return stats;
}

}  // namespace lq::net
