// SPDX-License-Identifier: Apache-2.0
// LOG-6.10's wire formats and LOG-6.3's fault record.
#include "models/logical/log_message.h"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>

namespace lq::logical {
namespace {

// Offsets of the fields within a message (LOG-6.10's table).
constexpr size_t kType = 0;
constexpr size_t kByte1 = 1;  // ACCESS or STATUS
constexpr size_t kByte2 = 2;  // CAUSE or REASON
constexpr size_t kId = 4;     // REQUESTER, INVAL_ID or REQ_ID
constexpr size_t kFaultId = 6;
constexpr size_t kRspFaultId = 4;
constexpr size_t kWide = 8;  // GA, or FRAME
constexpr size_t kAfterWide = 16;
constexpr size_t kIdBytes = 2;
constexpr size_t kGaBytes = 8;
constexpr size_t kFrameBytes = 4;
constexpr size_t kPagesBytes = 4;
constexpr size_t kSizeBytes = 2;

constexpr size_t kShort = 8;
constexpr size_t kMedium = 16;

size_t LengthOf(LogMessageType type) {
  switch (type) {
    case LogMessageType::kFaultRequest:
    case LogMessageType::kFaultResponse:
    case LogMessageType::kInvalRequest:
      return kMaxLogMessageBytes;
    case LogMessageType::kInvalAck:
    case LogMessageType::kFrameAllocResponse:
    case LogMessageType::kFrameFree:
      return kMedium;
    case LogMessageType::kFrameAllocRequest:
      return kShort;
  }
  return 0;
}

bool KnownType(uint8_t code) {
  return code >= static_cast<uint8_t>(LogMessageType::kFaultRequest) &&
         code <= static_cast<uint8_t>(LogMessageType::kFrameFree);
}

uint64_t Field(ByteView bytes, size_t at, size_t width) {
  return LoadBigEndian(bytes.data() + at, width);
}

void Put(Bytes& bytes, size_t at, size_t width, uint64_t value) {
  StoreBigEndian(bytes.data() + at, width, value);
}

// The fields of each message, read from its bytes; codes are checked
// before (CheckCodes) and reserved bytes after (by re-encoding).
LogMessage ReadFields(LogMessageType type, ByteView b) {
  switch (type) {
    case LogMessageType::kFaultRequest:
      return FaultRequest{
          static_cast<AccessKind>(b[kByte1]),
          static_cast<FaultCause>(b[kByte2]),
          static_cast<uint16_t>(Field(b, kId, kIdBytes)),
          static_cast<uint16_t>(Field(b, kFaultId, kIdBytes)),
          Field(b, kWide, kGaBytes),
          static_cast<uint16_t>(Field(b, kAfterWide, kSizeBytes))};
    case LogMessageType::kFaultResponse:
      return FaultResponse{
          static_cast<FaultStatus>(b[kByte1]),
          static_cast<RejectReason>(b[kByte2]),
          static_cast<uint16_t>(Field(b, kRspFaultId, kIdBytes)),
          Field(b, kWide, kGaBytes), Field(b, kAfterWide, kGaBytes)};
    case LogMessageType::kInvalRequest:
      return InvalRequest{
          static_cast<uint16_t>(Field(b, kId, kIdBytes)),
          Field(b, kWide, kGaBytes),
          static_cast<uint32_t>(Field(b, kAfterWide, kPagesBytes))};
    case LogMessageType::kInvalAck:
      return InvalAck{static_cast<uint16_t>(Field(b, kId, kIdBytes)),
                      Field(b, kWide, kGaBytes)};
    case LogMessageType::kFrameAllocRequest:
      return FrameAllocRequest{static_cast<uint16_t>(Field(b, kId, kIdBytes))};
    case LogMessageType::kFrameAllocResponse:
      return FrameAllocResponse{
          b[kByte1] == 0, static_cast<uint16_t>(Field(b, kId, kIdBytes)),
          static_cast<uint32_t>(Field(b, kWide, kFrameBytes))};
    case LogMessageType::kFrameFree:
      return FrameFree{static_cast<uint32_t>(Field(b, kWide, kFrameBytes))};
  }
  return FrameFree{};
}

// The offset of a code outside its table, if any.
std::optional<size_t> BadCode(LogMessageType type, ByteView b) {
  constexpr uint8_t kLastAccess = static_cast<uint8_t>(AccessKind::kAtomic);
  constexpr uint8_t kLastCause = static_cast<uint8_t>(FaultCause::kMigrating);
  constexpr uint8_t kLastStatus = static_cast<uint8_t>(FaultStatus::kBusy);
  constexpr uint8_t kLastReason = static_cast<uint8_t>(RejectReason::kHomeLost);
  switch (type) {
    case LogMessageType::kFaultRequest:
      if (b[kByte1] > kLastAccess) {
        return kByte1;
      }
      if (b[kByte2] == 0 || b[kByte2] > kLastCause) {
        return kByte2;
      }
      return std::nullopt;
    case LogMessageType::kFaultResponse: {
      if (b[kByte1] > kLastStatus) {
        return kByte1;
      }
      // A REASON with REJECT, and only with it.
      const bool reject =
          b[kByte1] == static_cast<uint8_t>(FaultStatus::kReject);
      if (b[kByte2] > kLastReason || reject != (b[kByte2] != 0)) {
        return kByte2;
      }
      return std::nullopt;
    }
    case LogMessageType::kFrameAllocResponse:
      if (b[kByte1] > 1) {
        return kByte1;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

size_t LogMessageBytes(uint8_t type) {
  return KnownType(type) ? LengthOf(static_cast<LogMessageType>(type)) : 0;
}

LogMessageType TypeOf(const LogMessage& message) {
  return std::visit(
      [](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, FaultRequest>) {
          return LogMessageType::kFaultRequest;
        } else if constexpr (std::is_same_v<T, FaultResponse>) {
          return LogMessageType::kFaultResponse;
        } else if constexpr (std::is_same_v<T, InvalRequest>) {
          return LogMessageType::kInvalRequest;
        } else if constexpr (std::is_same_v<T, InvalAck>) {
          return LogMessageType::kInvalAck;
        } else if constexpr (std::is_same_v<T, FrameAllocRequest>) {
          return LogMessageType::kFrameAllocRequest;
        } else if constexpr (std::is_same_v<T, FrameAllocResponse>) {
          return LogMessageType::kFrameAllocResponse;
        } else {
          return LogMessageType::kFrameFree;
        }
      },
      message);
}

Bytes EncodeLogMessage(const LogMessage& message) {
  const LogMessageType type = TypeOf(message);
  Bytes b(LengthOf(type), 0);
  b[kType] = static_cast<uint8_t>(type);
  std::visit(
      [&b](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, FaultRequest>) {
          b[kByte1] = static_cast<uint8_t>(m.access);
          b[kByte2] = static_cast<uint8_t>(m.cause);
          Put(b, kId, kIdBytes, m.requester);
          Put(b, kFaultId, kIdBytes, m.fault_id);
          Put(b, kWide, kGaBytes, m.ga);
          Put(b, kAfterWide, kSizeBytes, m.size);
        } else if constexpr (std::is_same_v<T, FaultResponse>) {
          b[kByte1] = static_cast<uint8_t>(m.status);
          b[kByte2] = static_cast<uint8_t>(m.reason);
          Put(b, kRspFaultId, kIdBytes, m.fault_id);
          Put(b, kWide, kGaBytes, m.page_ga);
          Put(b, kAfterWide, kGaBytes, m.pte);
        } else if constexpr (std::is_same_v<T, InvalRequest>) {
          Put(b, kId, kIdBytes, m.inval_id);
          Put(b, kWide, kGaBytes, m.ga);
          Put(b, kAfterWide, kPagesBytes, m.pages);
        } else if constexpr (std::is_same_v<T, InvalAck>) {
          Put(b, kId, kIdBytes, m.inval_id);
          Put(b, kWide, kGaBytes, m.ga);
        } else if constexpr (std::is_same_v<T, FrameAllocRequest>) {
          Put(b, kId, kIdBytes, m.request_id);
        } else if constexpr (std::is_same_v<T, FrameAllocResponse>) {
          b[kByte1] = m.granted ? 0 : 1;
          Put(b, kId, kIdBytes, m.request_id);
          Put(b, kWide, kFrameBytes, m.frame);
        } else {
          Put(b, kWide, kFrameBytes, m.frame);
        }
      },
      message);
  return b;
}

Result<LogMessage> ParseLogMessage(ByteView bytes) {
  if (bytes.empty() || !KnownType(bytes[kType])) {
    return Fail("unknown LOG message TYPE", kType);
  }
  const auto type = static_cast<LogMessageType>(bytes[kType]);
  if (bytes.size() != LengthOf(type)) {
    return Fail("LOG message TYPE " + std::to_string(bytes[kType]) + " of " +
                    std::to_string(bytes.size()) + " bytes, not " +
                    std::to_string(LengthOf(type)),
                std::min(bytes.size(), LengthOf(type)));
  }
  if (const auto at = BadCode(type, bytes)) {
    return Fail("LOG message field code outside its table", *at);
  }
  LogMessage message = ReadFields(type, bytes);
  // Every field was read, so re-encoding differs only in a reserved byte.
  const Bytes again = EncodeLogMessage(message);
  const auto differ = std::mismatch(again.begin(), again.end(), bytes.begin());
  if (differ.first != again.end()) {
    return Fail("reserved byte of a LOG message not 0",
                static_cast<size_t>(differ.first - again.begin()));
  }
  return message;
}

std::array<uint32_t, kFaultRecordWords> FaultRecordWords(
    const FaultRecord& record) {
  constexpr unsigned kHalf = 16;
  constexpr unsigned kByte = 8;
  constexpr unsigned kWord = 32;
  const FaultRequest& r = record.request;
  return {static_cast<uint32_t>(r.ga),
          static_cast<uint32_t>(r.ga >> kWord),
          uint32_t{r.requester} | uint32_t{r.fault_id} << kHalf,
          static_cast<uint32_t>(r.access) |
              static_cast<uint32_t>(r.cause) << kByte |
              uint32_t{r.size} << kHalf,
          static_cast<uint32_t>(record.time_ns),
          static_cast<uint32_t>(record.time_ns >> kWord),
          record.seq,
          0};
}

}  // namespace lq::logical
