// SPDX-License-Identifier: Apache-2.0
// The transmitter's decisions, in the order lc_tx makes them.
#include "models/link/link_transmitter.h"

#include <algorithm>
#include <cassert>

#include "models/crc/crc.h"
#include "models/flit/flit_codec.h"
#include "models/flit/sequence.h"

namespace lq::link {

namespace {

using flit::FlitType;
using flit::ReplayCommand;
using flit::SeqAdd;
using flit::SeqDistance;

constexpr uint16_t kCreditMask = flit::kCreditModulus - 1;
constexpr uint16_t kSeqErrorFlip = 0x200;  // DLL-8.8 SEQ_ERR: seq + 512.
constexpr uint32_t kAllVcs = (1u << flit::kLinkVcs) - 1;

bool IsCommand(ReplayCommand command) {
  return command != ReplayCommand::kNone;
}

// Puts `slot`, cut to a slot of `slot_bytes`, at the head of `content`.
void CopySlot(ByteView slot, size_t slot_bytes, Bytes& content) {
  const size_t length = std::min(slot.size(), slot_bytes);
  std::copy(slot.begin(), slot.begin() + length, content.begin());
}

}  // namespace

LinkTransmitter::LinkTransmitter(const phy::LinkProfile& profile,
                                 unsigned replay_flits)
    : profile_(profile), replay_flits_(replay_flits) {
  assert(replay_flits_ >= 1 && replay_flits_ <= kMaxReplayFlits);
}

unsigned LinkTransmitter::Reset(const VcCredits& partner_init) {
  const unsigned dropped = Outstanding();
  next_tx_seq_ = 0;
  ackd_seq_ = flit::kSeqModulus - 1;
  replay_.clear();
  replay_ptr_ = 0;
  replaying_ = false;
  resend_ = false;
  replay_num_ = 0;
  timer_ = 0;
  timer_running_ = false;
  credit_rr_ = 0;
  last_ = {};
  credit_avail_ = partner_init;
  return dropped;
}

void LinkTransmitter::ReplayAll() {
  if (Outstanding() != 0) {
    replaying_ = true;
    replay_ptr_ = SeqAdd(ackd_seq_, 1);
  }
}

uint16_t LinkTransmitter::Outstanding() const {
  return SeqDistance(ackd_seq_, SeqAdd(next_tx_seq_, -1));
}

TxEvents LinkTransmitter::OnLinkFields(const flit::DlpHeader& header, bool l0) {
  // Cumulative credit counts: the difference since the last one (DLL-5.6).
  const unsigned vc = header.credit_vc;
  credit_avail_[vc] = static_cast<uint16_t>(
      (credit_avail_[vc] + ((header.credit_count - last_[vc]) & kCreditMask)) &
      kCreditMask);
  last_[vc] = header.credit_count;

  TxEvents events;
  if (!l0 || !IsCommand(header.replay)) {
    return events;
  }
  const bool nak = header.replay == ReplayCommand::kStandardNak ||
                   header.replay == ReplayCommand::kSelectiveNak;
  events.nak_received = nak;
  const uint16_t distance = SeqDistance(ackd_seq_, header.ack_seq);
  if (distance > Outstanding()) {
    events.protocol_error = true;  // Stale or invalid: ignored (DLL-4.2).
    return events;
  }
  replay_.erase(replay_.begin(), replay_.begin() + distance);
  ackd_seq_ = header.ack_seq;
  if (!flit::SeqIsAfter(replay_ptr_, header.ack_seq)) {
    replay_ptr_ = SeqAdd(header.ack_seq, 1);
  }
  if (distance != 0) {  // Forward progress.
    replay_num_ = 0;
    timer_ = 0;
  }
  if (replay_ptr_ == next_tx_seq_) {
    replaying_ = false;
  }
  if (nak && Outstanding() != 0) {
    const TxEvents replay =
        Trigger(header.replay == ReplayCommand::kSelectiveNak);
    events.replay_started = replay.replay_started;
    events.escalate = replay.escalate;
  }
  StopTimerIfDone();
  return events;
}

TxEvents LinkTransmitter::CheckTimer(bool l0) {
  if (l0 && timer_running_ && timer_ >= replay_timeout_ && Outstanding() != 0) {
    return Trigger(/*selective=*/false);
  }
  return {};
}

TxEvents LinkTransmitter::Trigger(bool selective) {
  TxEvents events;
  const bool limit_hit = replay_num_ == replay_limit_;
  events.replay_started = !limit_hit;
  events.escalate = limit_hit;
  replay_num_ = limit_hit ? 0 : replay_num_ + 1;
  timer_ = 0;
  timer_running_ = false;  // Restarts with the first resent flit (DLL-4.5).
  if (selective) {
    // Only ACKD_SEQ + 1, next; a go-back replay goes on after it (DLL-4.4).
    resend_ = !limit_hit;
    if (limit_hit) {
      replaying_ = false;
    }
  } else {
    resend_ = false;
    replaying_ = !limit_hit;
    replay_ptr_ = SeqAdd(ackd_seq_, 1);
  }
  return events;
}

void LinkTransmitter::StopTimerIfDone() {
  if (Outstanding() == 0) {
    timer_running_ = false;
    timer_ = 0;
  }
}

unsigned LinkTransmitter::GrantVc(uint32_t requests) const {
  // Requesters at or above the pointer first, lowest index within each half.
  const uint32_t masked = requests & eligible_;
  const uint32_t pick = masked != 0 ? masked : requests;
  unsigned vc = 0;
  while (((pick >> vc) & 1u) == 0) {
    ++vc;
  }
  return vc;
}

TxChoice LinkTransmitter::Choose(TxMode mode, uint32_t offered_vcs,
                                 bool control_waiting) const {
  switch (mode) {
    case TxMode::kSilent:
      return {};
    case TxMode::kTraining:
      return {TxKind::kTraining, 0};
    case TxMode::kIdle:
      return {TxKind::kIdle, 0};
    case TxMode::kL0:
      break;
  }
  if (control_waiting) {
    return {TxKind::kControl, 0};
  }
  const uint16_t outstanding = Outstanding();
  if (resend_ && outstanding != 0) {
    return {TxKind::kResend, 0};
  }
  if (replaying_ && replay_ptr_ != next_tx_seq_) {
    return {TxKind::kReplay, 0};
  }
  uint32_t requests = 0;
  if (outstanding < replay_flits_) {
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      if (credit_avail_[vc] != 0) {
        requests |= 1u << vc;
      }
    }
    requests &= offered_vcs;
  }
  if (requests != 0) {
    return {TxKind::kNew, GrantVc(requests)};
  }
  return {TxKind::kNop, 0};
}

const LinkTransmitter::Entry& LinkTransmitter::EntryOf(uint16_t seq) const {
  return replay_[SeqDistance(SeqAdd(ackd_seq_, 1), seq)];
}

Bytes LinkTransmitter::Send(const TxChoice& choice, ByteView new_slot,
                            const TxLinkFields& link, ByteView training_slot) {
  assert(choice.kind != TxKind::kNone);
  const bool resend = choice.kind == TxKind::kResend;
  const bool replay = choice.kind == TxKind::kReplay;
  const bool fresh = choice.kind == TxKind::kNew;
  const bool payload = resend || replay || fresh;
  const bool carries_link_fields = payload || choice.kind == TxKind::kNop ||
                                   choice.kind == TxKind::kControl ||
                                   choice.kind == TxKind::kIdle;

  Bytes content(flit::ContentBytes(profile_), 0);
  flit::DlpHeader header;
  if (choice.kind == TxKind::kTraining) {
    header.type = FlitType::kTraining;  // Every link field zero (DLL-1.5).
    std::copy(training_slot.begin(), training_slot.end(), content.begin());
  } else {
    ReplayCommand command = link.command;
    if (choice.kind == TxKind::kIdle) {
      command = ReplayCommand::kAck;  // DLL-3.10
    } else if (drop_ack_armed_ && command == ReplayCommand::kAck) {
      command = ReplayCommand::kNone;  // DLL-8.8 DROP_ACK
      drop_ack_armed_ = false;
    }
    header.type = FlitType::kNop;
    header.flit_seq = SeqAdd(next_tx_seq_, -1);  // Watermark (DLL-2.4).
    header.replay = command;
    header.ack_seq = IsCommand(command) ? link.ack_seq : 0;
    header.credit_vc = static_cast<uint8_t>(credit_rr_);
    header.credit_count = (*link.freed)[credit_rr_] & kCreditMask;
    if (resend || replay) {
      const uint16_t seq = resend ? SeqAdd(ackd_seq_, 1) : replay_ptr_;
      const Entry& entry = EntryOf(seq);
      header.type = FlitType::kPayload;
      header.payload_vc = static_cast<uint8_t>(entry.vc);
      header.flit_seq = seq;
      std::copy(entry.slot.begin(), entry.slot.end(), content.begin());
    } else if (choice.kind == TxKind::kControl) {
      header.type = FlitType::kControl;  // A NOP's fields (DLL-11.2)...
      if (replaying_ && replay_ptr_ != next_tx_seq_) {
        // ...but inside a go-back replay, the watermark of what the replay
        // has resent so far.
        header.flit_seq = SeqAdd(replay_ptr_, -1);
      }
      CopySlot(new_slot, profile_.payload_bytes, content);
    } else if (fresh) {
      header.type = FlitType::kPayload;
      header.payload_vc = static_cast<uint8_t>(choice.vc);
      // DLL-8.8 SEQ_ERR: only the wire copy carries the wrong number.
      header.flit_seq = next_tx_seq_ ^ (seq_armed_ ? kSeqErrorFlip : 0);
      seq_armed_ = false;
      CopySlot(new_slot, profile_.payload_bytes, content);
    } else if (choice.kind == TxKind::kIdle) {
      header.type = FlitType::kIdle;
      header.flit_seq = 0;
    }
  }
  const flit::DlpBytes dlp = flit::EncodeDlp(header).value();
  std::copy(dlp.begin(), dlp.end(),
            content.begin() + flit::DlpOffset(profile_));
  uint64_t crc = crc::Crc64Xz().Compute(
      ByteView(content.data(), flit::CrcOffset(profile_)));
  if (crc_armed_) {
    crc = ~crc;  // DLL-8.8 CRC_ERR
    crc_armed_ = false;
  }
  StoreBigEndian(&content[flit::CrcOffset(profile_)], flit::kFlitCrcBytes, crc);

  // State, as the flit's transmission advances it.
  if (choice.kind != TxKind::kTraining && choice.kind != TxKind::kIdle &&
      timer_running_) {
    ++timer_;  // One more flit time in L0 (DLL-4.5).
  }
  if (carries_link_fields) {
    credit_rr_ = (credit_rr_ + 1) % flit::kLinkVcs;
  }
  if (payload && !timer_running_) {
    timer_running_ = true;
    timer_ = 0;
  }
  if (replay) {
    replay_ptr_ = SeqAdd(replay_ptr_, 1);
  }
  if (resend) {
    resend_ = false;
  }
  if (fresh) {
    replay_.push_back(
        {choice.vc,
         Bytes(content.begin(), content.begin() + profile_.payload_bytes)});
    next_tx_seq_ = SeqAdd(next_tx_seq_, 1);
    --credit_avail_[choice.vc];
    eligible_ = ~((1u << (choice.vc + 1)) - 1) & kAllVcs;
  }
  if (replay_ptr_ == next_tx_seq_) {
    replaying_ = false;
  }
  return content;
}

}  // namespace lq::link
