// SPDX-License-Identifier: Apache-2.0
// Steps the router conformance cases share (decision 0023): building the
// packets neighbours send, sending them, holding and draining outputs,
// waiting for arrivals and reading what the peers recorded.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "models/network/route_header.h"
#include "models/roce/encap.h"
#include "systemc/conformance/conformance_case.h"

namespace lq::conformance {

// Offset of the IPv4 TTL in a frame (TRN-1.1's layout).
inline constexpr size_t kIpTtl = 14 + 8;

// A router case named `name` (with the clause it checks) that runs `body`
// in a bench built with `options`, and fails if it has not returned by
// `limit` (simulated time).
ConformanceCase RouterCase(const char* name,
                           std::function<void(RouterCaseContext&)> body,
                           RouterBenchOptions options = {},
                           sc_core::sc_time limit = ConformanceCase{}.limit);

std::string Ns(const sc_core::sc_time& t);

// A WRITE ONLY frame of `payload` bytes numbered `psn`, with `ecn`, of
// traffic class `tc` (its DSCP's priority, TRN-1.5).
Bytes WriteFrame(uint32_t psn, size_t payload, roce::Ecn ecn, uint8_t tc);

// `count` packets of class `tc` from `from` to `to`, PSNs from `first_psn`,
// on the VC of `vc_class` in class `tc`'s set.
std::vector<Bytes> Packets(const RouterBench& bench, unsigned from, unsigned to,
                           uint8_t tc, size_t count, size_t payload,
                           uint32_t first_psn = 0,
                           roce::Ecn ecn = roce::Ecn::kNotEct,
                           unsigned vc_class = 0);

// Has the neighbour on `from` send `packets` on class `tc`'s VC of
// `vc_class`.
void SendPackets(RouterBench& bench, unsigned from,
                 const std::vector<Bytes>& packets, uint8_t tc,
                 unsigned vc_class = 0);

// The frame inside a packet a peer received (after the routing header).
Bytes FrameOf(const RouterPeer::Packet& packet);

// Bytes of packets `records` carried up to and including time `t`.
uint64_t BytesBy(const std::vector<RouterPeer::SlotRecord>& records,
                 const sc_core::sc_time& t);

// When the bytes `records` carried first rose above `bytes`.
std::optional<sc_core::sc_time> WhenAbove(
    const std::vector<RouterPeer::SlotRecord>& records, uint64_t bytes);

// Waits until `done()` (checked whenever something reaches `peer`) or
// until `within` has passed; returns done().
bool AwaitCondition(RouterPeer& peer, const std::function<bool()>& done,
                    const sc_core::sc_time& within);
bool AwaitPackets(RouterPeer& peer, size_t count,
                  const sc_core::sc_time& within);

// Lets the output at `port` drain: room on every VC, returned as slots
// arrive, one slot per `interval` (zero: at once).
void OpenOutput(RouterBench& bench, unsigned port,
                const sc_core::sc_time& interval);

// Every packet of `sent` arrived at `peer`, in order, each frame as sent
// but for what a forwarding router changes (TRN-1.7, NET-2.4): its IPv4
// TTL one less, its ECN bits, and its IPv4 checksum, which must be right.
void ExpectForwarded(Verdict& verdict, const RouterPeer& peer,
                     const std::vector<Bytes>& sent,
                     std::initializer_list<const char*> clauses);

// Firmware's accesses to the DUT's router registers; a bus error is
// evidence against NET-5.6.
uint32_t ReadRegister(RouterCaseContext& context, uint32_t offset);
void WriteRegister(RouterCaseContext& context, uint32_t offset, uint32_t value);

// What a received header says, field by field, for a verdict's evidence.
std::string DescribeHeader(const net::RouteHeader& h);

}  // namespace lq::conformance
