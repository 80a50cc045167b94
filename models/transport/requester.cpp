// SPDX-License-Identifier: Apache-2.0
// Requester: segmentation, acknowledgement, go-back-N and the counters.
#include "models/transport/requester.h"

#include "models/roce/psn.h"
#include "models/roce/timers.h"
#include "models/transport/segmentation.h"

namespace lq::transport {

using roce::PsnAdd;
using roce::PsnAfter;
using roce::PsnBefore;
using roce::PsnDistance;

namespace {

constexpr uint8_t kInfiniteRnrRetry = 7;

CompletionStatus NakStatus(uint8_t code) {
  switch (static_cast<roce::NakCode>(code)) {
    case roce::NakCode::kInvalidRequest:
      return CompletionStatus::kRemInvReqErr;
    case roce::NakCode::kRemoteAccessError:
      return CompletionStatus::kRemAccessErr;
    default:
      return CompletionStatus::kRemOpErr;
  }
}

}  // namespace

Requester::Requester(const QpAttributes& attributes,
                     const RequesterConfig& config)
    : attributes_(attributes),
      config_(config),
      ack_timeout_ns_(roce::LocalAckTimeoutNs(attributes.timeout).value()),
      end_psn_(attributes.sq_psn),
      next_psn_(attributes.sq_psn),
      unacked_psn_(attributes.sq_psn),
      sent_end_psn_(attributes.sq_psn),
      retry_(attributes.retry_cnt),
      rnr_(attributes.rnr_retry) {}

void Requester::Post(const SendWr& wr) {
  if (failed_) {
    completions_.push_back(
        {wr.wr_id, CompletionStatus::kFlushErr, 0, std::nullopt});
    return;
  }
  const uint32_t packets = PsnCount(wr.kind, wr.length, attributes_.pmtu);
  wrs_.push_back({wr, end_psn_, packets});
  end_psn_ = PsnAdd(end_psn_, packets);
}

std::optional<RequestPacket> Requester::Next(uint64_t now_ns) {
  if (failed_ || rnr_until_ || next_psn_ == end_psn_ ||
      PsnDistance(unacked_psn_, next_psn_) >=
          static_cast<int32_t>(roce::kPsnHalfWindow - 1)) {
    return std::nullopt;
  }
  const PostedWr* posted = Containing(next_psn_);
  const SendWr& wr = posted->wr;
  const auto index =
      static_cast<uint32_t>(PsnDistance(posted->first_psn, next_psn_));
  RequestPacket packet;
  packet.wr_id = wr.wr_id;
  packet.psn = next_psn_;
  uint32_t psns = 1;  // taken by this packet
  if (IsReadOrAtomic(wr.kind)) {
    // TRN-6.5: at most max_rd_atomic of them outstanding.
    unsigned open = 0;
    for (const PostedWr& w : wrs_) {
      if (!PsnBefore(w.first_psn, next_psn_)) {
        break;
      }
      open += IsReadOrAtomic(w.wr.kind) ? 1 : 0;
    }
    if (open >= attributes_.max_rd_atomic) {
      return std::nullopt;
    }
    if (wr.kind == SendKind::kRead) {
      packet.opcode = roce::Opcode::kReadRequest;
      packet.reth = roce::Reth{wr.remote_address, wr.rkey, wr.length};
    } else {
      packet.opcode = wr.kind == SendKind::kCompareSwap
                          ? roce::Opcode::kCompareSwap
                          : roce::Opcode::kFetchAdd;
      packet.atomic =
          roce::AtomicEth{wr.remote_address, wr.rkey, wr.swap_add, wr.compare};
    }
    psns = posted->packets;  // TRN-6.4: one per response
  } else {
    packet.opcode = SegmentOpcode(wr.kind, wr.immediate.has_value(), index,
                                  posted->packets);
    packet.ack_req =
        SegmentAckReq(index, posted->packets, config_.ack_req_every);
    packet.offset = index * attributes_.pmtu;
    packet.length =
        SegmentLength(wr.length, attributes_.pmtu, index, posted->packets);
    if (wr.kind == SendKind::kWrite && index == 0) {
      packet.reth = roce::Reth{wr.remote_address, wr.rkey, wr.length};
    }
    if (index + 1 == posted->packets) {
      packet.immediate = wr.immediate;
    }
  }
  packet.retransmit = PsnBefore(next_psn_, sent_end_psn_);
  retransmits_ += packet.retransmit ? 1 : 0;
  next_psn_ = PsnAdd(next_psn_, psns);
  if (PsnAfter(next_psn_, sent_end_psn_)) {
    sent_end_psn_ = next_psn_;
  }
  if (!ack_deadline_) {
    RestartAckTimer(now_ns);
  }
  return packet;
}

void Requester::OnAcknowledge(uint32_t psn, const roce::Aeth& aeth,
                              uint64_t now_ns) {
  if (failed_ || PsnAfter(psn, PsnAdd(sent_end_psn_, roce::kPsnMask))) {
    return;  // for a PSN never sent: not ours to believe
  }
  // TRN-6.12: an ACK at or past an unanswered READ or atomic, or a NAK
  // past it, is an implicit NAK; it must not acknowledge PSNs whose data
  // never came. (A NAK at it refuses that READ or atomic itself.)
  if (const PostedWr* open = OpenReadOrAtomic()) {
    const uint32_t expected = ExpectedResponse(*open);
    const bool ack = aeth.type() == roce::AethType::kAck;
    if (ack ? !PsnBefore(psn, expected) : PsnAfter(psn, expected)) {
      ImplicitNak(*open, now_ns);
      return;
    }
  }
  switch (aeth.type()) {
    case roce::AethType::kAck:
      AcknowledgeBefore(PsnAdd(psn, 1), now_ns);
      return;
    case roce::AethType::kRnrNak:
      if (PsnBefore(psn, unacked_psn_)) {
        return;  // stale
      }
      AcknowledgeBefore(psn, now_ns);
      if (attributes_.rnr_retry != kInfiniteRnrRetry) {
        if (rnr_ == 0) {
          Fail(CompletionStatus::kRnrRetryExcErr);
          return;
        }
        --rnr_;
      }
      rnr_until_ = now_ns + roce::RnrTimerNs(aeth.value()).value();
      rnr_psn_ = psn;
      ack_deadline_.reset();  // the RNR wait replaces the ACK timer
      return;
    case roce::AethType::kNak:
      if (PsnBefore(psn, unacked_psn_)) {
        return;  // stale
      }
      AcknowledgeBefore(psn, now_ns);
      if (aeth.value() ==
          static_cast<uint8_t>(roce::NakCode::kPsnSequenceError)) {
        Rewind(psn, now_ns);
      } else {
        Fail(NakStatus(aeth.value()));
      }
      return;
    case roce::AethType::kReserved:
      return;
  }
}

bool Requester::AcknowledgeBefore(uint32_t psn, uint64_t now_ns) {
  if (!PsnAfter(psn, unacked_psn_) || PsnAfter(psn, sent_end_psn_)) {
    return false;
  }
  unacked_psn_ = psn;
  if (PsnBefore(next_psn_, unacked_psn_)) {
    // A READ partly answered is still asked again whole (TRN-7.3).
    next_psn_ = RewindTarget(unacked_psn_);
  }
  while (!wrs_.empty() &&
         PsnBefore(PsnAdd(wrs_.front().first_psn, wrs_.front().packets - 1),
                   unacked_psn_)) {
    completions_.push_back(
        {wrs_.front().wr.wr_id, CompletionStatus::kSuccess, 0, std::nullopt});
    wrs_.pop_front();
  }
  retry_ = attributes_.retry_cnt;  // TRN-7.5, TRN-7.7: progress
  asked_again_ = false;
  rnr_ = attributes_.rnr_retry;
  if (AwaitingAck()) {
    RestartAckTimer(now_ns);
  } else {
    ack_deadline_.reset();
  }
  return true;
}

void Requester::Rewind(uint32_t psn, uint64_t now_ns) {
  if (retry_ == 0) {
    Fail(CompletionStatus::kRetryExcErr);  // TRN-7.5, TRN-7.9
    return;
  }
  --retry_;
  next_psn_ = RewindTarget(psn);
  RestartAckTimer(now_ns);
}

std::optional<uint64_t> Requester::deadline() const {
  if (rnr_until_) {
    return rnr_until_;
  }
  return ack_deadline_;
}

void Requester::OnTimer(uint64_t now_ns) {
  if (failed_) {
    return;
  }
  if (rnr_until_) {
    if (now_ns >= *rnr_until_) {
      rnr_until_.reset();
      next_psn_ = RewindTarget(rnr_psn_);  // TRN-7.6: from the refused one
      RestartAckTimer(now_ns);
    }
    return;
  }
  if (ack_deadline_ && now_ns >= *ack_deadline_) {
    Rewind(unacked_psn_, now_ns);  // TRN-7.4
  }
}

std::optional<ResponseData> Requester::OnResponse(roce::Opcode opcode,
                                                  uint32_t psn, uint32_t length,
                                                  uint64_t original,
                                                  uint64_t now_ns) {
  if (failed_ || PsnBefore(psn, unacked_psn_) ||
      !PsnBefore(psn, sent_end_psn_)) {
    return std::nullopt;  // stale, or for nothing sent
  }
  const PostedWr* open = OpenReadOrAtomic();
  const bool atomic_ack = opcode == roce::Opcode::kAtomicAcknowledge;
  bool in_order = open != nullptr && psn == ExpectedResponse(*open) &&
                  (open->wr.kind == SendKind::kRead) != atomic_ack;
  uint32_t index = 0;
  if (in_order && !atomic_ack) {
    index = static_cast<uint32_t>(PsnDistance(open->first_psn, psn));
    const bool first = opcode == roce::Opcode::kReadResponseFirst ||
                       opcode == roce::Opcode::kReadResponseOnly;
    in_order = opcode == ReadResponseOpcode(index, open->packets) &&
               (index == 0) == first &&
               length == SegmentLength(open->wr.length, attributes_.pmtu, index,
                                       open->packets);
  }
  if (!in_order) {
    // TRN-6.12: discarded; the oldest open READ or atomic is asked again,
    // once per gap: the rest of the old round is discarded silently.
    if (open != nullptr) {
      ImplicitNak(*open, now_ns);
    }
    return std::nullopt;
  }
  ResponseData data;
  data.wr_id = open->wr.wr_id;
  data.offset = index * attributes_.pmtu;
  data.atomic = atomic_ack;
  data.original = original;
  AcknowledgeBefore(psn, now_ns);  // what came before is acknowledged
  AcknowledgeBefore(PsnAdd(psn, 1), now_ns);
  return data;
}

void Requester::ImplicitNak(const PostedWr& open, uint64_t now_ns) {
  const uint32_t first = open.first_psn;  // `open` may complete below
  const bool progress = AcknowledgeBefore(ExpectedResponse(open), now_ns);
  if (progress || !asked_again_) {
    Rewind(first, now_ns);
    asked_again_ = true;
  }
}

const Requester::PostedWr* Requester::Containing(uint32_t psn) const {
  for (const PostedWr& w : wrs_) {
    if (PsnDistance(w.first_psn, psn) >= 0 &&
        PsnDistance(w.first_psn, psn) < static_cast<int32_t>(w.packets)) {
      return &w;
    }
  }
  return nullptr;
}

const Requester::PostedWr* Requester::OpenReadOrAtomic() const {
  for (const PostedWr& w : wrs_) {
    if (!PsnBefore(w.first_psn, sent_end_psn_)) {
      return nullptr;  // not sent yet
    }
    if (IsReadOrAtomic(w.wr.kind)) {
      return &w;
    }
  }
  return nullptr;
}

uint32_t Requester::ExpectedResponse(const PostedWr& posted) const {
  return PsnAfter(unacked_psn_, posted.first_psn) ? unacked_psn_
                                                  : posted.first_psn;
}

uint32_t Requester::RewindTarget(uint32_t psn) const {
  const PostedWr* posted = Containing(psn);
  return posted != nullptr && IsReadOrAtomic(posted->wr.kind)
             ? posted->first_psn
             : psn;
}

bool Requester::AwaitingAck() const {
  return PsnAfter(sent_end_psn_, unacked_psn_);
}

void Requester::RestartAckTimer(uint64_t now_ns) {
  if (ack_timeout_ns_ == roce::kNoTimeout) {
    ack_deadline_.reset();  // code 0: never expires
    return;
  }
  ack_deadline_ = now_ns + ack_timeout_ns_;
}

void Requester::Fail(CompletionStatus status) {
  FailAll(wrs_.empty() ? 0 : wrs_.front().wr.wr_id, status);
}

void Requester::FailLocal(uint64_t wr_id) {
  // A READ's last response completes it before its data is placed: that
  // completion, not yet taken, turns into the error.
  for (Completion& done : completions_) {
    if (done.wr_id == wr_id) {
      done.status = CompletionStatus::kLocProtErr;
    }
  }
  FailAll(wr_id, CompletionStatus::kLocProtErr);
}

void Requester::FailAll(uint64_t wr_id, CompletionStatus status) {
  failed_ = true;
  ack_deadline_.reset();
  rnr_until_.reset();
  for (const PostedWr& posted : wrs_) {
    completions_.push_back(
        {posted.wr.wr_id,
         posted.wr.wr_id == wr_id ? status : CompletionStatus::kFlushErr, 0,
         std::nullopt});
  }
  wrs_.clear();
}

std::vector<Completion> Requester::TakeCompletions() {
  std::vector<Completion> taken;
  taken.swap(completions_);
  return taken;
}

}  // namespace lq::transport
