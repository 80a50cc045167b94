// SPDX-License-Identifier: Apache-2.0
// Segmentation: packet counts, opcodes and lengths of TRN-6.2.
#include "models/transport/segmentation.h"

namespace lq::transport {

using roce::Opcode;

uint32_t PacketCount(uint32_t length, uint32_t pmtu) {
  return length == 0 ? 1 : (length + pmtu - 1) / pmtu;
}

Opcode SegmentOpcode(SendKind kind, bool immediate, uint32_t index,
                     uint32_t count) {
  const bool send = kind == SendKind::kSend;
  if (count == 1) {
    if (send) {
      return immediate ? Opcode::kSendOnlyWithImmediate : Opcode::kSendOnly;
    }
    return immediate ? Opcode::kWriteOnlyWithImmediate : Opcode::kWriteOnly;
  }
  if (index == 0) {
    return send ? Opcode::kSendFirst : Opcode::kWriteFirst;
  }
  if (index + 1 < count) {
    return send ? Opcode::kSendMiddle : Opcode::kWriteMiddle;
  }
  if (send) {
    return immediate ? Opcode::kSendLastWithImmediate : Opcode::kSendLast;
  }
  return immediate ? Opcode::kWriteLastWithImmediate : Opcode::kWriteLast;
}

Opcode ReadResponseOpcode(uint32_t index, uint32_t count) {
  if (count == 1) {
    return Opcode::kReadResponseOnly;
  }
  if (index == 0) {
    return Opcode::kReadResponseFirst;
  }
  return index + 1 < count ? Opcode::kReadResponseMiddle
                           : Opcode::kReadResponseLast;
}

uint32_t PsnCount(SendKind kind, uint32_t length, uint32_t pmtu) {
  return kind == SendKind::kCompareSwap || kind == SendKind::kFetchAdd
             ? 1
             : PacketCount(length, pmtu);
}

uint32_t SegmentLength(uint32_t length, uint32_t pmtu, uint32_t index,
                       uint32_t count) {
  return index + 1 < count ? pmtu : length - (count - 1) * pmtu;
}

bool SegmentAckReq(uint32_t index, uint32_t count, uint32_t every) {
  return index + 1 == count || (every > 0 && (index + 1) % every == 0);
}

}  // namespace lq::transport
