// SPDX-License-Identifier: Apache-2.0
// Bit packing and validation of the DLP link header (DLL-1.x).
#include "models/flit/dlp.h"

#include <string>

#include "models/common/hex.h"

namespace lq::flit {

namespace {

// Field placement: docs/spec/dll.md, table "DLP bit map".
constexpr unsigned kTypeShift = 5;       // Byte 0 [7:5].
constexpr unsigned kPayloadVcShift = 2;  // Byte 0 [4:2].
constexpr uint8_t kThreeBits = 0x7;
constexpr uint8_t kTwoBits = 0x3;
constexpr unsigned kReplayShift = 6;       // Byte 2 [7:6].
constexpr uint8_t kByte2Reserved = 0x3C;   // Byte 2 [5:2].
constexpr unsigned kCreditVcShift = 5;     // Byte 4 [7:5].
constexpr uint8_t kByte4Reserved = 0x10;   // Byte 4 [4].
constexpr uint8_t kCreditHighMask = 0x0F;  // Byte 4 [3:0].
constexpr unsigned kByteBits = 8;
constexpr unsigned kFlitTypeCodes = 5;

constexpr size_t kTypeByte = 0;
constexpr size_t kSeqLowByte = 1;
constexpr size_t kReplayByte = 2;
constexpr size_t kAckLowByte = 3;
constexpr size_t kCreditByte = 4;
constexpr size_t kCreditLowByte = 5;

// The checks both directions share: ranges, then fields that must be zero.
// Offsets point at the byte holding the offending field.
Result<bool> Validate(const DlpHeader& header) {
  if (static_cast<unsigned>(header.type) >= kFlitTypeCodes) {
    return Fail("undefined flit type " +
                    std::to_string(static_cast<unsigned>(header.type)),
                kTypeByte);
  }
  if (header.payload_vc >= kLinkVcs) {
    return Fail("payload VC " + std::to_string(header.payload_vc) +
                    " out of range (link has " + std::to_string(kLinkVcs) +
                    " VCs)",
                kTypeByte);
  }
  if (header.credit_vc >= kLinkVcs) {
    return Fail("credit VC " + std::to_string(header.credit_vc) +
                    " out of range (link has " + std::to_string(kLinkVcs) +
                    " VCs)",
                kCreditByte);
  }
  if (header.flit_seq >= kSeqModulus || header.ack_seq >= kSeqModulus) {
    return Fail("sequence number exceeds 10 bits", kTypeByte);
  }
  if (header.credit_count >= kCreditModulus) {
    return Fail("credit count exceeds 12 bits", kCreditByte);
  }
  if (static_cast<unsigned>(header.replay) > kTwoBits) {
    return Fail("undefined replay command", kReplayByte);
  }
  const std::string type = FlitTypeName(header.type);
  if (header.type != FlitType::kPayload && header.payload_vc != 0) {
    return Fail("payload VC set in " + type + " flit", kTypeByte);
  }
  if (header.type == FlitType::kIdle && header.flit_seq != 0) {
    return Fail("sequence number set in IDLE flit", kTypeByte);
  }
  if (header.replay == ReplayCommand::kNone && header.ack_seq != 0) {
    return Fail("ack_seq set without a replay command", kReplayByte);
  }
  if (header.type == FlitType::kTraining &&
      (header.flit_seq != 0 || header.replay != ReplayCommand::kNone ||
       header.credit_vc != 0 || header.credit_count != 0)) {
    return Fail("TRAINING flit with non-zero link fields", kTypeByte);
  }
  return true;
}

}  // namespace

const char* FlitTypeName(FlitType type) {
  switch (type) {
    case FlitType::kIdle:
      return "IDLE";
    case FlitType::kNop:
      return "NOP";
    case FlitType::kPayload:
      return "PAYLOAD";
    case FlitType::kTraining:
      return "TRAINING";
    case FlitType::kControl:
      return "CONTROL";
  }
  return "undefined";
}

bool CarriesSlot(FlitType type) {
  return type == FlitType::kPayload || type == FlitType::kTraining ||
         type == FlitType::kControl;
}

const char* ReplayCommandName(ReplayCommand command) {
  switch (command) {
    case ReplayCommand::kNone:
      return "none";
    case ReplayCommand::kAck:
      return "ACK";
    case ReplayCommand::kStandardNak:
      return "standard NAK";
    case ReplayCommand::kSelectiveNak:
      return "selective NAK";
  }
  return "undefined";
}

bool DlpHeader::operator==(const DlpHeader& other) const {
  return type == other.type && payload_vc == other.payload_vc &&
         flit_seq == other.flit_seq && replay == other.replay &&
         ack_seq == other.ack_seq && credit_vc == other.credit_vc &&
         credit_count == other.credit_count;
}

Result<DlpBytes> EncodeDlp(const DlpHeader& header) {
  const Result<bool> valid = Validate(header);
  if (!valid) {
    return valid.error();
  }
  DlpBytes out{};
  out[kTypeByte] = static_cast<uint8_t>(
      (static_cast<unsigned>(header.type) << kTypeShift) |
      (header.payload_vc << kPayloadVcShift) | (header.flit_seq >> kByteBits));
  out[kSeqLowByte] = static_cast<uint8_t>(header.flit_seq);
  out[kReplayByte] = static_cast<uint8_t>(
      (static_cast<unsigned>(header.replay) << kReplayShift) |
      (header.ack_seq >> kByteBits));
  out[kAckLowByte] = static_cast<uint8_t>(header.ack_seq);
  out[kCreditByte] = static_cast<uint8_t>((header.credit_vc << kCreditVcShift) |
                                          (header.credit_count >> kByteBits));
  out[kCreditLowByte] = static_cast<uint8_t>(header.credit_count);
  return out;
}

FlitType PeekFlitType(uint8_t first_dlp_byte) {
  const unsigned code = first_dlp_byte >> kTypeShift;
  return code < kFlitTypeCodes ? static_cast<FlitType>(code)
                               : FlitType::kPayload;
}

Result<DlpHeader> ParseDlp(ByteView bytes) {
  if (bytes.size() != kDlpBytes) {
    return Fail("DLP is " + std::to_string(bytes.size()) + " bytes, expected " +
                std::to_string(kDlpBytes));
  }
  if ((bytes[kReplayByte] & kByte2Reserved) != 0) {
    return Fail("reserved DLP bits set (byte 2 bits " +
                    HexText(bytes[kReplayByte] & kByte2Reserved, 2) + ")",
                kReplayByte);
  }
  if ((bytes[kCreditByte] & kByte4Reserved) != 0) {
    return Fail("reserved DLP bits set (byte 4 bits " +
                    HexText(bytes[kCreditByte] & kByte4Reserved, 2) + ")",
                kCreditByte);
  }
  const unsigned type = bytes[kTypeByte] >> kTypeShift;
  if (type >= kFlitTypeCodes) {
    return Fail("reserved flit type code " + std::to_string(type), kTypeByte);
  }
  DlpHeader header;
  header.type = static_cast<FlitType>(type);
  header.payload_vc =
      static_cast<uint8_t>((bytes[kTypeByte] >> kPayloadVcShift) & kThreeBits);
  header.flit_seq = static_cast<uint16_t>(
      ((bytes[kTypeByte] & kTwoBits) << kByteBits) | bytes[kSeqLowByte]);
  header.replay =
      static_cast<ReplayCommand>(bytes[kReplayByte] >> kReplayShift);
  header.ack_seq = static_cast<uint16_t>(
      ((bytes[kReplayByte] & kTwoBits) << kByteBits) | bytes[kAckLowByte]);
  header.credit_vc = static_cast<uint8_t>(bytes[kCreditByte] >> kCreditVcShift);
  header.credit_count = static_cast<uint16_t>(
      ((bytes[kCreditByte] & kCreditHighMask) << kByteBits) |
      bytes[kCreditLowByte]);
  const Result<bool> valid = Validate(header);
  if (!valid) {
    return valid.error();
  }
  return header;
}

}  // namespace lq::flit
