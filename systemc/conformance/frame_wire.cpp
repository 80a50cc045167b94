// SPDX-License-Identifier: Apache-2.0
// The transport conformance bench's port.
#include "systemc/conformance/frame_wire.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "models/roce/icrc.h"
#include "models/roce/opcode.h"

namespace lq::conformance {

namespace {

// The template's interface as `node`'s, knowing at least nodes up to the
// higher of `dut` and `peer`.
net::NetworkInterfaceConfig InterfaceFor(net::NetworkInterfaceConfig config,
                                         uint16_t node, uint16_t dut,
                                         uint16_t peer) {
  config.node = node;
  config.nodes = std::max<uint32_t>(config.nodes, std::max(dut, peer) + 1u);
  return config;
}

// A frame one of the wire's interfaces delivered, decoded.
PortFrame Arrived(FrameDirection direction, net::Delivered delivered) {
  PortFrame frame;
  frame.direction = direction;
  frame.at = delivered.at;
  frame.tc = delivered.header.tc;
  frame.Replace(std::move(delivered.payload));
  return frame;
}

}  // namespace

std::optional<roce::Opcode> PortFrame::opcode() const {
  if (!packet) {
    return std::nullopt;
  }
  return static_cast<roce::Opcode>(packet->bth.opcode);
}

bool PortFrame::is_request() const {
  const auto code = opcode();
  return code && (*code <= roce::Opcode::kReadRequest ||
                  *code == roce::Opcode::kCompareSwap ||
                  *code == roce::Opcode::kFetchAdd);
}

bool PortFrame::is_ack() const {
  return opcode() == roce::Opcode::kAcknowledge &&
         packet->aeth->type() == roce::AethType::kAck;
}

bool PortFrame::is_nak() const {
  return opcode() == roce::Opcode::kAcknowledge &&
         packet->aeth->type() != roce::AethType::kAck;
}

void PortFrame::Rebuild(const roce::RocePacket& changed) {
  Result<Bytes> built = roce::BuildPacket(changed);
  if (!built.ok()) {
    // A case asked for an edit the builder refuses: a bench bug.
    throw std::logic_error("FrameWire: cannot rebuild the frame: " +
                           built.error().reason);
  }
  Replace(std::move(built).value());
}

void PortFrame::Replace(Bytes changed) {
  bytes = std::move(changed);
  Result<roce::RocePacket> parsed = roce::ParsePacket(bytes);
  if (parsed.ok()) {
    packet = std::move(parsed).value();
    parse_error.clear();
  } else {
    packet.reset();
    parse_error = parsed.error().reason;
  }
}

Bytes ResealIcrc(Bytes frame) {
  const size_t size = frame.size();
  if (size < roce::kIcrcSize) {
    return frame;
  }
  const Result<uint32_t> icrc =
      roce::ComputeIcrc(ByteView(frame.data(), size - roce::kIcrcSize));
  if (!icrc.ok()) {
    return frame;
  }
  for (size_t i = 0; i < roce::kIcrcSize; ++i) {  // Little-endian.
    frame[size - roce::kIcrcSize + i] = static_cast<uint8_t>(*icrc >> (8 * i));
  }
  return frame;
}

std::string Describe(const PortFrame& frame) {
  if (!frame.packet) {
    return "undecodable frame (" + frame.parse_error + ")";
  }
  const roce::RocePacket& packet = *frame.packet;
  char psn[48];
  std::snprintf(psn, sizeof psn, " qp 0x%x psn 0x%06x", packet.bth.dest_qp,
                packet.bth.psn);
  std::string text = roce::DescribeOpcode(packet.bth.opcode) + psn;
  if (packet.bth.ack_req) {
    text += " AckReq";
  }
  if (packet.aeth) {
    char aeth[40];
    std::snprintf(aeth, sizeof aeth, " aeth 0x%02x msn %u",
                  packet.aeth->syndrome, packet.aeth->msn);
    text += aeth;
  }
  if (!packet.payload.empty()) {
    text += " " + std::to_string(packet.payload.size()) + " B";
  }
  return text;
}

FrameWire::FrameWire(const sc_core::sc_module_name& name, uint16_t dut_node,
                     uint16_t peer_node,
                     const net::NetworkInterfaceConfig& interface)
    : sc_module(name),
      dut_node_(dut_node),
      peer_node_(peer_node),
      toward_dut_("toward_dut",
                  InterfaceFor(interface, peer_node, dut_node, peer_node),
                  [this](net::Delivered d) { FromDut(std::move(d)); }),
      toward_peer_("toward_peer",
                   InterfaceFor(interface, dut_node, dut_node, peer_node),
                   [this](net::Delivered d) { FromPeer(std::move(d)); }) {
  SC_HAS_PROCESS(FrameWire);
  SC_METHOD(ToPeerWhenArrived);
  sensitive << to_peer_due_;
  dont_initialize();
}

void FrameWire::SetEdit(FrameDirection direction, Edit edit) {
  (direction == FrameDirection::kFromDut ? edit_from_dut_ : edit_to_dut_) =
      std::move(edit);
}

void FrameWire::SetMutantEdit(FrameDirection direction, Edit edit) {
  (direction == FrameDirection::kFromDut ? mutant_from_dut_ : mutant_to_dut_) =
      std::move(edit);
}

void FrameWire::Record(const PortFrame& frame) {
  log_.push_back(frame);
  logged_.notify(sc_core::SC_ZERO_TIME);
}

// DUT -> (mutant) -> record -> (case) -> partner.
void FrameWire::FromDut(net::Delivered delivered) {
  PortFrame frame = Arrived(FrameDirection::kFromDut, std::move(delivered));
  if (mutant_from_dut_ && mutant_from_dut_(frame) == EditResult::kDrop) {
    return;
  }
  Record(frame);
  if (edit_from_dut_ && edit_from_dut_(frame) == EditResult::kDrop) {
    return;
  }
  // Slots annotated with a latency (TransportBench::set_dut_latency) reach
  // the wire later than the kernel's time: the partner may not answer
  // before then.
  const sc_core::sc_time wait = frame.at > sc_core::sc_time_stamp()
                                    ? frame.at - sc_core::sc_time_stamp()
                                    : sc_core::SC_ZERO_TIME;
  if (to_peer_.empty()) {
    to_peer_due_.notify(wait);
  }
  to_peer_.push_back(std::move(frame));
}

void FrameWire::ToPeerWhenArrived() {
  while (!to_peer_.empty() && to_peer_.front().at <= sc_core::sc_time_stamp()) {
    PortFrame& frame = to_peer_.front();
    toward_peer_.Send(peer_node_, frame.tc, std::move(frame.bytes));
    to_peer_.pop_front();
  }
  if (!to_peer_.empty()) {
    to_peer_due_.notify(to_peer_.front().at - sc_core::sc_time_stamp());
  }
}

// Partner -> (case) -> record -> (mutant) -> DUT.
void FrameWire::FromPeer(net::Delivered delivered) {
  PortFrame frame = Arrived(FrameDirection::kToDut, std::move(delivered));
  if (edit_to_dut_ && edit_to_dut_(frame) == EditResult::kDrop) {
    return;
  }
  ToDut(std::move(frame));
}

void FrameWire::InjectToDut(Bytes bytes, uint8_t tc) {
  PortFrame frame;
  frame.direction = FrameDirection::kToDut;
  frame.at = sc_core::sc_time_stamp();
  frame.tc = tc;
  frame.Replace(std::move(bytes));
  ToDut(std::move(frame));
}

void FrameWire::ToDut(PortFrame frame) {
  Record(frame);
  if (mutant_to_dut_ && mutant_to_dut_(frame) == EditResult::kDrop) {
    return;
  }
  toward_dut_.Send(dut_node_, frame.tc, std::move(frame.bytes));
}

}  // namespace lq::conformance
