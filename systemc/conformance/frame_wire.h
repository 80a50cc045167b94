// SPDX-License-Identifier: Apache-2.0
// FrameWire: the transport conformance bench's port. It stands between the
// transport engine under test and its partner engine where a router's local
// port would be, one network interface facing each engine, and carries
// every transport frame across, decoded and on record, with the edits a
// case asks for: drop a frame, change its bytes, inject one of its own.
// The record holds the frames the DUT sent, and the frames it was given
// after the case's edits: what crosses its port, in the order the wire
// saw them.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "models/roce/packet.h"
#include "systemc/link/slot_socket.h"
#include "systemc/network/network_interface.h"

namespace lq::conformance {

enum class FrameDirection { kFromDut, kToDut };

// One frame at the DUT's transport port.
struct PortFrame {
  FrameDirection direction = FrameDirection::kFromDut;
  // When its last byte reached the wire. A frame to the DUT reaches the
  // DUT a few slot times later (the wire's interface sends it on).
  sc_core::sc_time at;
  uint8_t tc = 0;  // The network traffic class it travels on.
  Bytes bytes;     // Ethernet frame without FCS (TRN-1.1).
  // Its decoding by the reference parser (TRN-4.5), or why that failed.
  std::optional<roce::RocePacket> packet;
  std::string parse_error;

  bool from_dut() const { return direction == FrameDirection::kFromDut; }
  // The opcode, when the frame decoded.
  std::optional<roce::Opcode> opcode() const;
  // A request packet: SEND, WRITE, READ request or atomic (TRN-4.1).
  bool is_request() const;
  // An ACKNOWLEDGE whose AETH is an ACK; one that is a NAK or RNR NAK.
  bool is_ack() const;
  bool is_nak() const;
  // Re-encodes `changed` into `bytes` (lengths, checksum and ICRC
  // recomputed) and decodes it again: a well-formed edit.
  void Rebuild(const roce::RocePacket& changed);
  // Sets `bytes` and decodes them: an edit that may break the frame.
  void Replace(Bytes changed);
};

// `frame` with its last four bytes set to the ICRC of the rest (TRN-3.3):
// an edit of bytes the ICRC covers that leaves the ICRC right. A frame too
// short to hold one is returned as it is.
Bytes ResealIcrc(Bytes frame);

// A short description of a frame for evidence, e.g. "WRITE FIRST psn 0x12
// AckReq" or "undecodable (bad ICRC)".
std::string Describe(const PortFrame& frame);

class FrameWire : public sc_core::sc_module {
 public:
  enum class EditResult { kPass, kDrop };
  using Edit = std::function<EditResult(PortFrame&)>;

  // Node IDs of the DUT and its partner; `interface` is the template of
  // both network interfaces (node is filled in, and nodes raised to hold
  // both IDs).
  FrameWire(const sc_core::sc_module_name& name, uint16_t dut_node,
            uint16_t peer_node, const net::NetworkInterfaceConfig& interface);

  // Bound to the DUT's and the partner's network interfaces.
  link::SlotSocket& dut_side() { return toward_dut_.socket; }
  link::SlotSocket& peer_side() { return toward_peer_.socket; }

  // The case's edit of frames going `direction`; one per direction.
  void SetEdit(FrameDirection direction, Edit edit);
  // A broken DUT variant's edit (frame_mutants.h): it applies nearest the
  // DUT, inside what the record shows.
  void SetMutantEdit(FrameDirection direction, Edit edit);
  // Sends `bytes` to the DUT now, on traffic class `tc`, past the case's
  // edit, and records it.
  void InjectToDut(Bytes bytes, uint8_t tc = 0);

  const std::vector<PortFrame>& log() const { return log_; }
  // Notified whenever a frame is recorded.
  const sc_core::sc_event& logged_event() const { return logged_; }

 private:
  void FromDut(net::Delivered delivered);
  void FromPeer(net::Delivered delivered);
  void Record(const PortFrame& frame);
  void ToDut(PortFrame frame);
  // SC_METHOD: passes the DUT's frames on to the partner once they have
  // reached the wire (their `at`, which the DUT's slots annotate).
  void ToPeerWhenArrived();

  uint16_t dut_node_, peer_node_;
  // The interface facing the DUT plays the partner's node, and the other
  // the DUT's, so that each engine sees the addresses it expects.
  net::NetworkInterface toward_dut_, toward_peer_;
  Edit edit_from_dut_, edit_to_dut_;
  Edit mutant_from_dut_, mutant_to_dut_;
  std::vector<PortFrame> log_;
  sc_core::sc_event logged_;
  std::deque<PortFrame> to_peer_;  // in order of arrival
  sc_core::sc_event to_peer_due_;
};

}  // namespace lq::conformance
