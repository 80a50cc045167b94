// SPDX-License-Identifier: Apache-2.0
// The logical layer's messages (docs/spec/log.md LOG-6.10), which logical
// units and their firmware exchange as SENDs on a node pair's RC
// connection: fault requests and responses, invalidations and their
// acknowledgements, and the pool-frame messages. Also the fault record the
// owner's firmware reads from its fault queue (LOG-6.3).
#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/logical/page_table.h"

namespace lq::logical {

// LOG-6.10's TYPE codes.
enum class LogMessageType : uint8_t {
  kFaultRequest = 1,
  kFaultResponse = 2,
  kInvalRequest = 3,
  kInvalAck = 4,
  kFrameAllocRequest = 5,
  kFrameAllocResponse = 6,
  kFrameFree = 7,
};

// LOG-6.5's answers to a fault.
enum class FaultStatus : uint8_t {
  kMap = 0,
  kAllocated = 1,
  kMigrated = 2,
  kReject = 3,
  kBusy = 4,
};

// LOG-6.5's reasons for a REJECT (0 with every other status).
enum class RejectReason : uint8_t {
  kNone = 0,
  kRange = 1,
  kPermission = 2,
  kNoMemory = 3,
  kHomeLost = 4,
};

struct FaultRequest {
  AccessKind access = AccessKind::kLoad;
  FaultCause cause = FaultCause::kNotMapped;
  uint16_t requester = 0;
  uint16_t fault_id = 0;  // the requester's held slot
  uint64_t ga = 0;        // the access's first byte
  uint16_t size = 0;      // bytes
};

struct FaultResponse {
  FaultStatus status = FaultStatus::kMap;
  RejectReason reason = RejectReason::kNone;
  uint16_t fault_id = 0;
  uint64_t page_ga = 0;  // GA of the page's first byte
  uint64_t pte = 0;      // LOG-5.3, with MAP, ALLOCATED and MIGRATED
};

struct InvalRequest {
  uint16_t inval_id = 0;
  uint64_t ga = 0;  // the first page's
  uint32_t pages = 0;
};

struct InvalAck {
  uint16_t inval_id = 0;
  uint64_t ga = 0;
};

struct FrameAllocRequest {
  uint16_t request_id = 0;
};

struct FrameAllocResponse {
  bool granted = false;  // STATUS 0; else 1, none free
  uint16_t request_id = 0;
  uint32_t frame = 0;
};

struct FrameFree {
  uint32_t frame = 0;
};

using LogMessage =
    std::variant<FaultRequest, FaultResponse, InvalRequest, InvalAck,
                 FrameAllocRequest, FrameAllocResponse, FrameFree>;

// The longest message (FAULT_REQ, FAULT_RSP and INVAL_REQ): a receive
// buffer of this size takes any of them.
inline constexpr size_t kMaxLogMessageBytes = 24;

LogMessageType TypeOf(const LogMessage& message);

// The length of messages of TYPE `type` (LOG-6.10); 0 for an unknown TYPE.
size_t LogMessageBytes(uint8_t type);

// The message's wire bytes, its length fixed by its TYPE.
Bytes EncodeLogMessage(const LogMessage& message);

// LOG-6.10: fails, with the offending byte's offset, on an unknown TYPE, a
// length other than the TYPE's, a code outside its table (ACCESS, CAUSE,
// STATUS, REASON) or a reserved byte that is not 0.
Result<LogMessage> ParseLogMessage(ByteView bytes);

// LOG-6.3: a fault request as the owner queued it.
struct FaultRecord {
  FaultRequest request;
  uint64_t time_ns = 0;  // the owner's time of arrival
  uint32_t seq = 0;      // running number of records the owner queued
};

inline constexpr size_t kFaultRecordWords = 8;

// FQ_DATA0-7's values for `record`.
std::array<uint32_t, kFaultRecordWords> FaultRecordWords(
    const FaultRecord& record);

}  // namespace lq::logical
