// SPDX-License-Identifier: Apache-2.0
// The suite's transport mutants.
#include "systemc/conformance/frame_mutants.h"

#include <memory>
#include <variant>

#include "models/logical/log_message.h"
#include "models/roce/psn.h"
#include "systemc/conformance/log_case_helpers.h"

namespace lq::conformance {

namespace {

using roce::Opcode;
using EditResult = FrameWire::EditResult;

// A DUT that never acts on a NAK: it recovers only when its ACK timer
// expires (against TRN-7.3).
FrameMutant IgnoresNaks() {
  FrameMutant mutant;
  mutant.to_dut = [](PortFrame& frame) {
    return frame.is_nak() ? EditResult::kDrop : EditResult::kPass;
  };
  return mutant;
}

// A DUT that does not check the ICRC: it takes a frame whose ICRC is wrong
// as though it were right (against TRN-3.4).
FrameMutant AcceptsBadIcrc() {
  FrameMutant mutant;
  mutant.to_dut = [](PortFrame& frame) {
    if (!frame.packet) {
      frame.Replace(ResealIcrc(frame.bytes));
    }
    return EditResult::kPass;
  };
  return mutant;
}

// A DUT whose request PSNs skip one after its fourth request packet
// (against TRN-6.4).
FrameMutant SkipsAPsn() {
  FrameMutant mutant;
  auto first = std::make_shared<std::optional<uint32_t>>();
  mutant.from_dut = [first](PortFrame& frame) {
    if (!frame.is_request()) {
      return EditResult::kPass;
    }
    if (!*first) {
      *first = frame.packet->bth.psn;
    }
    if (roce::PsnDistance(**first, frame.packet->bth.psn) >= 4) {
      roce::RocePacket changed = *frame.packet;
      changed.bth.psn = roce::PsnAdd(changed.bth.psn, 1);
      frame.Rebuild(changed);
    }
    return EditResult::kPass;
  };
  return mutant;
}

// A DUT that never asks for an ACK (against TRN-6.7).
FrameMutant NeverAsksForAcks() {
  FrameMutant mutant;
  mutant.from_dut = [](PortFrame& frame) {
    if (frame.is_request() && frame.packet->bth.ack_req) {
      roce::RocePacket changed = *frame.packet;
      changed.bth.ack_req = false;
      frame.Rebuild(changed);
    }
    return EditResult::kPass;
  };
  return mutant;
}

// A DUT whose reaction point never hears a CNP (against TRN-10.2).
FrameMutant IgnoresCnps() {
  FrameMutant mutant;
  mutant.to_dut = [](PortFrame& frame) {
    return frame.opcode() == Opcode::kCnp ? EditResult::kDrop
                                          : EditResult::kPass;
  };
  return mutant;
}

// A logical unit that never acknowledges an invalidation (against
// LOG-6.8): its INVAL_ACKs never leave it.
FrameMutant DropsInvalAcks() {
  FrameMutant mutant;
  mutant.from_dut = [](PortFrame& frame) {
    return CarriesLogMessage(frame, logical::LogMessageType::kInvalAck)
               ? EditResult::kDrop
               : EditResult::kPass;
  };
  return mutant;
}

// A logical unit that names node 5 as the REQUESTER of its FAULT_REQs
// (against LOG-6.10): owners discard them, so its faults are never
// answered (LOG-6.1).
FrameMutant MisnamesRequester() {
  FrameMutant mutant;
  mutant.from_dut = [](PortFrame& frame) {
    if (!CarriesLogMessage(frame, logical::LogMessageType::kFaultRequest)) {
      return EditResult::kPass;
    }
    const auto message = logical::ParseLogMessage(frame.packet->payload);
    if (message) {
      logical::FaultRequest request = std::get<logical::FaultRequest>(*message);
      request.requester = 5;
      roce::RocePacket changed = *frame.packet;
      changed.payload = logical::EncodeLogMessage(request);
      frame.Rebuild(changed);
    }
    return EditResult::kPass;
  };
  return mutant;
}

}  // namespace

std::vector<MutantInfo> FrameMutants() {
  return {{"trn-ignores-nak", "trn",
           "never acts on a NAK; only its ACK timer "
           "makes it resend"},
          {"trn-accepts-bad-icrc", "trn", "does not check the ICRC"},
          {"trn-skips-a-psn", "trn",
           "numbers its requests from sq_psn but skips one after the fourth"},
          {"trn-never-asks-for-acks", "trn", "sets AckReq on no request"},
          {"trn-ignores-cnps", "trn", "does not slow down on a CNP"},
          {"log-drops-inval-acks", "log", "never acknowledges an invalidation"},
          {"log-misnames-requester", "log",
           "names node 5 as the REQUESTER of its FAULT_REQs"}};
}

std::optional<FrameMutant> MakeFrameMutant(const std::string& name) {
  if (name == "trn-ignores-nak") {
    return IgnoresNaks();
  }
  if (name == "trn-accepts-bad-icrc") {
    return AcceptsBadIcrc();
  }
  if (name == "trn-skips-a-psn") {
    return SkipsAPsn();
  }
  if (name == "trn-never-asks-for-acks") {
    return NeverAsksForAcks();
  }
  if (name == "trn-ignores-cnps") {
    return IgnoresCnps();
  }
  if (name == "log-drops-inval-acks") {
    return DropsInvalAcks();
  }
  if (name == "log-misnames-requester") {
    return MisnamesRequester();
  }
  return std::nullopt;
}

std::optional<FrameMutant> MakeFrameMutant(const std::string& name,
                                           const std::string& layer) {
  for (const MutantInfo& info : FrameMutants()) {
    if (info.name == name && info.layer == layer) {
      return MakeFrameMutant(name);
    }
  }
  return std::nullopt;
}

}  // namespace lq::conformance
