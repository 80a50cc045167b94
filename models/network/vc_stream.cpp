// SPDX-License-Identifier: Apache-2.0
// SlotPacker and SlotParser: NET-2.7's packet stream over payload slots.
#include "models/network/vc_stream.h"

#include <algorithm>

namespace lq::net {

void SlotPacker::Push(ByteView packet) {
  pending_.insert(pending_.end(), packet.begin(), packet.end());
}

Bytes SlotPacker::PopSlot() {
  Bytes slot(slot_bytes_, 0);
  const size_t take = std::min(slot_bytes_, pending_.size());
  std::copy(pending_.begin(), pending_.begin() + take, slot.begin());
  pending_.erase(pending_.begin(), pending_.begin() + take);
  return slot;
}

void SlotParser::Reset() {
  partial_.clear();
  streamed_ = 0;
  skip_ = 0;
  have_header_ = false;
  broken_ = false;
}

std::vector<SlotParser::Event> SlotParser::Accept(ByteView slot) {
  std::vector<Event> events;
  Accept(slot, events);
  return events;
}

void SlotParser::Accept(ByteView slot, std::vector<Event>& events) {
  events.clear();
  size_t at = 0;
  while (at < slot.size() && !broken_) {
    if (skip_ > 0) {  // the payload of a dropped packet
      const size_t take = std::min(skip_, slot.size() - at);
      skip_ -= take;
      at += take;
      continue;
    }
    if (!have_header_) {
      // NET-2.9: a zero where a header must start is padding to the end of
      // the slot (VER is never 0, so no header starts with 0x00).
      if (partial_.empty() && slot[at] == 0) {
        break;
      }
      const size_t take =
          std::min(kRouteHeaderBytes - partial_.size(), slot.size() - at);
      partial_.insert(partial_.end(), slot.begin() + at,
                      slot.begin() + at + take);
      at += take;
      if (partial_.size() < kRouteHeaderBytes) {
        break;  // the header continues in the next slot
      }
      const HeaderCheck check = CheckRouteHeader(
          partial_.data(), config_.vc, config_.nodes, config_.max_payload);
      Event event;
      event.header = check.header;
      event.reason = check.reason;
      if (check.verdict == HeaderVerdict::kStreamError) {
        event.kind = Event::Kind::kStreamError;
        events.push_back(std::move(event));
        broken_ = true;
        partial_.clear();
        break;
      }
      if (check.verdict == HeaderVerdict::kDropHeader) {
        event.kind = Event::Kind::kHeaderDrop;
        events.push_back(std::move(event));
        skip_ = check.header.len;
        partial_.clear();
        continue;
      }
      header_ = check.header;
      have_header_ = true;
      if (config_.streaming) {
        event.kind = Event::Kind::kHeader;
        std::copy(partial_.begin(), partial_.end(), event.header_bytes.begin());
        events.push_back(std::move(event));
      }
      continue;
    }
    const size_t wanted =
        kRouteHeaderBytes + header_.len - partial_.size() - streamed_;
    const size_t take = std::min(wanted, slot.size() - at);
    if (config_.streaming) {
      // Only the count matters for the packet's progress: partial_ keeps
      // the header, streamed_ counts the payload handed on.
      Event& event = events.emplace_back();
      event.kind = Event::Kind::kPayload;
      event.header = header_;
      event.chunk = ByteView(slot.data() + at, take);
      event.last = take == wanted;
      streamed_ += take;
      at += take;
      if (take == wanted) {
        partial_.clear();
        streamed_ = 0;
        have_header_ = false;
      }
      continue;
    }
    partial_.insert(partial_.end(), slot.begin() + at,
                    slot.begin() + at + take);
    at += take;
    if (partial_.size() == kRouteHeaderBytes + header_.len) {
      Event event;
      event.kind = Event::Kind::kPacket;
      event.header = header_;
      event.packet = std::move(partial_);
      events.push_back(std::move(event));
      partial_.clear();
      have_header_ = false;
    }
  }
}

}  // namespace lq::net
