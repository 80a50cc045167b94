// SPDX-License-Identifier: Apache-2.0
// RouterPeer: a router conformance case's neighbour on one port.
#include "systemc/conformance/router_peer.h"

#include <algorithm>
#include <utility>

namespace lq::conformance {

using sc_core::sc_time;

RouterPeer::RouterPeer(const sc_core::sc_module_name& name,
                       const RouterPeerConfig& config)
    : sc_module(name),
      socket("socket"),
      config_(config),
      credits_(config.vcs, 0),
      granted_(config.vcs, 0),
      partial_(config.vcs),
      owed_(config.vcs, 0) {
  socket.in(*static_cast<link::SlotIf*>(this));
  for (unsigned vc = 0; vc < config.vcs; ++vc) {
    net::SlotParser::Config parser;
    parser.vc = vc;
    parser.nodes = config.nodes;
    parser.max_payload = config.max_payload;
    parser.streaming = true;
    parsers_.push_back(std::make_unique<net::SlotParser>(parser));
  }
  SC_HAS_PROCESS(RouterPeer);
  SC_THREAD(SendSlots);
  SC_THREAD(ReturnCredits);
}

void RouterPeer::Send(const std::vector<Bytes>& packets, unsigned vc) {
  net::SlotPacker packer(config_.slot_bytes);
  size_t left = 0;
  for (const Bytes& packet : packets) {
    packer.Push(packet);
    left += packet.size();
  }
  while (packer.HasSlot(/*flush=*/true)) {
    const size_t carried = std::min(left, config_.slot_bytes);
    left -= carried;
    queue_.push_back({vc, packer.PopSlot(), carried});
  }
  wake_sender_.notify(sc_core::SC_ZERO_TIME);
}

void RouterPeer::Hold(bool held) {
  held_ = held;
  wake_sender_.notify(sc_core::SC_ZERO_TIME);
}

void RouterPeer::Grant(unsigned vc, unsigned count) {
  socket.out->Credit(vc, count, sc_core::SC_ZERO_TIME);
}

void RouterPeer::GrantAsSlotsArrive(const sc_time& interval) {
  auto_grant_ = true;
  grant_interval_ = interval;
  wake_granter_.notify(sc_core::SC_ZERO_TIME);
}

void RouterPeer::SendControl(Bytes message) {
  if (config_.loses_control) {
    return;
  }
  socket.out->Control(std::move(message), sc_core::SC_ZERO_TIME);
}

void RouterPeer::Credit(unsigned vc, unsigned count, const sc_time& delay) {
  // The router grants with no delay; a later credit is simply early here.
  (void)delay;
  credits_.at(vc) += count;
  granted_.at(vc) += count;
  wake_sender_.notify(sc_core::SC_ZERO_TIME);
}

void RouterPeer::Control(Bytes message, const sc_time& delay) {
  controls_.push_back({sc_core::sc_time_stamp() + delay, std::move(message)});
  arrival_.notify(delay);
}

void RouterPeer::Put(link::Slot slot, const sc_time& delay) {
  const sc_time at = sc_core::sc_time_stamp() + delay;
  size_t packet_bytes = 0;
  parsers_.at(slot.vc)->Accept(slot.bytes, events_);
  Packet& packet = partial_[slot.vc];
  for (const net::SlotParser::Event& event : events_) {
    switch (event.kind) {
      case net::SlotParser::Event::Kind::kHeader:
        packet =
            Packet{at, at,
                   Bytes(event.header_bytes.begin(), event.header_bytes.end())};
        packet_bytes += event.header_bytes.size();
        break;
      case net::SlotParser::Event::Kind::kPayload:
        packet.bytes.insert(packet.bytes.end(), event.chunk.begin(),
                            event.chunk.end());
        packet.last_slot = at;
        packet_bytes += event.chunk.size();
        if (event.last) {
          if (config_.mutate_received) {
            config_.mutate_received(packet.bytes);
          }
          packets_.push_back(std::move(packet));
          packet = Packet{};
        }
        break;
      default:  // a stream the router should never send: kept as is
        ++bad_headers_;
        packets_.push_back({at, at, slot.bytes});
        break;
    }
  }
  received_.push_back({at, slot.vc, packet_bytes});
  if (auto_grant_) {
    ++owed_[slot.vc];
    wake_granter_.notify(delay);
  }
  arrival_.notify(delay);
}

void RouterPeer::SendSlots() {
  for (;;) {
    if (held_ || queue_.empty() || credits_[queue_.front().vc] == 0) {
      wait(wake_sender_);
      continue;
    }
    QueuedSlot slot = std::move(queue_.front());
    queue_.pop_front();
    --credits_[slot.vc];
    sent_.push_back({sc_core::sc_time_stamp(), slot.vc, slot.packet_bytes});
    socket.out->Put({slot.vc, std::move(slot.bytes), false},
                    sc_core::SC_ZERO_TIME);
    wait(config_.gap);
  }
}

void RouterPeer::ReturnCredits() {
  for (;;) {
    const auto owing = std::find_if(owed_.begin(), owed_.end(),
                                    [](unsigned n) { return n > 0; });
    if (!auto_grant_ || owing == owed_.end()) {
      wait(wake_granter_);
      continue;
    }
    const auto vc = static_cast<unsigned>(owing - owed_.begin());
    if (grant_interval_ == sc_core::SC_ZERO_TIME) {
      Grant(vc, *owing);
      *owing = 0;
      continue;
    }
    --*owing;
    Grant(vc, 1);
    wait(grant_interval_);
  }
}

}  // namespace lq::conformance
