// SPDX-License-Identifier: Apache-2.0
// The receiver's checks and sequence rules, in the order lc_rx applies them.
#include "models/link/link_receiver.h"

#include <algorithm>
#include <cassert>

#include "models/crc/crc.h"
#include "models/flit/control_slot.h"
#include "models/flit/flit_codec.h"
#include "models/flit/sequence.h"

namespace lq::link {

namespace {

using flit::FlitType;
using flit::ReplayCommand;
using flit::SeqAdd;
using flit::SeqDistance;
using flit::SeqIsAfter;

[[maybe_unused]] bool IsPowerOfTwo(unsigned value) {
  return (value & (value - 1)) == 0;
}

}  // namespace

LinkReceiver::LinkReceiver(const phy::LinkProfile& profile,
                           const LinkBufferSizes& sizes)
    : profile_(profile), sizes_(sizes) {
  assert(IsPowerOfTwo(sizes_.rx_reorder_flits));
  assert(sizes_.rx_reorder_flits < flit::kSeqHalfWindow);
}

void LinkReceiver::Reset() {
  next_rcv_ = 0;
  nak_scheduled_ = false;
  nak_pending_ = false;
  sel_pending_ = false;
  sel_done_ = false;
  ClearWindow();  // DLL-4.10
  dup_ = false;
  accepted_ = 0;
  ack_timer_ = 0;
  freed_ = {};
  stale_ = occupancy_;  // Their delivery returns no credit (DLL-5.9).
}

void LinkReceiver::ClearWindow() {
  for (Held& held : window_) {
    held.valid = false;
  }
  held_count_ = 0;
}

LinkReceiver::Held& LinkReceiver::WindowAt(uint16_t seq) {
  if (window_.empty()) {
    window_.resize(sizes_.rx_reorder_flits);  // Only links that reorder pay.
  }
  return window_[seq % sizes_.rx_reorder_flits];
}

bool LinkReceiver::Check(ByteView content, bool phy_bad, RxOutcome& out) const {
  if (phy_bad || content.size() != flit::ContentBytes(profile_)) {
    return false;
  }
  const size_t crc_offset = flit::CrcOffset(profile_);
  const uint64_t crc =
      crc::Crc64Xz().Compute(ByteView(content.data(), crc_offset));
  if (LoadBigEndian(content.data() + crc_offset, flit::kFlitCrcBytes) != crc) {
    return false;
  }
  const Result<flit::DlpHeader> header =
      flit::ParseDlp(content.Sub(flit::DlpOffset(profile_), flit::kDlpBytes));
  if (!header) {
    return false;
  }
  out.header = *header;
  const ByteView slot(content.data(), profile_.payload_bytes);
  if (header->type == FlitType::kTraining) {
    Result<flit::TrainingSet> ts = flit::ParseTrainingSet(profile_, slot);
    if (!ts) {
      return false;  // DLL-6.3
    }
    out.training_set = *ts;
    return true;
  }
  return flit::CarriesSlot(header->type) ||
         std::all_of(slot.begin(), slot.end(),
                     [](uint8_t byte) { return byte == 0; });
}

RxOutcome LinkReceiver::Receive(ByteView content, bool phy_bad,
                                const RxState& state) {
  RxOutcome out;
  out.good = Check(content, phy_bad, out);
  const bool active = state.l0 || state.idle;
  if (!out.good) {
    out.training_set.reset();
    out.counted_bad = active;
    if (state.l0 && ++bad_run_ == kRxBadFlitLimit) {
      bad_run_ = 0;
      out.bad_limit = true;
    }
    return out;
  }
  bad_run_ = 0;
  if (!active || out.header.type == FlitType::kTraining) {
    return out;
  }
  out.link_fields = true;
  const ByteView slot(content.data(), profile_.payload_bytes);
  Sequence(slot, state, out);
  Drain(state);
  if (out.header.type == FlitType::kControl) {
    Result<Bytes> message = flit::ParseControlSlot(slot);
    if (message) {
      out.control = std::move(message).value();
    } else {
      out.control_rejected = true;
    }
  }
  return out;
}

bool LinkReceiver::HasRoom(unsigned vc, const RxState& state) const {
  unsigned buffered = 0;
  for (uint16_t count : occupancy_) {
    buffered += count;
  }
  return occupancy_[vc] - stale_[vc] < (*state.own_init)[vc] &&
         buffered < sizes_.rx_buffer_flits;
}

void LinkReceiver::Accept(RxSlot slot) {
  ++occupancy_[slot.vc];
  buffer_.push_back(std::move(slot));
  next_rcv_ = SeqAdd(next_rcv_, 1);
  nak_scheduled_ = false;
  accepted_ = std::min(accepted_ + 1, kAckCoalesceFlits);
}

void LinkReceiver::Sequence(ByteView slot, const RxState& state,
                            RxOutcome& out) {
  const flit::DlpHeader& header = out.header;
  const uint16_t last_in_order = SeqAdd(next_rcv_, -1);
  const bool reorder = sizes_.rx_reorder_flits > 0;
  const bool holding = Holding();
  if (header.type == FlitType::kNop || header.type == FlitType::kControl) {
    // A watermark past what arrived: trailing flits were lost (DLL-3.6).
    const bool watermark_ahead =
        holding ? SeqIsAfter(header.flit_seq, newest_)
                : SeqIsAfter(header.flit_seq, last_in_order);
    if (watermark_ahead) {
      GoBack();
    }
    return;
  }
  if (header.type != FlitType::kPayload) {
    return;
  }
  out.payload = true;
  const uint16_t seq = header.flit_seq;
  const bool in_window =
      reorder && SeqDistance(next_rcv_, seq) < sizes_.rx_reorder_flits;
  const bool already_held = in_window && holding && WindowAt(seq).valid;
  const bool expected = seq == next_rcv_ && !already_held;
  const bool duplicate = !SeqIsAfter(seq, last_in_order) || already_held;
  const bool ahead = !expected && !duplicate;
  const bool hold = !duplicate && !nak_scheduled_ && in_window &&
                    ((ahead && state.selective_nak) || (expected && holding));
  if (duplicate) {
    dup_ = true;  // Re-ACK (DLL-3.4).
    return;
  }
  if (hold) {
    Held& held = WindowAt(seq);
    held.valid = true;
    held.slot.vc = header.payload_vc;
    held.slot.bytes.assign(slot.begin(), slot.end());
    if (!holding || SeqIsAfter(seq, newest_)) {
      newest_ = seq;
    }
    ++held_count_;
    return;
  }
  if (expected) {
    if (HasRoom(header.payload_vc, state)) {
      Accept({header.payload_vc, Bytes(slot.begin(), slot.end())});
    } else {
      out.overflow = true;  // DLL-5.8: replayed later.
    }
    return;
  }
  GoBack();  // Beyond the window, or selective NAK off (DLL-3.5).
}

void LinkReceiver::GoBack() {
  // One standard NAK until NEXT_RCV_SEQ arrives (DLL-3.7); the replay
  // brings the held flits again.
  if (!nak_scheduled_) {
    nak_pending_ = true;
    nak_scheduled_ = true;
    sel_pending_ = false;
    ClearWindow();
  }
}

unsigned LinkReceiver::Drain(const RxState& state) {
  unsigned moved = 0;
  while (Holding()) {
    Held& held = WindowAt(next_rcv_);
    if (!held.valid || !HasRoom(held.slot.vc, state)) {
      break;
    }
    held.valid = false;
    --held_count_;
    Accept(std::move(held.slot));
    ++moved;
  }
  ScheduleSelectiveNak();
  return moved;
}

void LinkReceiver::ScheduleSelectiveNak() {
  // A gap at NEXT_RCV_SEQ with flits held after it: one selective NAK per
  // value of NEXT_RCV_SEQ (DLL-3.3, DLL-3.5).
  if (Holding() && !WindowAt(next_rcv_).valid && !nak_scheduled_ &&
      !(sel_done_ && sel_for_ == next_rcv_)) {
    sel_pending_ = true;
    sel_done_ = true;
    sel_for_ = next_rcv_;
  }
}

ReplayCommand LinkReceiver::Command() const {
  if (nak_pending_) {
    return ReplayCommand::kStandardNak;
  }
  if (sel_pending_) {
    return ReplayCommand::kSelectiveNak;
  }
  const bool ack_due =
      accepted_ >= kAckCoalesceFlits || ack_timer_ >= kAckTimeoutFlits || dup_;
  return ack_due ? ReplayCommand::kAck : ReplayCommand::kNone;
}

uint16_t LinkReceiver::AckSeq() const { return SeqAdd(next_rcv_, -1); }

bool LinkReceiver::CommandSent() {
  if (Command() == ReplayCommand::kNone) {
    OnFlitTime();
    return false;
  }
  const bool nak = nak_pending_ || sel_pending_;
  if (nak_pending_) {
    nak_pending_ = false;
  } else {
    sel_pending_ = false;
  }
  dup_ = false;
  accepted_ = 0;
  ack_timer_ = 0;
  return nak;
}

void LinkReceiver::OnFlitTime() {
  if (accepted_ != 0 && ack_timer_ < kAckTimeoutFlits) {
    ++ack_timer_;
  }
}

bool LinkReceiver::AckWork() const {
  return accepted_ != 0 || Command() != ReplayCommand::kNone;
}

RxSlot LinkReceiver::Deliver() {
  RxSlot slot = std::move(buffer_.front());
  buffer_.pop_front();
  const unsigned vc = slot.vc;
  if (stale_[vc] != 0) {
    --stale_[vc];
  } else {
    freed_[vc] =
        static_cast<uint16_t>((freed_[vc] + 1) & (flit::kCreditModulus - 1));
  }
  --occupancy_[vc];
  return slot;
}

}  // namespace lq::link
