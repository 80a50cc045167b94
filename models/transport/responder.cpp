// Responder: sequence checks, validation, placement decisions and replies.
#include "models/transport/responder.h"

#include "models/roce/psn.h"

namespace lq::transport {

using roce::Opcode;

namespace {

bool IsSend(Opcode op) {
  return op >= Opcode::kSendFirst && op <= Opcode::kSendOnlyWithImmediate;
}
bool IsWrite(Opcode op) {
  return op >= Opcode::kWriteFirst && op <= Opcode::kWriteOnlyWithImmediate;
}
bool StartsMessage(Opcode op) {
  return op == Opcode::kSendFirst || op == Opcode::kSendOnly ||
         op == Opcode::kSendOnlyWithImmediate || op == Opcode::kWriteFirst ||
         op == Opcode::kWriteOnly || op == Opcode::kWriteOnlyWithImmediate;
}
bool EndsMessage(Opcode op) {
  return op != Opcode::kSendFirst && op != Opcode::kSendMiddle &&
         op != Opcode::kWriteFirst && op != Opcode::kWriteMiddle;
}
bool WithImmediate(Opcode op) {
  return op == Opcode::kSendLastWithImmediate ||
         op == Opcode::kSendOnlyWithImmediate ||
         op == Opcode::kWriteLastWithImmediate ||
         op == Opcode::kWriteOnlyWithImmediate;
}

}  // namespace

Responder::Responder(const QpAttributes& attributes,
                     const ResponderConfig& config)
    : attributes_(attributes), config_(config), epsn_(attributes.rq_psn) {}

std::vector<Completion> Responder::FlushReceives() {
  std::vector<Completion> flushed;
  for (const RecvWr& wr : receive_) {
    flushed.push_back({wr.wr_id, CompletionStatus::kFlushErr, 0, std::nullopt});
  }
  receive_.clear();
  return flushed;
}

Reply Responder::Ack() const {
  return {roce::PsnAdd(epsn_, roce::kPsnMask), roce::Aeth::Ack(msn_)};
}

ResponderStep Responder::OnRequest(const RequestHeader& request) {
  ResponderStep step;
  if (request.psn == epsn_) {
    return Execute(request);
  }
  if (roce::PsnBefore(request.psn, epsn_)) {
    ++duplicates_;  // TRN-6.11: never executed twice
    if (request.ack_req) {
      step.reply = Ack();
      since_reply_ = 0;
    }
    return step;
  }
  ++out_of_sequence_;
  if (!nak_sent_) {  // TRN-7.2: one NAK, then silence until ePSN
    nak_sent_ = true;
    step.reply =
        Reply{epsn_, roce::Aeth::Nak(msn_, roce::NakCode::kPsnSequenceError)};
    since_reply_ = 0;
  }
  return step;
}

ResponderStep Responder::Refuse(roce::NakCode code) {
  ResponderStep step;
  step.reply = Reply{epsn_, roce::Aeth::Nak(msn_, code)};
  step.fatal = true;  // TRN-6.13
  since_reply_ = 0;
  return step;
}

ResponderStep Responder::Execute(const RequestHeader& request) {
  const Opcode op = request.opcode;
  const bool send = IsSend(op);
  if (!send && !IsWrite(op)) {
    return Refuse(roce::NakCode::kInvalidRequest);  // READ, atomics: later
  }
  const bool first = StartsMessage(op);
  const bool last = EndsMessage(op);
  // TRN-6.13: opcode order within the message, and payload sizes.
  if (first == message_.has_value() || (!first && IsSend(*message_) != send)) {
    return Refuse(roce::NakCode::kInvalidRequest);
  }
  if ((!last && request.length != attributes_.pmtu) ||
      request.length > attributes_.pmtu) {
    return Refuse(roce::NakCode::kInvalidRequest);
  }
  if (!send && first) {
    if (!attributes_.remote_write) {
      return Refuse(roce::NakCode::kRemoteAccessError);
    }
    write_ = request.reth.value_or(roce::Reth{});
  }
  const uint32_t offset = first ? 0 : message_offset_;
  const bool needs_receive = send || WithImmediate(op);
  if (needs_receive && (send ? first : last) && receive_.empty()) {
    // TRN-7.6: no receive WR; ePSN stays, later packets are out of
    // sequence and dropped.
    ResponderStep step;
    step.reply =
        Reply{request.psn, roce::Aeth::RnrNak(msn_, attributes_.min_rnr_timer)};
    nak_sent_ = true;
    since_reply_ = 0;
    return step;
  }
  const uint64_t limit = send ? receive_.front().length : write_.dma_length;
  if (uint64_t{offset} + request.length > limit) {
    return Refuse(roce::NakCode::kInvalidRequest);
  }

  ResponderStep step;
  Placement place;
  place.to_receive_wr = send;
  place.length = request.length;
  if (send) {
    place.wr_id = receive_.front().wr_id;
    place.offset = offset;
  } else {
    place.address = write_.virtual_address + offset;
    place.rkey = write_.rkey;
  }
  step.place = place;
  message_offset_ = offset + request.length;
  message_ = first ? std::optional<Opcode>(op) : message_;
  epsn_ = roce::PsnAdd(epsn_, 1);
  nak_sent_ = false;
  ++since_reply_;
  if (last) {
    msn_ = roce::PsnAdd(msn_, 1);  // TRN-6.10 (24 bits, as PSNs)
    message_.reset();
    if (needs_receive) {
      step.completion =
          Completion{receive_.front().wr_id, CompletionStatus::kSuccess,
                     send ? message_offset_ : 0, request.immediate};
      receive_.pop_front();
    }
  }
  if (request.ack_req || since_reply_ >= config_.ack_coalesce) {
    step.reply = Ack();  // TRN-6.9
    since_reply_ = 0;
  }
  return step;
}

}  // namespace lq::transport
