// SPDX-License-Identifier: Apache-2.0
// GDB remote serial protocol framing and hex helpers.
#include "models/gdb/rsp_packet.h"

namespace lq::gdb {
namespace {

constexpr uint8_t kFrameStart = '$';
constexpr uint8_t kFrameEnd = '#';
constexpr uint8_t kEscape = '}';
constexpr uint8_t kRunLength = '*';
constexpr uint8_t kEscapeXor = 0x20;
constexpr uint8_t kInterruptByte = 0x03;
// A run-length count is a printable character c meaning c - 29 more copies
// of the previous byte; only ' ' (3) to '~' (97) are printable.
constexpr uint8_t kRunCountFirst = ' ';
constexpr uint8_t kRunCountLast = '~';
constexpr int kRunCountBias = 29;
constexpr char kHexDigits[] = "0123456789abcdef";
constexpr size_t kRegisterBytes = 4;

}  // namespace

std::optional<RspEvent> RspDecoder::Feed(uint8_t byte) {
  switch (state_) {
    case State::kIdle:
      if (byte == kFrameStart) {
        StartFrame();
      } else if (byte == '+') {
        return RspEvent{RspEvent::Kind::kAck, {}};
      } else if (byte == '-') {
        return RspEvent{RspEvent::Kind::kNack, {}};
      } else if (byte == kInterruptByte) {
        return RspEvent{RspEvent::Kind::kInterrupt, {}};
      }
      // Anything else between frames is line noise.
      return std::nullopt;
    case State::kPayload:
      if (byte == kFrameStart) {
        // GDB gave up on the frame and sent a new one.
        StartFrame();
      } else if (byte == kFrameEnd) {
        state_ = State::kChecksumHigh;
      } else if (byte == kEscape) {
        running_sum_ += byte;
        state_ = State::kEscape;
      } else if (byte == kRunLength) {
        running_sum_ += byte;
        state_ = State::kRunLength;
      } else {
        running_sum_ += byte;
        Append(byte);
      }
      return std::nullopt;
    case State::kEscape:
      if (byte == kFrameStart) {
        StartFrame();
      } else if (byte == kFrameEnd) {
        // A raw '#' always ends the frame; the escape has nothing to escape.
        malformed_ = true;
        state_ = State::kChecksumHigh;
      } else {
        running_sum_ += byte;
        Append(byte ^ kEscapeXor);
        state_ = State::kPayload;
      }
      return std::nullopt;
    case State::kRunLength:
      // The count byte is taken as a count whatever it is, as GDB does.
      running_sum_ += byte;
      state_ = State::kPayload;
      if (payload_.empty() || byte < kRunCountFirst || byte > kRunCountLast) {
        malformed_ = true;
      } else {
        const char repeated = payload_.back();
        for (int i = 0; i < byte - kRunCountBias; ++i) {
          Append(static_cast<uint8_t>(repeated));
        }
      }
      return std::nullopt;
    case State::kChecksumHigh: {
      const int digit = HexDigitValue(static_cast<char>(byte));
      sent_sum_ = digit < 0 ? -1 : digit << 4;
      state_ = State::kChecksumLow;
      return std::nullopt;
    }
    case State::kChecksumLow: {
      const int digit = HexDigitValue(static_cast<char>(byte));
      if (digit < 0 || sent_sum_ < 0) {
        sent_sum_ = -1;
      } else {
        sent_sum_ |= digit;
      }
      state_ = State::kIdle;
      return FinishFrame();
    }
  }
  return std::nullopt;
}

std::vector<RspEvent> RspDecoder::Feed(ByteView bytes) {
  std::vector<RspEvent> events;
  for (uint8_t byte : bytes) {
    if (std::optional<RspEvent> event = Feed(byte)) {
      events.push_back(std::move(*event));
    }
  }
  return events;
}

void RspDecoder::StartFrame() {
  state_ = State::kPayload;
  payload_.clear();
  running_sum_ = 0;
  sent_sum_ = 0;
  malformed_ = false;
}

void RspDecoder::Append(uint8_t byte) {
  // Past the limit the frame is still read to its end, so that the stream
  // stays in step, but it can only be rejected.
  if (payload_.size() >= max_payload_) {
    malformed_ = true;
    return;
  }
  payload_.push_back(static_cast<char>(byte));
}

RspEvent RspDecoder::FinishFrame() {
  RspEvent event;
  if (malformed_) {
    event.kind = RspEvent::Kind::kMalformed;
  } else {
    event.kind = sent_sum_ == running_sum_ ? RspEvent::Kind::kPacket
                                           : RspEvent::Kind::kBadChecksum;
    event.payload = std::move(payload_);
  }
  payload_.clear();
  return event;
}

uint8_t RspChecksum(std::string_view raw) {
  uint8_t sum = 0;
  for (char c : raw) {
    sum += static_cast<uint8_t>(c);
  }
  return sum;
}

std::string EncodePacket(std::string_view payload) {
  std::string raw;
  raw.reserve(payload.size() + payload.size() / 8);
  for (char c : payload) {
    const auto byte = static_cast<uint8_t>(c);
    if (byte == kFrameStart || byte == kFrameEnd || byte == kEscape ||
        byte == kRunLength) {
      raw.push_back(static_cast<char>(kEscape));
      raw.push_back(static_cast<char>(byte ^ kEscapeXor));
    } else {
      raw.push_back(c);
    }
  }
  const uint8_t sum = RspChecksum(raw);
  std::string frame;
  frame.reserve(raw.size() + 4);
  frame.push_back(static_cast<char>(kFrameStart));
  frame += raw;
  frame.push_back(static_cast<char>(kFrameEnd));
  frame.push_back(kHexDigits[sum >> 4]);
  frame.push_back(kHexDigits[sum & 0xf]);
  return frame;
}

int HexDigitValue(char digit) {
  if (digit >= '0' && digit <= '9') {
    return digit - '0';
  }
  if (digit >= 'a' && digit <= 'f') {
    return digit - 'a' + 10;
  }
  if (digit >= 'A' && digit <= 'F') {
    return digit - 'A' + 10;
  }
  return -1;
}

std::string ToHex(ByteView bytes) {
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (uint8_t byte : bytes) {
    hex.push_back(kHexDigits[byte >> 4]);
    hex.push_back(kHexDigits[byte & 0xf]);
  }
  return hex;
}

Result<Bytes> ParseHexBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) {
    return Fail("odd number of hex digits", hex.size());
  }
  Bytes bytes;
  bytes.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigitValue(hex[i]);
    const int low = HexDigitValue(hex[i + 1]);
    if (high < 0 || low < 0) {
      return Fail("not a hex digit", high < 0 ? i : i + 1);
    }
    bytes.push_back(static_cast<uint8_t>(high << 4 | low));
  }
  return bytes;
}

std::string RegisterToHex(uint32_t value) {
  uint8_t bytes[kRegisterBytes];
  StoreLittleEndian(bytes, kRegisterBytes, value);
  return ToHex(ByteView(bytes, kRegisterBytes));
}

Result<uint32_t> ParseRegisterHex(std::string_view hex) {
  if (hex.size() != 2 * kRegisterBytes) {
    return Fail("a register is 8 hex digits", hex.size());
  }
  Result<Bytes> bytes = ParseHexBytes(hex);
  if (!bytes) {
    return bytes.error();
  }
  return static_cast<uint32_t>(LoadLittleEndian(bytes->data(), kRegisterBytes));
}

Result<uint32_t> ParseHexNumber(std::string_view hex) {
  if (hex.empty()) {
    return Fail("empty number");
  }
  uint64_t value = 0;
  for (size_t i = 0; i < hex.size(); ++i) {
    const int digit = HexDigitValue(hex[i]);
    if (digit < 0) {
      return Fail("not a hex digit", i);
    }
    value = value << 4 | static_cast<uint64_t>(digit);
    if (value > UINT32_MAX) {
      return Fail("number above 32 bits", i);
    }
  }
  return static_cast<uint32_t>(value);
}

}  // namespace lq::gdb
