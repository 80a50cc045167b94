// SPDX-License-Identifier: Apache-2.0
// A neighbour on one port of the router under test, as a router conformance
// case drives it (decision 0023): it sends packets on a VC as the router's
// credits allow, one slot per `gap`; grants the router credits for the
// slots it sends here only when the case says, so that a case can hold an
// output and fill the router; sends link control messages (PFC frames);
// and records, with their times, every slot it sent and received, every
// whole packet that arrived and every control message.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "models/network/vc_stream.h"
#include "systemc/link/slot_socket.h"

namespace lq::conformance {

struct RouterPeerConfig {
  size_t slot_bytes = 236;
  unsigned vcs = 4;
  uint32_t nodes = 1;  // for the received stream's header checks
  uint16_t max_payload = 9216;
  sc_core::sc_time gap{1, sc_core::SC_NS};  // least time between slots
  // A mutant's: the control messages this peer sends never reach the DUT.
  bool loses_control = false;
  // A mutant's: applied to each whole packet the DUT sends here, as if the
  // DUT had sent it so.
  std::function<void(Bytes& packet)> mutate_received;
};

class RouterPeer : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;

  // A slot that went one way, and the bytes of packets it carried (its
  // padding not counted): what TRN-8.4 counts.
  struct SlotRecord {
    sc_core::sc_time at;
    unsigned vc = 0;
    size_t packet_bytes = 0;
  };
  struct Packet {
    sc_core::sc_time first_slot, last_slot;
    Bytes bytes;  // routing header + frame
  };
  struct ControlMessage {
    sc_core::sc_time at;
    Bytes message;
  };

  RouterPeer(const sc_core::sc_module_name& name,
             const RouterPeerConfig& config);

  // Queues `packets` (each routing header + frame) on `vc`, back to back
  // in the VC's stream (NET-2.7), after the slots queued before; the last
  // slot is padded.
  void Send(const std::vector<Bytes>& packets, unsigned vc);
  // While held, no slot leaves (the queue keeps them).
  void Hold(bool held);
  // Grants the router `count` more slots of room on `vc` now.
  void Grant(unsigned vc, unsigned count);
  // Grants one slot on each VC every `interval` for every slot that
  // arrives, from now on (zero: at once, as a free neighbour does).
  void GrantAsSlotsArrive(const sc_core::sc_time& interval);
  void SendControl(Bytes message);

  const std::vector<SlotRecord>& sent() const { return sent_; }
  const std::vector<SlotRecord>& received() const { return received_; }
  const std::vector<Packet>& packets() const { return packets_; }
  const std::vector<ControlMessage>& controls() const { return controls_; }
  // Headers the peer's parsers refused in what the DUT sent (NET-2.10's
  // checks as a receiver makes them): none from a conforming router.
  uint64_t bad_headers() const { return bad_headers_; }
  // Slots queued and not yet sent.
  size_t queued_slots() const { return queue_.size(); }
  // The credits the router has granted this peer on `vc` and it has not
  // spent, and all it granted since the start.
  unsigned credits(unsigned vc) const { return credits_.at(vc); }
  uint64_t credits_granted(unsigned vc) const { return granted_.at(vc); }
  // Notified whenever anything arrives.
  const sc_core::sc_event& arrival() const { return arrival_; }

 private:
  struct QueuedSlot {
    unsigned vc;
    Bytes bytes;
    size_t packet_bytes;
  };

  void Put(link::Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  void SendSlots();      // SC_THREAD
  void ReturnCredits();  // SC_THREAD: GrantAsSlotsArrive's

  RouterPeerConfig config_;
  std::deque<QueuedSlot> queue_;
  bool held_ = false;
  std::vector<unsigned> credits_;
  std::vector<uint64_t> granted_;
  sc_core::sc_event wake_sender_;
  std::vector<std::unique_ptr<net::SlotParser>> parsers_;  // per VC
  std::vector<Packet> partial_;                            // per VC
  std::vector<net::SlotParser::Event> events_;
  bool auto_grant_ = false;
  sc_core::sc_time grant_interval_;
  std::vector<unsigned> owed_;  // per VC: credits to return
  sc_core::sc_event wake_granter_;
  uint64_t bad_headers_ = 0;
  std::vector<SlotRecord> sent_, received_;
  std::vector<Packet> packets_;
  std::vector<ControlMessage> controls_;
  sc_core::sc_event arrival_;
};

}  // namespace lq::conformance
