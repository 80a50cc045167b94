// SPDX-License-Identifier: Apache-2.0
// Responder: sequence checks, validation, placement decisions and replies.
#include "models/transport/responder.h"

#include <algorithm>

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

void Responder::DropReceive(uint64_t wr_id) {
  const auto it =
      std::find_if(receive_.begin(), receive_.end(),
                   [wr_id](const RecvWr& wr) { return wr.wr_id == wr_id; });
  if (it != receive_.end()) {
    receive_.erase(it);
  }
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
    return Duplicate(request);
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

// TRN-6.11: a SEND or WRITE is never executed twice, a READ is answered
// again in full, an atomic is replayed from its saved result or dropped.
ResponderStep Responder::Duplicate(const RequestHeader& request) {
  ++duplicates_;
  ResponderStep step;
  if (request.opcode == Opcode::kReadRequest && request.reth) {
    step.read = ReadAnswer{request.reth->virtual_address, request.reth->rkey,
                           request.reth->dma_length, request.psn, msn_};
    since_reply_ = 0;
    return step;
  }
  if (request.opcode == Opcode::kCompareSwap ||
      request.opcode == Opcode::kFetchAdd) {
    for (const auto& [psn, original] : atomics_) {
      if (psn == request.psn) {
        AtomicAnswer answer;
        answer.psn = psn;
        answer.msn = msn_;
        answer.replay = original;
        step.atomic = answer;
        since_reply_ = 0;
      }
    }
    return step;
  }
  if (request.ack_req) {
    step.reply = Ack();
    since_reply_ = 0;
  }
  return step;
}

void Responder::SaveAtomic(uint32_t psn, uint64_t original) {
  atomics_.emplace_back(psn, original);
  while (atomics_.size() > attributes_.max_dest_rd_atomic) {
    atomics_.pop_front();
  }
}

ResponderStep Responder::ExecuteReadOrAtomic(const RequestHeader& request) {
  if (message_) {
    return Refuse(roce::NakCode::kInvalidRequest);  // inside a message
  }
  ResponderStep step;
  if (request.opcode == Opcode::kReadRequest) {
    if (!request.reth) {
      return Refuse(roce::NakCode::kInvalidRequest);
    }
    if (!attributes_.remote_read) {
      return Refuse(roce::NakCode::kRemoteAccessError);
    }
    const uint32_t length = request.reth->dma_length;
    msn_ = roce::PsnAdd(msn_, 1);
    step.read = ReadAnswer{request.reth->virtual_address, request.reth->rkey,
                           length, request.psn, msn_};
    const uint32_t psns =
        length == 0 ? 1 : (length + attributes_.pmtu - 1) / attributes_.pmtu;
    epsn_ = roce::PsnAdd(epsn_, psns);  // TRN-6.4, TRN-6.8
  } else {
    if (!request.atomic || request.atomic->virtual_address % 8 != 0) {
      return Refuse(roce::NakCode::kInvalidRequest);  // TRN-6.13
    }
    if (!attributes_.remote_atomic) {
      return Refuse(roce::NakCode::kRemoteAccessError);
    }
    msn_ = roce::PsnAdd(msn_, 1);
    AtomicAnswer answer;
    answer.address = request.atomic->virtual_address;
    answer.rkey = request.atomic->rkey;
    answer.compare_swap = request.opcode == Opcode::kCompareSwap;
    answer.compare = request.atomic->compare;
    answer.swap_add = request.atomic->swap_add;
    answer.psn = request.psn;
    answer.msn = msn_;
    step.atomic = answer;
    epsn_ = roce::PsnAdd(epsn_, 1);
  }
  nak_sent_ = false;
  since_reply_ = 0;  // a response is a reply (TRN-6.9)
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
  if (IsReadOrAtomic(op)) {
    return ExecuteReadOrAtomic(request);
  }
  if (!send && !IsWrite(op)) {
    return Refuse(roce::NakCode::kInvalidRequest);  // not a request
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
