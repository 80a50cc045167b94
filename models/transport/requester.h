// SPDX-License-Identifier: Apache-2.0
// The requester side of an RC queue pair (docs/spec/trn.md sections 6 and
// 7): work requests segmented into PSN-numbered packets (a READ or atomic
// as one request), acknowledgements and responses that complete them in
// posting order, READ data and atomic results handed back in PSN order,
// go-back-N on a NAK, an implicit NAK or a local ACK timeout, the retry and
// RNR counters, and the error that completes every work request exactly
// once. It keeps no clock: the caller passes the time and calls OnTimer()
// at deadline().
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "models/roce/ib_headers.h"
#include "models/roce/opcode.h"
#include "models/transport/qp_state.h"
#include "models/transport/work_request.h"

namespace lq::transport {

struct RequesterConfig {
  uint32_t ack_req_every = 8;  // transport.ack_req_every (TRN-6.7)
};

// One request packet to put on the wire. The caller builds its headers
// (roce::NewPacket) and takes its payload from the work request's buffer.
struct RequestPacket {
  uint64_t wr_id = 0;
  roce::Opcode opcode = roce::Opcode::kSendOnly;
  uint32_t psn = 0;
  bool ack_req = false;
  uint32_t offset = 0;                    // of the payload within the message
  uint32_t length = 0;                    // payload bytes
  std::optional<roce::Reth> reth;         // WRITE FIRST and ONLY, READ
  std::optional<roce::AtomicEth> atomic;  // compare-and-swap, fetch-and-add
  std::optional<uint32_t> immediate;      // LAST and ONLY "with immediate"
  bool retransmit = false;                // sent before (TRN-7.3)
};

// READ response data to place at `offset` into the READ's local buffer,
// or an atomic's original value to store there.
struct ResponseData {
  uint64_t wr_id = 0;
  uint32_t offset = 0;
  bool atomic = false;
  uint64_t original = 0;  // atomic
};

class Requester {
 public:
  Requester(const QpAttributes& attributes, const RequesterConfig& config);

  // Queues `wr`; after a failure it completes at once with FLUSH_ERR.
  void Post(const SendWr& wr);
  // The next packet to send at `now_ns`: nothing when every posted packet
  // is out, the PSN window is full (TRN-6.5), an RNR wait runs, or the
  // requester failed.
  std::optional<RequestPacket> Next(uint64_t now_ns);
  // An ACKNOWLEDGE (ACK, NAK or RNR NAK) for this QP with BTH PSN `psn`.
  void OnAcknowledge(uint32_t psn, const roce::Aeth& aeth, uint64_t now_ns);
  // A READ response (`length` payload bytes) or an ATOMIC ACKNOWLEDGE
  // (`original` value) with BTH PSN `psn`: where its data goes, or nothing
  // when it is stale or out of order (TRN-6.12: then the READ or atomic is
  // asked again).
  std::optional<ResponseData> OnResponse(roce::Opcode opcode, uint32_t psn,
                                         uint32_t length, uint64_t original,
                                         uint64_t now_ns);
  // When OnTimer() is next due: the local ACK timeout or the end of an RNR
  // wait, whichever is first; nothing when neither runs.
  std::optional<uint64_t> deadline() const;
  void OnTimer(uint64_t now_ns);

  // The QP went to ERROR by a modify (TRN-5.2): every outstanding work
  // request completes with FLUSH_ERR, as will every later one.
  void Flush() { Fail(CompletionStatus::kFlushErr); }
  // The node's memory refused work request `wr_id`'s local buffer
  // (TRN-6.15): it completes with LOC_PROT_ERR (also if its completion,
  // not yet taken, said success), the others outstanding with FLUSH_ERR,
  // and the requester fails.
  void FailLocal(uint64_t wr_id);

  // Completions since the last call, in posting order.
  std::vector<Completion> TakeCompletions();
  // The QP must go to ERROR: a counter ran out or a fatal NAK came.
  bool failed() const { return failed_; }
  uint64_t retransmits() const { return retransmits_; }
  // The oldest PSN not yet acknowledged, and the next PSN Next() sends (a
  // rewind moves it back).
  uint32_t unacked_psn() const { return unacked_psn_; }
  uint32_t next_psn() const { return next_psn_; }
  size_t outstanding() const { return wrs_.size(); }

 private:
  struct PostedWr {
    SendWr wr;
    uint32_t first_psn;
    uint32_t packets;
  };
  // The oldest sent READ or atomic not fully answered, if any.
  const PostedWr* OpenReadOrAtomic() const;
  // The PSN its next response must carry.
  uint32_t ExpectedResponse(const PostedWr& posted) const;
  // TRN-6.12's implicit NAK for the open READ or atomic `open`: rewind to
  // it, unless it was already asked again and nothing has progressed since.
  void ImplicitNak(const PostedWr& open, uint64_t now_ns);
  // `psn`, or the first PSN of the READ or atomic it falls in (TRN-7.3).
  uint32_t RewindTarget(uint32_t psn) const;
  const PostedWr* Containing(uint32_t psn) const;
  // Acknowledges every PSN before `psn`; true if that was progress.
  bool AcknowledgeBefore(uint32_t psn, uint64_t now_ns);
  // Go back to `psn` (TRN-7.3), spending a retry; false if none was left.
  void Rewind(uint32_t psn, uint64_t now_ns);
  // Completes the oldest work request with `status` and flushes the rest
  // (TRN-7.8, TRN-7.9).
  void Fail(CompletionStatus status);  // the oldest gets `status`
  // Every outstanding WR completes: `wr_id` with `status`, the others with
  // FLUSH_ERR.
  void FailAll(uint64_t wr_id, CompletionStatus status);
  // Sent and not acknowledged (TRN-7.4: the ACK timer runs).
  bool AwaitingAck() const;
  void RestartAckTimer(uint64_t now_ns);

  QpAttributes attributes_;
  RequesterConfig config_;
  uint64_t ack_timeout_ns_;
  std::deque<PostedWr> wrs_;  // posted, not completed, in order
  uint32_t end_psn_;          // after the last posted packet
  uint32_t next_psn_;         // the next to send
  uint32_t unacked_psn_;      // the oldest not acknowledged
  uint32_t sent_end_psn_;     // after the furthest ever sent
  uint8_t retry_;
  uint8_t rnr_;
  std::optional<uint64_t> ack_deadline_;
  std::optional<uint64_t> rnr_until_;
  uint32_t rnr_psn_ = 0;
  bool failed_ = false;
  bool asked_again_ = false;  // an implicit NAK rewound; no progress since
  uint64_t retransmits_ = 0;
  std::vector<Completion> completions_;
};

}  // namespace lq::transport
