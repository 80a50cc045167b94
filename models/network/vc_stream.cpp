// SPDX-License-Identifier: Apache-2.0
// SlotPacker and SlotParser: NET-2.7's packet stream over payload slots.
#include "models/network/vc_stream.h"

#include <algorithm>

namespace lq::net {

void SlotPacker::Push(ByteView packet) {
  bytes_.append(packet.begin(), packet.end());
}

void SlotPacker::Push(ByteView header, ByteView payload) {
  Push(header);
  Push(payload);
}

Bytes SlotPacker::PopSlot() {
  Bytes slot;
  PopSlot(slot);
  return slot;
}

void SlotPacker::PopSlot(Bytes& slot) {
  slot.assign(slot_bytes_, 0);
  const size_t take = std::min(slot_bytes_, pending());
  std::copy_n(bytes_.begin(), take, slot.begin());
  bytes_.pop_front(take);
}

void SlotParser::Reset() {
  header_size_ = 0;
  packet_.clear();
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
      if (header_size_ == 0 && slot[at] == 0) {
        break;
      }
      const size_t take =
          std::min(kRouteHeaderBytes - header_size_, slot.size() - at);
      std::copy(slot.begin() + at, slot.begin() + at + take,
                header_bytes_.begin() + header_size_);
      header_size_ += take;
      at += take;
      if (header_size_ < kRouteHeaderBytes) {
        break;  // the header continues in the next slot
      }
      header_size_ = 0;
      const HeaderCheck check = CheckRouteHeader(
          header_bytes_.data(), config_.vc, config_.nodes, config_.max_payload);
      Event event;
      event.header = check.header;
      event.reason = check.reason;
      if (check.verdict == HeaderVerdict::kStreamError) {
        event.kind = Event::Kind::kStreamError;
        events.push_back(std::move(event));
        broken_ = true;
        break;
      }
      if (check.verdict == HeaderVerdict::kDropHeader) {
        event.kind = Event::Kind::kHeaderDrop;
        events.push_back(std::move(event));
        skip_ = check.header.len;
        continue;
      }
      header_ = check.header;
      have_header_ = true;
      if (config_.streaming) {
        event.kind = Event::Kind::kHeader;
        event.header_bytes = header_bytes_;
        events.push_back(std::move(event));
      } else {
        packet_.reserve(kRouteHeaderBytes + header_.len);
        packet_.assign(header_bytes_.begin(), header_bytes_.end());
      }
      continue;
    }
    const size_t received =
        config_.streaming ? streamed_ : packet_.size() - kRouteHeaderBytes;
    const size_t wanted = header_.len - received;
    const size_t take = std::min(wanted, slot.size() - at);
    const ByteView chunk(slot.data() + at, take);
    at += take;
    if (config_.streaming) {
      // Only the count matters for the packet's progress: streamed_ counts
      // the payload handed on.
      Event& event = events.emplace_back();
      event.kind = Event::Kind::kPayload;
      event.header = header_;
      event.chunk = chunk;
      event.last = take == wanted;
      streamed_ += take;
      if (take == wanted) {
        streamed_ = 0;
        have_header_ = false;
      }
      continue;
    }
    packet_.insert(packet_.end(), chunk.begin(), chunk.end());
    if (take == wanted) {
      Event event;
      event.kind = Event::Kind::kPacket;
      event.header = header_;
      event.packet = std::move(packet_);
      events.push_back(std::move(event));
      packet_.clear();
      have_header_ = false;
    }
  }
}

}  // namespace lq::net
