// SPDX-License-Identifier: Apache-2.0
// Work requests and completions of the verbs-like transport API
// (docs/spec/trn.md sections 5 to 7): what a workload posts to a queue
// pair's send and receive queues, and how each one ends.
#pragma once

#include <cstdint>
#include <optional>

#include "models/roce/opcode.h"

namespace lq::transport {

enum class SendKind { kSend, kWrite, kRead, kCompareSwap, kFetchAdd };

// READ and the two atomics: answered by responses, not ACKs.
inline bool IsReadOrAtomic(SendKind kind) {
  return kind == SendKind::kRead || kind == SendKind::kCompareSwap ||
         kind == SendKind::kFetchAdd;
}

// The request packets of those: a READ REQUEST, COMPARE SWAP or FETCH ADD.
inline bool IsReadOrAtomic(roce::Opcode opcode) {
  return opcode == roce::Opcode::kReadRequest ||
         opcode == roce::Opcode::kCompareSwap ||
         opcode == roce::Opcode::kFetchAdd;
}

// A send-queue work request: a SEND of `length` bytes into the peer's next
// receive WR; an RDMA WRITE of `length` bytes to the peer's
// `remote_address` under `rkey` (SEND and WRITE may carry immediate data);
// an RDMA READ of `length` bytes from there; or an 8-byte atomic there
// (compare-and-swap: if the value equals `compare` it becomes `swap_add`;
// fetch-and-add: it grows by `swap_add`), returning the original value.
struct SendWr {
  uint64_t wr_id = 0;
  SendKind kind = SendKind::kSend;
  uint32_t length = 0;
  uint64_t remote_address = 0;  // WRITE, READ, atomics
  uint32_t rkey = 0;            // WRITE, READ, atomics
  std::optional<uint32_t> immediate;
  uint64_t compare = 0;   // compare-and-swap
  uint64_t swap_add = 0;  // atomics
};

// A receive-queue work request: room for one incoming SEND.
struct RecvWr {
  uint64_t wr_id = 0;
  uint32_t length = 0;
};

// How a work request ended (TRN-5.2, TRN-7.8, TRN-7.9).
enum class CompletionStatus {
  kSuccess,
  kFlushErr,        // the QP was in or went to ERROR first
  kRetryExcErr,     // retry counter exhausted
  kRnrRetryExcErr,  // RNR counter exhausted
  kRemInvReqErr,    // NAK 1: invalid request
  kRemAccessErr,    // NAK 2: remote access error
  kRemOpErr,        // NAK 3: remote operational error
  kLocQpOpErr,      // the responder's memory refused the receive buffer
  kLocProtErr,      // the requester's memory refused the local buffer
};

const char* CompletionStatusName(CompletionStatus status);

struct Completion {
  uint64_t wr_id = 0;
  CompletionStatus status = CompletionStatus::kSuccess;
  uint32_t byte_length = 0;           // receive completions: bytes placed
  std::optional<uint32_t> immediate;  // receive completions
};

}  // namespace lq::transport
