// SPDX-License-Identifier: Apache-2.0
// Steps the transport conformance cases share: posting work requests,
// waiting for completions and for frames at the DUT's port, and reading
// the port's record.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/roce/packet.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/frame_wire.h"
#include "systemc/transport/transport_engine.h"

namespace lq::conformance {

using FramePredicate = std::function<bool(const PortFrame&)>;

// A transport case named `name` (with the clause it checks) that runs
// `body` and fails if it has not returned by `limit` (simulated time).
ConformanceCase TransportCase(const char* name,
                              std::function<void(TransportCaseContext&)> body,
                              sc_core::sc_time limit = ConformanceCase{}.limit);

// The default connection, with congestion control `name` (TRN-5.8).
ConnectionOptions Controlled(const std::string& name);

// Connects a QP pair with `options`; fails the case's precondition (every
// point) if a modify is refused.
std::optional<Connection> ConnectOrFail(TransportCaseContext& context,
                                        const ConnectionOptions& options = {});

// A WRITE of `length` bytes to `remote_address` under `rkey`.
transport::SendWr WriteWr(uint64_t wr_id, uint32_t length,
                          uint64_t remote_address, uint32_t rkey);

// A READ of `length` bytes from `remote_address` under `rkey`.
transport::SendWr ReadWr(uint64_t wr_id, uint32_t length,
                         uint64_t remote_address, uint32_t rkey);
// A FETCH_ADD or COMPARE_SWAP (`kind`) on the 8 bytes at `remote_address`.
transport::SendWr AtomicWr(uint64_t wr_id, transport::SendKind kind,
                           uint64_t remote_address, uint32_t rkey,
                           uint64_t swap_add, uint64_t compare = 0);

// Fills `length` bytes of `memory` at `address` with a pattern and returns
// them.
Bytes FillPattern(transport::TestMemory& memory, uint64_t address,
                  size_t length, uint8_t seed);
// `length` bytes of `memory` at `address`.
Bytes ReadMemory(const transport::TestMemory& memory, uint64_t address,
                 size_t length);

// Posts `wr` on `engine`; fails the case's precondition if refused.
bool PostOrFail(TransportCaseContext& context,
                transport::TransportEngine& engine, uint32_t qpn,
                const transport::SendWr& wr, uint64_t local_address);

// Posts a receive WR of `length` bytes at `local_address` on `engine`;
// fails the case's precondition if refused.
bool PostReceiveOrFail(TransportCaseContext& context,
                       transport::TransportEngine& engine, uint32_t qpn,
                       uint64_t wr_id, uint32_t length, uint64_t local_address);

// Waits until `engine` has given `count` completions in all, or `within`
// has passed; returns what it gave.
std::vector<transport::EngineCompletion> AwaitCompletions(
    transport::TransportEngine& engine, size_t count,
    const sc_core::sc_time& within);

// Expects exactly one completion, successful, with `wr_id` (clauses as
// Verdict::Expect).
void ExpectSuccess(TransportCaseContext& context,
                   const std::vector<transport::EngineCompletion>& completions,
                   uint64_t wr_id,
                   std::initializer_list<const char*> clauses = {});

// The record's frames that `which` picks, from index `from` on.
std::vector<const PortFrame*> FramesWhere(const FrameWire& wire,
                                          const FramePredicate& which,
                                          size_t from = 0);
// Waits until the record holds a frame that `which` picks at index `from`
// or later, or `within` has passed; returns its index.
std::optional<size_t> AwaitFrame(FrameWire& wire, const FramePredicate& which,
                                 const sc_core::sc_time& within,
                                 size_t from = 0);

// An edit that drops the first frame `which` picks and passes the rest.
FrameWire::Edit DropFirst(FramePredicate which);
// An edit that marks CE (TRN-9.2, as a router would) on the ECN-capable
// frames `which` picks and passes every frame.
FrameWire::Edit MarkCe(FramePredicate which);

// The engine's statistic `name` (TransportEngine::Stats(), without the
// module's prefix); throws std::logic_error for one it does not have.
uint64_t EngineStat(const transport::TransportEngine& engine,
                    const std::string& name);

// Predicates.
FramePredicate RequestFromDut();
FramePredicate RequestToDut();
FramePredicate AckFromDut();
FramePredicate NakFromDut();

// "at 12.345 us: WRITE ONLY qp 0x2 psn 0x000000 AckReq 64 B".
std::string Evidence(const PortFrame& frame);

}  // namespace lq::conformance
