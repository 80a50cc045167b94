// What conformance cases share: waiting for the link and for flits at the
// DUT's port, reading the flit log, and describing flits as evidence.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>

#include "testbench/conformance/conformance_case.h"
#include "testbench/conformance/port_tap.h"

namespace lq::conformance {

// Waits (polling STATUS every 100 ns) until the DUT reports LINK_UP;
// records a failure if it has not by `within` from now.
bool WaitLinkUp(CaseContext& context, const sc_core::sc_time& within);

// Waits until the log holds a flit in `direction`, recorded at or after
// index `from`, for which `match` holds; returns its index, or nothing if
// none has by simulated time `until`.
std::optional<size_t> WaitForFlit(
    CaseContext& context, FlitDirection direction, size_t from,
    const std::function<bool(const PortFlit&)>& match,
    const sc_core::sc_time& until);

// "PAYLOAD vc 1 seq 17 ACK 16 credit vc 2 = 40 at 23.456 us".
std::string Describe(const PortFlit& flit);
std::string Micros(const sc_core::sc_time& time);
// "4e a5 81": bytes in hex.
std::string HexBytes(ByteView bytes);

// The DUT's new PAYLOAD flits (first transmissions) in the log, in order:
// a PAYLOAD flit whose number is after every earlier one's.
std::vector<size_t> NewPayloadsFromDut(const PortTap& tap);

// Flit time of the bench's link at its widest width.
sc_core::sc_time FlitTime(const ConformanceBench& bench);

}  // namespace lq::conformance
