// SPDX-License-Identifier: Apache-2.0
// Conformance cases of the physical layer's rules that a link controller
// keeps at its PHY port (docs/spec/phy.md sections 4 and 5): what it hands
// the PHY in L0, and how it meets a cut cable.
#include <string>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "systemc/common/time_text.h"
#include "systemc/conformance/case_helpers.h"
#include "systemc/conformance/conformance_case.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::lc;
using flit::FlitType;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

bool InL0(const PortFlit& flit) {
  return flit.Is(FlitType::kNop) || flit.Is(FlitType::kPayload);
}

ConformanceCase SendsBackToBackInL0() {
  ConformanceCase c;
  c.name = "PHY_4_3_SendsBackToBackInL0";
  // A slot each way every 2 us: between them the link falls idle, and a
  // DUT may stop sending once it has said so with idle fill (DLL-4.11).
  c.traffic.dut_slots = 20;
  c.traffic.peer_slots = 20;
  c.traffic.interval = sc_time(2, SC_US);
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    const PortTap& tap = context.bench.tap();
    const sc_time flit_time = FlitTime(context.bench);
    const unsigned width = context.bench.profile().max_lanes;
    const PortFlit* previous = nullptr;
    uint64_t checked = 0, fill = 0;
    for (const size_t i : ByTime(tap)) {
      const PortFlit& flit = tap.log()[i];
      if (flit.direction != FlitDirection::kFromDut ||
          (previous == nullptr && !InL0(flit))) {
        continue;
      }
      if (!context.verdict.Expect(flit.width == width,
                                  "a flit in L0 at width " + Str(flit.width) +
                                      " on a clean link, expected x" +
                                      Str(width) + ": " + Describe(flit))) {
        return;
      }
      // The wire is idle only after a flit that says so: the DUT's
      // implicit NOP stream (DLL-4.11, PHY-5.8).
      if (previous != nullptr &&
          !context.verdict.Expect(
              previous->idle_fill || flit.at - previous->at == flit_time,
              "a gap of " + Micros(flit.at - previous->at) +
                  " in L0, not one flit time (" + Micros(flit_time) +
                  "), after " + Describe(*previous) +
                  ", which is not idle fill")) {
        return;
      }
      fill += flit.idle_fill ? 1 : 0;
      previous = &flit;
      ++checked;
    }
    context.verdict.Expect(checked > 0, "no flit from the DUT in L0");
    context.verdict.Note(Str(checked) + " flits in L0, " + Str(fill) +
                         " of them idle fill");
  };
  return c;
}

ConformanceCase CutLinkGoesDown() {
  ConformanceCase c;
  c.name = "PHY_5_6_CutLinkGoesDown";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const sc_time cut_at = sc_core::sc_time_stamp();
    context.bench.CutCable(cut_at);
    const sc_time waited =
        WaitForLinkDown(csr, cut_at, sc_time(20, SC_US), sc_time(100, SC_NS));
    // Recovery.RcvrLock's timeout, entered at once when the lanes lose lock
    // (DLL-6.6, DLL-6.8); polled every 100 ns.
    const sc_time timeout = kRcvrLockTimeout;
    if (!context.verdict.Expect(
            csr.Read(regs::kLinkDownsOffset) == 1 && waited >= timeout &&
                waited <= timeout + sc_time(1, SC_US),
            "LINK_DOWNS " + Str(csr.Read(regs::kLinkDownsOffset)) + " " +
                Micros(waited) + " after the cut, expected 1 after " +
                "Recovery.RcvrLock's " + Micros(timeout))) {
      return;
    }
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLinkUp.Read(status) == 0,
                           "STATUS.LINK_UP still set after the link went down");
    // Nothing but noise reaches the DUT once the cut is on the wire.
    const sc_time settled = cut_at + sc_time(1, SC_US);
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction == FlitDirection::kToDut && flit.at >= settled &&
          !context.verdict.Expect(
              !flit.header.has_value(),
              "a good flit crossed the cut cable: " + Describe(flit))) {
        return;
      }
    }
    context.verdict.Note("link down " + Micros(waited) + " after the cut");
  };
  return c;
}

}  // namespace

std::vector<ConformanceCase> PhyPortCases() {
  return {SendsBackToBackInL0(), CutLinkGoesDown()};
}

}  // namespace lq::conformance
