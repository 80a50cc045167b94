// SPDX-License-Identifier: Apache-2.0
// One VC's byte stream on a link (docs/spec/net.md NET-2.7, NET-2.9):
// packets (routing header + payload) back to back in the payload slots the
// data-link layer carries, straddling slots as they must. The packer is the
// transmit side, the parser the receive side with NET-2.10's checks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/fifo_vector.h"
#include "models/network/route_header.h"

namespace lq::net {

// Transmit side: packets in, slots out.
class SlotPacker {
 public:
  explicit SlotPacker(size_t slot_bytes) : slot_bytes_(slot_bytes) {}

  // Appends a whole packet (header included) to the stream; or one given
  // as its routing header's bytes and its payload, without joining them
  // first.
  void Push(ByteView packet);
  void Push(ByteView header, ByteView payload);

  // Bytes waiting to be sent.
  size_t pending() const { return bytes_.size(); }
  // True if a full slot is ready, or, with `flush`, if any bytes are
  // waiting (the last slot is then padded with zeros: NET-2.9 allows that
  // only at a packet boundary, and every pushed packet ends at one).
  bool HasSlot(bool flush) const {
    return pending() >= slot_bytes_ || (flush && pending() > 0);
  }
  // The next slot. Precondition: HasSlot(flush) for the same `flush`.
  Bytes PopSlot();
  // The same into `slot`, whose buffer a caller may reuse from slot to
  // slot.
  void PopSlot(Bytes& slot);

 private:
  size_t slot_bytes_;
  FifoVector<uint8_t> bytes_;  // waiting to be sent
};

// Receive side: slots in, checked packets out.
class SlotParser {
 public:
  struct Config {
    unsigned vc = 0;              // the VC this stream arrives on
    uint32_t nodes = 1;           // N, for the DST/SRC check
    uint16_t max_payload = 9216;  // net.max_payload
    // Report packets as they arrive (a header, then payload chunks) instead
    // of whole: what a wormhole router needs to forward before the tail is
    // in.
    bool streaming = false;
  };

  // What parsing a slot produced, in stream order.
  struct Event {
    enum class Kind {
      kPacket,   // a whole packet that passed NET-2.10 (in `packet`)
      kHeader,   // streaming: a header that passed (bytes in `header_bytes`)
      kPayload,  // streaming: payload bytes of the current packet

      kHeaderDrop,   // a header failed check 5 or 6; its payload skipped
      kStreamError,  // checks 1 to 4 failed: the rest of the stream is lost
    };
    Kind kind = Kind::kPacket;
    RouteHeader header;
    Bytes packet;  // kPacket: header + payload
    // kHeader: the header's bytes, held here so that a slot's parse
    // allocates nothing.
    std::array<uint8_t, kRouteHeaderBytes> header_bytes{};
    ByteView chunk;           // kPayload: this chunk, inside the slot given
                              // to Accept() (valid while that slot lives)
    bool last = false;        // kPayload: the packet's last chunk
    const char* reason = "";  // which check failed
  };

  explicit SlotParser(const Config& config) : config_(config) {}

  // Parses one slot. After a stream error every later slot is ignored until
  // Reset() (the link went down and came back: NET-2.10).
  std::vector<Event> Accept(ByteView slot);
  // The same into `events` (cleared first), whose capacity a caller may
  // reuse from slot to slot.
  void Accept(ByteView slot, std::vector<Event>& events);
  void Reset();

  bool broken() const { return broken_; }
  // Bytes of a packet begun but not finished (for statistics and tests).
  size_t partial_bytes() const {
    if (!have_header_) {
      return header_size_;
    }
    return config_.streaming ? kRouteHeaderBytes + streamed_ : packet_.size();
  }

 private:
  Config config_;
  // The header being received, and how many of its bytes have come.
  std::array<uint8_t, kRouteHeaderBytes> header_bytes_{};
  size_t header_size_ = 0;
  // Not streaming: the packet's bytes so far, from its header's check on,
  // its whole length reserved then so that it grows without moving.
  Bytes packet_;
  size_t streamed_ = 0;  // streaming: payload bytes of the packet handed on
  size_t skip_ = 0;      // payload bytes of a dropped packet still to skip
  bool have_header_ = false;
  RouteHeader header_;
  bool broken_ = false;
};

}  // namespace lq::net
