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
#include "testbench/conformance/conformance_case.h"
#include "testbench/conformance/trn_case_helpers.h"
#include "testbench/systemc/logical/requester.h"

namespace lq::conformance {

using logical::testing::Answer;

// The bench's two nodes and its page size, as the cases name them.
inline constexpr uint16_t kDut = LogicalBench::kDutNode;
inline constexpr uint16_t kPeer = LogicalBench::kPeerNode;
inline constexpr uint64_t kPage = LogicalBench::kPageBytes;

// A logical case named `name` (with the clause it checks) that runs `body`
// and fails if it has not returned by `limit` (simulated time).
ConformanceCase LogicalCase(const char* name,
                            std::function<void(LogicalCaseContext&)> body,
                            sc_core::sc_time limit = ConformanceCase{}.limit);

// An access running in a thread of its own: `done` once it completed.
struct Issued {
  bool done = false;
  Answer answer;
  sc_core::sc_time completed;
  sc_core::sc_event done_event;
};
// Starts `access` (a call on a requester) now and returns at once.
std::shared_ptr<Issued> Issue(std::function<Answer()> access);
// Waits until `issued` is done or `within` has passed; returns whether it
// is done.
bool AwaitDone(Issued& issued, const sc_core::sc_time& within);

// The LOG message a frame carries: the payload of a SEND ONLY, parsed
// (LOG-6.10); nothing for another frame or a payload that does not parse.
std::optional<logical::LogMessage> LogMessageOf(const PortFrame& frame);
// A SEND ONLY from the DUT whose payload's first byte (TYPE) is `type`.
FramePredicate LogSendFromDut(logical::LogMessageType type);
// A request from the DUT other than a SEND: an RDMA operation.
FramePredicate RdmaFromDut();

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
// Expects the RDMA operations the DUT sent from record index `from` on to
// be `expected`, in order, each under `rkey`; `what` names the access in
// the evidence.
void ExpectRdma(LogicalCaseContext& context, size_t from,
                const std::vector<ExpectedRdma>& expected, uint32_t rkey,
                const std::string& what,
                std::initializer_list<const char*> clauses);

// `length` bytes of a pattern that starts at `seed`.
Bytes Pattern(size_t length, uint8_t seed);
// The little-endian 64-bit word at `offset` of `memory`.
uint64_t WordAt(const logical::CardMemory& memory, uint64_t offset);
void SetWord(logical::CardMemory& memory, uint64_t offset, uint64_t value);

// A valid PTE of frame `frame` of `home` that grants loads, stores and
// atomics.
uint64_t GrantingPte(uint16_t home, uint32_t frame);

// Writes the 64-bit `value` to the LO/HI register pair at `lo`.
void WriteWide(testing::RegisterMaster& csr, uint32_t lo, uint64_t value);

std::string Hex(uint64_t value);

}  // namespace lq::conformance
