// SPDX-License-Identifier: Apache-2.0
// What conformance cases share: waiting for the link and for flits at the
// DUT's port, reading the flit log, and describing flits as evidence.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <systemc>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/port_tap.h"

namespace lq::conformance {

// Training at LTSSM_TIME_SCALE 1e-4 (kLtssmTimeScale) takes a few
// microseconds.
inline const sc_core::sc_time kLinkUpWithin(40, sc_core::SC_US);

inline std::string Str(uint64_t value) { return std::to_string(value); }

// The DUT's STATUS.LTSSM.
regs::lc::Ltssm DutLtssm(CaseContext& context);
// A register's value at reset, from the generated register table.
uint32_t ResetValue(std::string_view register_name);

// Waits (polling STATUS every 100 ns) until the DUT reports LINK_UP;
// records a failure if it has not by `within` from now.
bool WaitLinkUp(CaseContext& context, const sc_core::sc_time& within);

// Waits for link-up, then until each end has received every slot the
// bench's traffic sends it; false (and a failure) if the link never came
// up. A link that never delivers runs into the case's time limit.
bool AwaitTraffic(CaseContext& context);

// Writes CTRL as it is at reset, with the bits of `set` set and those of
// `clear` cleared (a pulse field in `set` acts once); whether it was taken.
bool WriteCtrl(RegisterMaster& csr, uint32_t set, uint32_t clear = 0);
// Writes CREDIT_INIT of every VC: what the controller advertises at its
// next training (DLL-5.2, DLL-8.7).
void WriteCreditInit(RegisterMaster& csr, uint32_t credits);

// Waits until the DUT has sent `count` new PAYLOAD flits.
void WaitForNewPayloads(const PortTap& tap, size_t count);

// The 24 ms timeout of Polling.Active and Recovery.RcvrLock at the bench's
// LTSSM_TIME_SCALE (dll.md §9).
inline const sc_core::sc_time kRcvrLockTimeout(24e-3 * kLtssmTimeScale,
                                               sc_core::SC_SEC);

// Polls the DUT's LINK_DOWNS every `poll` until it counts one or `within`
// has passed since `since`; returns how long after `since` that was.
// (`since` is a copy: sc_time_stamp() refers to the kernel's clock.)
sc_core::sc_time WaitForLinkDown(RegisterMaster& csr, sc_core::sc_time since,
                                 const sc_core::sc_time& within,
                                 const sc_core::sc_time& poll);

// Waits until simulated time `at`, if it is still ahead.
void WaitUntil(const sc_core::sc_time& at);

// Waits until the log holds a flit in `direction`, recorded at or after
// index `from`, for which `match` holds; returns its index, or nothing if
// none has by simulated time `until`.
std::optional<size_t> WaitForFlit(
    CaseContext& context, FlitDirection direction, size_t from,
    const std::function<bool(const PortFlit&)>& match,
    const sc_core::sc_time& until);

// "PAYLOAD vc 1 seq 17 ACK 16 credit vc 2 = 40 at 23.456 us".
std::string Describe(const PortFlit& flit);
// "4e a5 81": bytes in hex.
std::string HexBytes(ByteView bytes);

// Records a failure unless `endpoint` received exactly `slots`, each once,
// in order and intact; `who` names it in the evidence ("the partner").
bool ExpectDeliveredOnce(CaseContext& context,
                         const testing::SlotEndpoint& endpoint, uint64_t slots,
                         const std::string& who,
                         std::initializer_list<const char*> clauses = {});

// The DUT's new PAYLOAD flits (first transmissions) in the log, in order:
// a PAYLOAD flit whose number is after every earlier one's.
std::vector<size_t> NewPayloadsFromDut(const PortTap& tap);

// Indices of the log in order of time (ties in recorded order): the log
// itself is in recorded order, and a DUT that runs ahead of the kernel
// records its flits early.
std::vector<size_t> ByTime(const PortTap& tap);

// Edits for the stimulus many cases share, applied to flits on their way
// to the DUT while `active()` (if given) is true: no replay command (the
// DUT's flits are never acknowledged), and every credit count 0 (no credit
// ever comes back).
PortTap::Edit StripReplayCommands(const PortTap& tap,
                                  std::function<bool()> active = {});
PortTap::Edit ZeroCreditCounts(const PortTap& tap);

// Flit time of the bench's link at its widest width.
sc_core::sc_time FlitTime(const ConformanceBench& bench);

}  // namespace lq::conformance
