// SPDX-License-Identifier: Apache-2.0
// NetworkInterface: a node's side of its router's local port, where the
// transport engine (or a traffic generator) injects packets and receives
// those addressed to it. It builds the routing header (NET-2.3), packs
// packets into slots per VC with the router's credits, and parses ejected
// slots back into packets. One slot per cycle each way.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <systemc>
#include <vector>

#include "models/network/route_header.h"
#include "models/network/vc_stream.h"
#include "systemc/link/slot_socket.h"

namespace lq::net {

// NET-8.10: losses beyond what the link layer repairs, injected where the
// network hands packets up: each delivered packet is dropped with
// probability `drop`, else has one payload bit flipped with probability
// `corrupt`, from a generator seeded with `seed`.
struct DeliveryFaults {
  double drop = 0;
  double corrupt = 0;
  uint64_t seed = 1;
};

struct NetworkInterfaceConfig {
  uint16_t node = 0;
  uint32_t nodes = 1;
  unsigned vc_classes = 2;
  unsigned vc_sets = 2;
  unsigned vc_buffer_flits = 64;  // room granted to the router per VC (NET-8.1)
  size_t slot_bytes = 236;
  double clock_ns = 1.0;
  uint8_t initial_ttl = 64;  // net.initial_ttl
  uint16_t max_payload = 9216;
  // NET-8.8: inject each destination's packets on one VC of the set, so
  // that with deterministic routing they arrive in the order sent (what
  // the RC transport needs); otherwise on the VC with the most room.
  bool in_order = false;
  DeliveryFaults faults;
  // TC_MAP (NET-3.5): the VC set of each traffic class; DefaultTcMap().
  std::array<uint8_t, 8> tc_map{0, 0, 0, 0, 0, 0, 1, 1};
};

// NET-3.5's default TC_MAP for `vc_sets` sets: TC 6-7 in set 1 when there
// is one, everything else in set 0.
inline std::array<uint8_t, 8> DefaultTcMap(unsigned vc_sets) {
  const uint8_t high = vc_sets > 1 ? 1 : 0;
  return {0, 0, 0, 0, 0, 0, high, high};
}

// A packet handed up at its destination.
struct Delivered {
  RouteHeader header;
  Bytes payload;
  sc_core::sc_time at;
};

class NetworkInterface : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;  // to the router's local port

  NetworkInterface(const sc_core::sc_module_name& name,
                   const NetworkInterfaceConfig& config,
                   std::function<void(Delivered)> on_delivery);

  // Queues a DATA packet for `dst` on traffic class `tc` (NET-2.3).
  void Send(uint16_t dst, uint8_t tc, Bytes payload);
  // Queues a MGMT packet for `dst` carrying management message `message`
  // (NET-7.4): TC 7, class 0 of VC set S-1, admitted ahead of DATA and
  // whatever INJECT_FREEZE or PFC say.
  void SendMgmt(uint16_t dst, Bytes message);
  // Where MGMT packets addressed here go (unset: they are counted in
  // mgmt_unclaimed and dropped). DATA packets go to on_delivery.
  void SetMgmtHandler(std::function<void(Delivered)> handler) {
    on_mgmt_ = std::move(handler);
  }
  uint64_t mgmt_unclaimed() const { return mgmt_unclaimed_; }
  // Packets that failed the receiver's checks here (NET-2.10): lost, and
  // counted so that no loss goes unseen.
  uint64_t refused() const { return refused_; }
  // Bytes queued for the router and not yet sent.
  size_t pending_bytes() const;
  // Notified whenever the local port admits a packet: room may have
  // appeared for an engine that bounds pending_bytes().
  const sc_core::sc_event& admitted_event() const { return admitted_event_; }
  // INJECT_FREEZE (NET-5.6, NET-7.7): while frozen the local port admits no
  // new packet; packets already begun finish.
  void SetFrozen(bool frozen);
  // PFC (TRN-8.7): while traffic class `tc` is paused the local port
  // admits none of its packets; the other classes' packets pass them.
  void SetPaused(uint8_t tc, bool paused);
  // TC_MAP (NET-3.5) for packets admitted from now on; every set below
  // vc_sets (the router's registers check that).
  void SetTcMap(const std::array<uint8_t, 8>& tc_map) {
    config_.tc_map = tc_map;
  }
  // The routing epoch stamped on packets admitted from now on (NET-7.7).
  void SetEpoch(uint8_t epoch) { epoch_ = epoch; }
  // DATA packets the local port has admitted.
  uint64_t admitted() const { return admitted_; }
  // The node's injected count for the fabric manager's drain (NET-7.7
  // step 4): packets admitted, and those lost waiting when the node failed,
  // which its router counts as dropped (NET-7.8).
  uint64_t injected() const { return admitted_ + lost_waiting_; }
  // Packets NET-8.10's injection dropped or corrupted.
  uint64_t fault_drops() const { return fault_drops_; }
  uint64_t fault_corruptions() const { return fault_corruptions_; }
  // The node failed: everything waiting is dropped; returns how many
  // packets were never admitted. Sends and receives nothing from then on.
  uint64_t Fail();
  // The failed node came back (NET-7.12): reset, epoch 0, frozen until
  // the fabric manager resumes it. Grants the router its ejection buffer;
  // the router grants the injection buffer when its local port comes up.
  void Restore();

 private:
  struct WaitingPacket {
    uint16_t dst;
    uint8_t tc;
    Bytes payload;
  };
  void Admit();
  void AdmitMgmt();
  // The packet `header` (kind, TC, DST and VC set) heads, framed and queued
  // on its VC: the header built as NET-2.3 says.
  void Frame(RouteHeader header, const Bytes& payload);
  unsigned InjectionVc(unsigned set, uint16_t dst) const;
  void start_of_simulation() override;
  void Put(link::Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  // The local port is inside the node: flow control pauses the interface
  // directly (SetPaused), so a control message arriving here is a bug.
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  void Transmit();  // SC_METHOD: at most one slot per cycle
  // NET-8.10: true if `payload` is to be dropped; may flip one of its bits.
  bool InjectFault(Bytes& payload);

  NetworkInterfaceConfig config_;
  unsigned vcs_;
  sc_core::sc_time period_;
  std::function<void(Delivered)> on_delivery_;
  std::vector<SlotPacker> packers_;
  std::vector<unsigned> credits_;
  // Credits on their way over an interface link with a latency, counted
  // when due (at the start of Transmit), so that what the interface sends
  // in a cycle does not depend on whether the router's cycle ran first.
  struct PendingCredit {
    sc_core::sc_time due;
    unsigned vc;
    unsigned count;
  };
  std::vector<PendingCredit> pending_credits_;
  void CountDueCredits();
  std::vector<std::unique_ptr<SlotParser>> parsers_;
  std::vector<SlotParser::Event> events_;  // Put()'s, reused
  Bytes spare_slot_;  // a slot received, its buffer reused for one sent
  unsigned next_vc_ = 0;
  sc_core::sc_time last_sent_;  // when the latest slot left
  bool has_sent_ = false;
  std::deque<WaitingPacket> waiting_;  // sent, not yet admitted
  std::deque<WaitingPacket> waiting_mgmt_;
  std::function<void(Delivered)> on_mgmt_;
  uint64_t mgmt_unclaimed_ = 0;
  uint64_t refused_ = 0;
  size_t waiting_bytes_ = 0;
  uint64_t admitted_ = 0;
  uint64_t lost_waiting_ = 0;  // waiting when the node failed
  std::mt19937_64 fault_random_;
  uint64_t fault_drops_ = 0;
  uint64_t fault_corruptions_ = 0;
  uint8_t epoch_ = 0;
  bool frozen_ = false;
  std::array<bool, 8> paused_{};  // per traffic class
  bool failed_ = false;
  sc_core::sc_event wake_;
  sc_core::sc_event admitted_event_;
};

}  // namespace lq::net
