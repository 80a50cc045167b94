// SPDX-License-Identifier: Apache-2.0
// GDB remote serial protocol framing: an incremental decoder of the byte
// stream GDB sends, the encoder of the stub's packets, and the hex helpers
// every packet body uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::gdb {

// The largest payload (after unescaping) the stub accepts; announced to GDB
// as PacketSize, so GDB sizes its m/M/X/G requests to fit.
inline constexpr size_t kMaxPacketPayload = 4096;

// Something complete that the decoder found in GDB's byte stream.
struct RspEvent {
  enum class Kind {
    kPacket,       // a $payload#cc frame with a good checksum
    kBadChecksum,  // a frame whose checksum does not match (the payload is
                   // still given: in no-ack mode the stub uses it anyway)
    kMalformed,    // a frame with a good checksum that cannot be used: longer
                   // than the limit, a run-length marker with nothing to
                   // repeat or a bad count, or an escape with nothing after
    kAck,          // '+' outside a frame
    kNack,         // '-' outside a frame: resend the last packet
    kInterrupt,    // 0x03 outside a frame: GDB wants the target stopped
  };
  Kind kind = Kind::kPacket;
  std::string payload;  // kPacket, kBadChecksum: unescaped, runs expanded
};

// Turns the bytes GDB sends into events, one byte at a time, so the caller
// can stop reading the moment a packet is complete. Bytes outside frames
// that are none of + - 0x03 are ignored (GDB may send stray newlines); a '$'
// inside a frame starts the frame over, as GDB itself does.
class RspDecoder {
 public:
  explicit RspDecoder(size_t max_payload = kMaxPacketPayload)
      : max_payload_(max_payload) {}

  // The event this byte completes, if any.
  std::optional<RspEvent> Feed(uint8_t byte);
  // Every event the bytes complete, in order.
  std::vector<RspEvent> Feed(ByteView bytes);

 private:
  enum class State {
    kIdle,
    kPayload,
    kEscape,
    kRunLength,
    kChecksumHigh,
    kChecksumLow
  };

  void StartFrame();
  void Append(uint8_t byte);
  RspEvent FinishFrame();

  size_t max_payload_;
  State state_ = State::kIdle;
  std::string payload_;
  uint8_t running_sum_ = 0;  // of the raw bytes between '$' and '#'
  int sent_sum_ = 0;         // the two digits after '#', -1 if not hex
  bool malformed_ = false;
};

// The checksum of a frame: the sum modulo 256 of the raw payload bytes.
uint8_t RspChecksum(std::string_view raw);

// A complete frame "$payload#cc", with '$', '#', '}' and '*' escaped as
// '}' followed by the byte XOR 0x20 (the binary encoding GDB expects).
std::string EncodePacket(std::string_view payload);

// The value of one hex digit (either case), or -1.
int HexDigitValue(char digit);

// Two lowercase hex digits per byte, in memory order.
std::string ToHex(ByteView bytes);

// Rejects an odd number of digits or a non-hex character.
Result<Bytes> ParseHexBytes(std::string_view hex);

// A 32-bit register as GDB transfers it: 8 hex digits, least significant
// byte first (the target's byte order, little-endian on RISC-V).
std::string RegisterToHex(uint32_t value);
// Rejects anything but exactly 8 hex digits.
Result<uint32_t> ParseRegisterHex(std::string_view hex);

// An address, length or register number: hex digits, most significant
// first. Rejects an empty string, a non-hex character and values above
// 0xffffffff (leading zeros are fine).
Result<uint32_t> ParseHexNumber(std::string_view hex);

}  // namespace lq::gdb
