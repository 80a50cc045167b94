// Conformance cases of the data-link layer's link management
// (docs/spec/dll.md sections 6-8 and 11: training, link events and
// interrupts, registers, control messages), driven through the DUT's port,
// network side and registers with a reference controller as the partner.
#include <string>

#include "generated/cpp/lc_regs.h"
#include "models/common/hex.h"
#include "testbench/conformance/case_helpers.h"
#include "testbench/conformance/conformance_case.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::lc;
using flit::FlitType;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

ConformanceCase TrainsToL0AtFullWidth() {
  ConformanceCase c;
  c.name = "DLL_6_1_TrainsToL0AtFullWidth";
  c.body = [](CaseContext& context) {
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t status = context.bench.dut_csr().Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLtssm.Read(status) ==
                               static_cast<uint32_t>(regs::Ltssm::kL0),
                           "STATUS.LTSSM " +
                               Str(regs::kStatusLtssm.Read(status)) +
                               " with LINK_UP set, expected L0 (3)");
    const unsigned lanes = context.bench.profile().max_lanes;
    context.verdict.Expect(
        regs::kStatusWidth.Read(status) == lanes,
        "STATUS.WIDTH " + Str(regs::kStatusWidth.Read(status)) +
            " on a clean link, expected the profile's " + Str(lanes));
    context.verdict.Note("L0 at x" + Str(regs::kStatusWidth.Read(status)) +
                         " by " + Micros(sc_core::sc_time_stamp()));
  };
  return c;
}

ConformanceCase LinkUpRaisesInterrupt() {
  ConformanceCase c;
  c.name = "DLL_7_1_LinkUpRaisesInterrupt";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableLinkUp.Mask());
    const sc_time until = sc_core::sc_time_stamp() + kLinkUpWithin;
    sc_core::wait(kLinkUpWithin, context.bench.dut_irq().posedge_event());
    if (!context.verdict.Expect(
            sc_core::sc_time_stamp() < until,
            "no interrupt within " + Micros(kLinkUpWithin))) {
      return;
    }
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(
        regs::kIrqStatusLinkUp.Read(cause) != 0,
        "IRQ_STATUS " + Str(cause) + " does not name LINK_UP");
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLinkUp.Read(status) != 0,
                           "interrupt raised before STATUS.LINK_UP");
    csr.Write(regs::kIrqStatusOffset, cause);  // W1C (DLL-8.5).
    sc_core::wait(20, SC_NS);
    context.verdict.Expect(!context.bench.dut_irq().read(),
                           "the line stays high after IRQ_STATUS was cleared");
    context.verdict.Expect(
        regs::kIrqStatusLinkUp.Read(csr.Read(regs::kIrqStatusOffset)) == 0,
        "writing 1 did not clear IRQ_STATUS.LINK_UP");
  };
  return c;
}

ConformanceCase UnmappedOffsetIsBusError() {
  ConformanceCase c;
  c.name = "DLL_8_1_UnmappedOrMisalignedAccessIsBusError";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    for (uint32_t offset : {0x0FCu, 0x034u, 0x200u, 0x006u}) {
      uint32_t value = 0;
      const tlm::tlm_response_status read =
          csr.Access(tlm::TLM_READ_COMMAND, offset, value);
      context.verdict.Expect(read != tlm::TLM_OK_RESPONSE,
                             "read of 0x" + HexText(offset) + " answered OK");
    }
    uint32_t ctrl_before = csr.Read(regs::kCtrlOffset);
    uint32_t value = 0;
    context.verdict.Expect(csr.Access(tlm::TLM_WRITE_COMMAND, 0x006, value) !=
                               tlm::TLM_OK_RESPONSE,
                           "misaligned write into CTRL answered OK");
    context.verdict.Expect(csr.Read(regs::kCtrlOffset) == ctrl_before,
                           "a refused write changed CTRL");
  };
  return c;
}

ConformanceCase BadWriteChangesNothing() {
  ConformanceCase c;
  c.name = "DLL_8_3_RefusedWriteChangesNothing";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    const uint32_t ctrl = csr.Read(regs::kCtrlOffset);
    uint32_t value = (ctrl & ~regs::kCtrlSelNakEn.Mask()) | 0x80000000u;
    context.verdict.Expect(csr.Access(tlm::TLM_WRITE_COMMAND, regs::kCtrlOffset,
                                      value) != tlm::TLM_OK_RESPONSE,
                           "CTRL write with reserved bit 31 answered OK");
    context.verdict.Expect(csr.Read(regs::kCtrlOffset) == ctrl,
                           "the refused CTRL write changed SEL_NAK_EN");
    const uint32_t timeout = csr.Read(regs::kReplayTimeoutOffset);
    value = 374;
    context.verdict.Expect(
        csr.Access(tlm::TLM_WRITE_COMMAND, regs::kReplayTimeoutOffset, value) !=
            tlm::TLM_OK_RESPONSE,
        "REPLAY_TIMEOUT 374 (< 375) answered OK");
    context.verdict.Expect(csr.Read(regs::kReplayTimeoutOffset) == timeout,
                           "the refused write changed REPLAY_TIMEOUT");
    value = 1;
    context.verdict.Expect(
        csr.Access(tlm::TLM_WRITE_COMMAND, regs::kStatusOffset, value) !=
            tlm::TLM_OK_RESPONSE,
        "write to read-only STATUS answered OK");
  };
  return c;
}

ConformanceCase DisableTakesLinkDown() {
  ConformanceCase c;
  c.name = "DLL_6_10_DisableSilencesAndEnableRetrains";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    csr.Write(regs::kCtrlOffset,
              ResetValue("CTRL") & ~regs::kCtrlEnable.Mask());
    const sc_time disabled_at = sc_core::sc_time_stamp();
    sc_core::wait(1, SC_US);
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(
        regs::kStatusLtssm.Read(status) ==
                static_cast<uint32_t>(regs::Ltssm::kDisabled) &&
            regs::kStatusLinkUp.Read(status) == 0,
        "STATUS " + HexText(status, 8) +
            " 1 us after ENABLE = 0, expected DISABLED");
    sc_core::wait(2, SC_US);
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction == FlitDirection::kFromDut &&
          flit.at > disabled_at + sc_time(200, SC_NS) &&
          !context.verdict.Expect(false,
                                  "sent while disabled: " + Describe(flit))) {
        break;
      }
    }
    csr.Write(regs::kCtrlOffset, ResetValue("CTRL"));
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t downs = csr.Read(regs::kLinkDownsOffset);
    context.verdict.Expect(downs == 1,
                           "LINK_DOWNS " + Str(downs) + " after one disable");
    context.verdict.Note("back in L0 at " + Micros(sc_core::sc_time_stamp()));
  };
  return c;
}

}  // namespace

std::vector<ConformanceCase> DllLinkCases() {
  return {TrainsToL0AtFullWidth(), LinkUpRaisesInterrupt(),
          UnmappedOffsetIsBusError(), BadWriteChangesNothing(),
          DisableTakesLinkDown()};
}

}  // namespace lq::conformance
