// SPDX-License-Identifier: Apache-2.0
// The responder side of an RC queue pair (docs/spec/trn.md sections 6 and
// 7): the expected PSN, in-sequence execution of SEND, WRITE, READ and
// atomics with TRN-6.13's validation, duplicates (READs answered again,
// atomics replayed from saved results), one NAK per sequence error, RNR
// NAKs when no receive WR is posted, ACK coalescing and the MSN. It
// decides; the caller moves the bytes and sends the replies.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "models/roce/ib_headers.h"
#include "models/roce/opcode.h"
#include "models/transport/qp_state.h"
#include "models/transport/work_request.h"

namespace lq::transport {

struct ResponderConfig {
  uint32_t ack_coalesce = 16;  // transport.ack_coalesce (TRN-6.9)
};

// What the responder needs of an arriving request packet.
struct RequestHeader {
  roce::Opcode opcode = roce::Opcode::kSendOnly;
  uint32_t psn = 0;
  bool ack_req = false;
  uint32_t length = 0;  // payload bytes
  std::optional<roce::Reth> reth;
  std::optional<uint32_t> immediate;
  std::optional<roce::AtomicEth> atomic;
};

// Where an executed request's payload goes: at `offset` into receive WR
// `wr_id` (SEND), or at `address` under `rkey` (WRITE).
struct Placement {
  bool to_receive_wr = true;
  uint64_t wr_id = 0;
  uint32_t offset = 0;
  uint64_t address = 0;
  uint32_t rkey = 0;
  uint32_t length = 0;
};

// An ACKNOWLEDGE to send back: BTH PSN and AETH.
struct Reply {
  uint32_t psn = 0;
  roce::Aeth aeth;
};

// A READ to answer: `length` bytes from `address`, as response packets
// with PSNs from `first_psn` (TRN-6.2, TRN-6.4), each AETH with `msn`.
struct ReadAnswer {
  uint64_t address = 0;
  uint32_t rkey = 0;
  uint32_t length = 0;
  uint32_t first_psn = 0;
  uint32_t msn = 0;
};

// An atomic to perform on the 8 bytes at `address` and answer with an
// ATOMIC ACKNOWLEDGE of `psn` carrying the original value; the caller
// then reports that value with SaveAtomic(). A replay carries the saved
// value and must not be performed again.
struct AtomicAnswer {
  uint64_t address = 0;
  uint32_t rkey = 0;
  bool compare_swap = true;
  uint64_t compare = 0;
  uint64_t swap_add = 0;
  uint32_t psn = 0;
  uint32_t msn = 0;
  std::optional<uint64_t> replay;  // TRN-6.11: the saved original value
};

struct ResponderStep {
  std::optional<Placement> place;        // executed: put the payload here
  std::optional<Reply> reply;            // send this
  std::optional<Completion> completion;  // a receive WR is done
  std::optional<ReadAnswer> read;        // answer a READ
  std::optional<AtomicAnswer> atomic;    // perform or replay an atomic
  bool fatal = false;                    // TRN-6.13: the QP goes to ERROR
};

class Responder {
 public:
  Responder(const QpAttributes& attributes, const ResponderConfig& config);

  void PostReceive(const RecvWr& wr) { receive_.push_back(wr); }
  // TRN-5.2: the QP went to ERROR; every posted receive WR completes with
  // FLUSH_ERR, in order.
  std::vector<Completion> FlushReceives();
  // The caller ends receive WR `wr_id` itself (TRN-6.13: memory refused
  // its buffer); it is no longer posted, so no flush completes it again.
  void DropReceive(uint64_t wr_id);
  ResponderStep OnRequest(const RequestHeader& request);

  // The original value an executed atomic of `psn` returned, kept for
  // duplicates: the last max_dest_rd_atomic of them (TRN-6.11).
  void SaveAtomic(uint32_t psn, uint64_t original);

  uint32_t expected_psn() const { return epsn_; }
  uint32_t msn() const { return msn_; }
  uint64_t duplicates() const { return duplicates_; }
  uint64_t out_of_sequence() const { return out_of_sequence_; }

 private:
  ResponderStep Execute(const RequestHeader& request);
  ResponderStep ExecuteReadOrAtomic(const RequestHeader& request);
  ResponderStep Duplicate(const RequestHeader& request);
  ResponderStep Refuse(roce::NakCode code);
  Reply Ack() const;

  QpAttributes attributes_;
  ResponderConfig config_;
  uint32_t epsn_;
  uint32_t msn_ = 0;
  bool nak_sent_ = false;  // TRN-7.2: drop until ePSN arrives
  uint32_t since_reply_ = 0;
  // The message in progress: its kind and where its next byte goes.
  std::optional<roce::Opcode> message_;  // its FIRST opcode
  uint32_t message_offset_ = 0;
  roce::Reth write_;  // a WRITE's RETH
  std::deque<RecvWr> receive_;
  std::deque<std::pair<uint32_t, uint64_t>> atomics_;  // psn, original
  uint64_t duplicates_ = 0;
  uint64_t out_of_sequence_ = 0;
};

}  // namespace lq::transport
