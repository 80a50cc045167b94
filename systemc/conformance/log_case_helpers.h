// SPDX-License-Identifier: Apache-2.0
// Steps the logical-layer conformance cases share: accesses issued on a
// requester while the case goes on, LOG messages read off the wire, and the
// reference card's firmware answering the faults it owns.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/logical/log_message.h"
#include "models/logical/page_table.h"
#include "models/roce/opcode.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/trn_case_helpers.h"
#include "systemc/logical/requester.h"

namespace lq::conformance {

// The bench's two cards and its page size, as the cases name them.
inline constexpr uint16_t kDut = LogicalBench::kDutNode;
inline constexpr uint16_t kPeer = LogicalBench::kPeerNode;
inline constexpr uint64_t kPage = LogicalBench::kPageBytes;
// How long a case waits for what the DUT must send or complete at once.
inline const sc_core::sc_time kWithin(5, sc_core::SC_US);

inline uint64_t DirectGa(uint16_t node, uint64_t offset) {
  return LogicalBench::DirectGa(node, offset);
}
inline uint64_t PagedGa(uint16_t owner, uint64_t page, uint64_t within = 0) {
  return LogicalBench::PagedGa(owner, page, within);
}

// An atomic of `size` bytes (LOG-3.3): `op` with `operand`, and `compare`
// for a CAS.
logical::AtomicRequest Atomic(logical::AtomicOp op, unsigned size,
                              uint64_t operand, uint64_t compare = 0);

// A logical case named `name` (with the clause it checks) that runs `body`
// and fails if it has not returned by `limit` (simulated time).
ConformanceCase LogicalCase(const char* name,
                            std::function<void(LogicalCaseContext&)> body,
                            sc_core::sc_time limit = ConformanceCase{}.limit);

// An access running in a thread of its own: `done` once it completed.
struct Issued {
  bool done = false;
  logical::testing::Answer answer;
  sc_core::sc_time completed;
  sc_core::sc_event done_event;
};
// Starts `access` (a call on a requester) now and returns at once.
std::shared_ptr<Issued> Issue(std::function<logical::testing::Answer()> access);
// Waits until `issued` is done or `within` has passed; returns whether it
// is done.
bool AwaitDone(Issued& issued, const sc_core::sc_time& within);

// The LOG message a frame carries: the payload of a SEND ONLY, parsed
// (LOG-6.10); nothing for another frame or a payload that does not parse.
std::optional<logical::LogMessage> LogMessageOf(const PortFrame& frame);
// Whether `frame` is a SEND ONLY whose payload's first byte (TYPE) is
// `type`: a LOG message of that type, well formed or not.
bool CarriesLogMessage(const PortFrame& frame, logical::LogMessageType type);
// Such a frame from the DUT.
FramePredicate LogSendFromDut(logical::LogMessageType type);
// A request going `direction` other than a SEND: an RDMA operation.
FramePredicate Rdma(FrameDirection direction);
inline FramePredicate RdmaFromDut() { return Rdma(FrameDirection::kFromDut); }

// The reference card's firmware, the owner of node 1's pages: waits until
// its unit's fault queue holds a record (or `within` has passed) and pops
// it.
std::optional<logical::FaultRecord> AwaitFaultAtPeer(
    LogicalCaseContext& context, const sc_core::sc_time& within);
// Answers `record` from the reference card: `status` with `pte` (MAP,
// ALLOCATED, MIGRATED) or `reason` (REJECT).
void AnswerFromPeer(
    LogicalCaseContext& context, const logical::FaultRecord& record,
    logical::FaultStatus status, uint64_t pte,
    logical::RejectReason reason = logical::RejectReason::kNone);
// LOG-3.7: the RDMA virtual address of home offset 0.
inline constexpr uint64_t kDirectVaBase = uint64_t{1} << 40;

// An RDMA operation the DUT should send: a READ or WRITE of `length` bytes
// or an atomic with its operands, at home offset `offset`.
struct ExpectedRdma {
  roce::Opcode opcode = roce::Opcode::kReadRequest;
  uint64_t offset = 0;
  uint32_t length = 0;
  uint64_t compare = 0;
  uint64_t swap_add = 0;
};
// Expects the RDMA operations the DUT sent (or, going kToDut, was sent)
// from record index `from` on to be `expected`, in order, each under
// `rkey`; `what` names the accesses in the evidence.
void ExpectRdma(LogicalCaseContext& context, size_t from,
                const std::vector<ExpectedRdma>& expected, uint32_t rkey,
                const std::string& what,
                std::initializer_list<const char*> clauses,
                FrameDirection direction = FrameDirection::kFromDut);

// `length` bytes of a pattern that starts at `seed`.
Bytes Pattern(size_t length, uint8_t seed);
// The little-endian 64-bit word at `offset` of `memory`.
uint64_t WordAt(const logical::CardMemory& memory, uint64_t offset);
void SetWord(logical::CardMemory& memory, uint64_t offset, uint64_t value);

// A valid PTE of frame `frame` of `home` that grants loads, stores and
// atomics.
uint64_t GrantingPte(uint16_t home, uint32_t frame);

// Writes the 64-bit `value` to the LO/HI register pair at `lo`.
void WriteWide(RegisterMaster& csr, uint32_t lo, uint64_t value);

// The DUT's firmware answers the head of its fault queue through FR_* and
// FR_SEND (LOG-6.4): `status` for fault `fault_id` of `requester` on the
// page at `page_ga`, with `pte`; then pops the record.
void AnswerFromDutFirmware(RegisterMaster& csr, uint16_t requester,
                           uint16_t fault_id, logical::FaultStatus status,
                           uint64_t page_ga, uint64_t pte);

std::string Hex(uint64_t value);

}  // namespace lq::conformance
