// SPDX-License-Identifier: Apache-2.0
// NetworkInterface: header building, slot packing with credits, ejection.
#include "systemc/network/network_interface.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace lq::net {

NetworkInterface::NetworkInterface(const sc_core::sc_module_name& name,
                                   const NetworkInterfaceConfig& config,
                                   std::function<void(Delivered)> on_delivery)
    : sc_module(name),
      socket("socket"),
      config_(config),
      vcs_(config.vc_classes * config.vc_sets),
      period_(config.clock_ns, sc_core::SC_NS),
      on_delivery_(std::move(on_delivery)),
      packers_(vcs_, SlotPacker(config.slot_bytes)),
      credits_(vcs_, 0),
      fault_random_(config.faults.seed) {
  for (const uint8_t set : config.tc_map) {
    if (set >= config.vc_sets) {
      throw std::invalid_argument(
          std::string(this->name()) + ": TC_MAP names VC set " +
          std::to_string(set) + " of " + std::to_string(config.vc_sets) +
          " (NET-3.5)");
    }
  }
  socket.in.bind(static_cast<link::SlotIf&>(*this));
  for (unsigned v = 0; v < vcs_; ++v) {
    SlotParser::Config parser;
    parser.vc = v;
    parser.nodes = config.nodes;
    parser.max_payload = config.max_payload;
    parsers_.push_back(std::make_unique<SlotParser>(parser));
  }
  SC_HAS_PROCESS(NetworkInterface);
  SC_METHOD(Transmit);
  sensitive << wake_;
  dont_initialize();
}

void NetworkInterface::start_of_simulation() {
  for (unsigned v = 0; v < vcs_; ++v) {
    socket.out->Credit(v, config_.vc_buffer_flits, sc_core::SC_ZERO_TIME);
  }
}

void NetworkInterface::Send(uint16_t dst, uint8_t tc, Bytes payload) {
  waiting_.push_back({dst, static_cast<uint8_t>(tc & 0x7), std::move(payload)});
  waiting_bytes_ += kRouteHeaderBytes + waiting_.back().payload.size();
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void NetworkInterface::SendMgmt(uint16_t dst, Bytes message) {
  waiting_mgmt_.push_back({dst, kMgmtTrafficClass, std::move(message)});
  wake_.notify(sc_core::SC_ZERO_TIME);
}

uint64_t NetworkInterface::Fail() {
  failed_ = true;
  const uint64_t never_admitted = waiting_.size();
  lost_waiting_ += never_admitted;
  waiting_.clear();
  waiting_mgmt_.clear();
  waiting_bytes_ = 0;
  packers_.assign(vcs_, SlotPacker(config_.slot_bytes));
  return never_admitted;
}

void NetworkInterface::Restore() {
  failed_ = false;
  frozen_ = true;
  epoch_ = 0;
  paused_ = {};
  credits_.assign(vcs_, 0);
  pending_credits_.clear();
  next_vc_ = 0;
  for (unsigned v = 0; v < vcs_; ++v) {
    parsers_[v]->Reset();
    socket.out->Credit(v, config_.vc_buffer_flits, sc_core::SC_ZERO_TIME);
  }
}

void NetworkInterface::SetFrozen(bool frozen) {
  frozen_ = frozen;
  if (!frozen) {
    wake_.notify(sc_core::SC_ZERO_TIME);
  }
}

// The local port takes a waiting packet (NET-8.8) once the VC it would use
// has less than a slot queued, so packets wait here whole, not in a VC's
// stream: a freeze then holds every packet not yet begun, and the header,
// built now, carries the epoch in force when the packet enters.
void NetworkInterface::SetPaused(uint8_t tc, bool paused) {
  paused_.at(tc) = paused;
  if (!paused) {
    wake_.notify(sc_core::SC_ZERO_TIME);
  }
}

void NetworkInterface::Frame(RouteHeader header, const Bytes& payload) {
  header.src = config_.node;
  header.epoch = epoch_;
  header.ttl = config_.initial_ttl;
  header.len = static_cast<uint16_t>(payload.size());
  std::array<uint8_t, kRouteHeaderBytes> encoded;
  EncodeRouteHeader(header, encoded.data());
  packers_[header.vc].Push(ByteView(encoded.data(), encoded.size()), payload);
}

// MGMT packets have VC set S-1 to themselves (NET-3.5), so they wait for
// nothing but that VC's room.
void NetworkInterface::AdmitMgmt() {
  const auto vc =
      static_cast<uint8_t>((config_.vc_sets - 1) * config_.vc_classes);
  while (!waiting_mgmt_.empty() &&
         packers_[vc].pending() < config_.slot_bytes) {
    RouteHeader header;
    header.kind = static_cast<uint8_t>(PacketKind::kMgmt);
    header.tc = kMgmtTrafficClass;
    header.dst = waiting_mgmt_.front().dst;
    header.vc = vc;
    Frame(header, waiting_mgmt_.front().payload);
    waiting_mgmt_.pop_front();
  }
}

void NetworkInterface::Admit() {
  AdmitMgmt();
  while (!frozen_) {
    // The oldest packet of a class that is not paused.
    const auto it =
        std::find_if(waiting_.begin(), waiting_.end(),
                     [this](const WaitingPacket& p) { return !paused_[p.tc]; });
    if (it == waiting_.end()) {
      return;
    }
    WaitingPacket& next = *it;
    RouteHeader header;
    header.kind = static_cast<uint8_t>(PacketKind::kData);
    header.tc = next.tc;
    header.dst = next.dst;
    header.vc = static_cast<uint8_t>(
        InjectionVc(config_.tc_map[header.tc], header.dst));
    if (packers_[header.vc].pending() >= config_.slot_bytes) {
      return;
    }
    Frame(header, next.payload);
    waiting_bytes_ -= kRouteHeaderBytes + next.payload.size();
    waiting_.erase(it);
    ++admitted_;
    admitted_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

// Any VC of the set takes an injected packet, which the router routes as
// class 0 (NET-8.8): the one with the most room left in the router's buffer
// after the bytes already waiting here, so that packets queue in parallel
// rather than behind one another in one VC; or, keeping each destination's
// packets in order, the VC DST mod C of the set.
unsigned NetworkInterface::InjectionVc(unsigned set, uint16_t dst) const {
  if (config_.in_order) {
    return set * config_.vc_classes + dst % config_.vc_classes;
  }
  const auto room = [this](unsigned v) {
    return static_cast<int64_t>(credits_[v] * config_.slot_bytes) -
           static_cast<int64_t>(packers_[v].pending());
  };
  const unsigned first = set * config_.vc_classes;
  unsigned best = first;
  for (unsigned v = first + 1; v < first + config_.vc_classes; ++v) {
    if (room(v) > room(best)) {
      best = v;
    }
  }
  return best;
}

size_t NetworkInterface::pending_bytes() const {
  size_t pending = waiting_bytes_;
  for (const SlotPacker& packer : packers_) {
    pending += packer.pending();
  }
  return pending;
}

// One slot per cycle, round-robin over the VCs that have bytes and credit.
// A VC's last bytes go out padded: every packet ends at a boundary.
void NetworkInterface::Transmit() {
  if (failed_) {
    return;
  }
  CountDueCredits();
  Admit();
  // A credit the router returns in the delta a slot left wakes this again
  // within that cycle; the next slot still waits for the next cycle.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const auto next_free = [this] { return last_sent_ + period_; };
  for (unsigned k = 0; k < vcs_ && !(has_sent_ && now < next_free()); ++k) {
    const unsigned v = (next_vc_ + k) % vcs_;
    if (credits_[v] == 0 || !packers_[v].HasSlot(true)) {
      continue;
    }
    link::Slot slot;
    slot.vc = v;
    slot.bytes = std::move(spare_slot_);  // its buffer, if Put left one
    packers_[v].PopSlot(slot.bytes);
    --credits_[v];
    socket.out->Put(std::move(slot), period_);
    next_vc_ = (v + 1) % vcs_;
    last_sent_ = now;
    has_sent_ = true;
  }
  for (unsigned v = 0; v < vcs_; ++v) {
    if (credits_[v] > 0 && packers_[v].HasSlot(true)) {
      wake_.notify(has_sent_ && now < next_free() ? next_free() - now
                                                  : period_);
      return;
    }
  }
}

void NetworkInterface::Put(link::Slot slot, const sc_core::sc_time& delay) {
  if (failed_) {
    return;
  }
  if (slot.abort) {
    parsers_.at(slot.vc)->Reset();  // the packet was cut upstream (NET-7.1)
    return;
  }
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  // The events' buffer is this call's while it runs: a delivery that
  // leads to another Put finds none and makes its own.
  std::vector<SlotParser::Event> events = std::move(events_);
  parsers_.at(slot.vc)->Accept(slot.bytes, events);
  for (auto& event : events) {
    if (event.kind != SlotParser::Event::Kind::kPacket) {
      ++refused_;  // a router sends only checked headers: a fault
      continue;
    }
    Delivered delivered;
    delivered.header = event.header;
    delivered.payload = std::move(event.packet);
    delivered.payload.erase(delivered.payload.begin(),
                            delivered.payload.begin() + kRouteHeaderBytes);
    delivered.at = at;
    if (IsMgmt(delivered.header)) {
      if (on_mgmt_) {
        on_mgmt_(std::move(delivered));
      } else {
        ++mgmt_unclaimed_;
      }
      continue;
    }
    if (InjectFault(delivered.payload)) {
      continue;  // lost
    }
    on_delivery_(std::move(delivered));
  }
  events_ = std::move(events);
  spare_slot_ = std::move(slot.bytes);  // for the next slot sent
  // Consumed at once: the room is the router's again.
  socket.out->Credit(slot.vc, 1, delay);
}

bool NetworkInterface::InjectFault(Bytes& payload) {
  const DeliveryFaults& faults = config_.faults;
  if (faults.drop <= 0 && faults.corrupt <= 0) {
    return false;
  }
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  if (chance(fault_random_) < faults.drop) {
    ++fault_drops_;
    return true;
  }
  if (!payload.empty() && chance(fault_random_) < faults.corrupt) {
    const uint64_t bit = fault_random_() % (payload.size() * 8);
    payload[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ++fault_corruptions_;
  }
  return false;
}

void NetworkInterface::Control(Bytes, const sc_core::sc_time&) {
  throw std::logic_error(std::string(name()) +
                         ": a control message reached the local port");
}

// A credit the router returns at once counts at once; one that crosses an
// interface link counts when it arrives.
void NetworkInterface::Credit(unsigned vc, unsigned count,
                              const sc_core::sc_time& delay) {
  if (delay == sc_core::SC_ZERO_TIME) {
    credits_.at(vc) += count;
  } else {
    pending_credits_.push_back({sc_core::sc_time_stamp() + delay, vc, count});
  }
  wake_.notify(delay);
}

void NetworkInterface::CountDueCredits() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  auto kept = pending_credits_.begin();
  for (const PendingCredit& credit : pending_credits_) {
    if (credit.due <= now) {
      credits_.at(credit.vc) += credit.count;
    } else {
      *kept++ = credit;
    }
  }
  pending_credits_.erase(kept, pending_credits_.end());
}

}  // namespace lq::net
