// SPDX-License-Identifier: Apache-2.0
// Tests of LcRtlModel, the plain C++ face of the Verilated link controller:
// its register pins, its PHY transmit pins and reset, without SystemC.
#include "systemc/link/lc_rtl_model.h"

#include <gtest/gtest.h>

#include "generated/cpp/lc_regs.h"
#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/phy/link_profile.h"

namespace lq::link {
namespace {

namespace regs = lq::regs::lc;

// One register access on the model's bus pins, as the wrapper makes it.
LcOutputs Access(LcRtlModel& model, bool write, uint32_t address,
                 uint32_t data = 0) {
  LcInputs in;
  in.reg_req = true;
  in.reg_we = write;
  in.reg_addr = address;
  in.reg_wdata = data;
  LcOutputs out;
  model.Cycle(in, out);
  return out;
}

TEST(LcRtlModel, DLL_8_1_RegistersAnswerOnTheBusPins) {
  LcRtlModel model;
  const LcOutputs id = Access(model, false, regs::kIdOffset);
  EXPECT_FALSE(id.reg_error);
  EXPECT_EQ(regs::kIdMagic.Read(id.reg_rdata), regs::kIdMagic.reset)
      << "ID must read the map's magic: the model is the link controller";
  const uint32_t enable = regs::kIrqEnableLinkUp.Mask();
  EXPECT_FALSE(Access(model, true, regs::kIrqEnableOffset, enable).reg_error);
  EXPECT_EQ(Access(model, false, regs::kIrqEnableOffset).reg_rdata, enable)
      << "a written RW register reads back";
  EXPECT_TRUE(Access(model, false, regs::kBlockSize - 4).reg_error)
      << "an address no register holds is a bus error";
  EXPECT_EQ(model.cycles(), 4u) << "each call is one clock cycle";
}

TEST(LcRtlModel, PeekAnswersBetweenEdgesAndChangesNothing) {
  LcRtlModel model;
  const uint32_t enable = regs::kIrqEnableLinkUp.Mask();
  Access(model, true, regs::kIrqEnableOffset, enable);
  const uint64_t cycles = model.cycles();
  const auto read = model.PeekRegister(false, regs::kIrqEnableOffset, 0);
  ASSERT_TRUE(read.has_value()) << "lqemu's RTL evaluates between edges";
  EXPECT_FALSE(read->error);
  EXPECT_EQ(read->rdata, enable);
  const auto write = model.PeekRegister(true, regs::kIrqEnableOffset, 0);
  ASSERT_TRUE(write.has_value());
  EXPECT_FALSE(write->error) << "IRQ_ENABLE takes writes";
  EXPECT_TRUE(model.PeekRegister(true, regs::kIdOffset, 0)->error)
      << "ID is read-only";
  EXPECT_TRUE(model.PeekRegister(false, regs::kBlockSize - 4, 0)->error);
  EXPECT_EQ(model.cycles(), cycles) << "a peek is no clock cycle";
  EXPECT_EQ(Access(model, false, regs::kIrqEnableOffset).reg_rdata, enable)
      << "the checked write was not made";
}

TEST(LcRtlModel, DLL_6_4_TrainsOnlyOnceAReceiverIsSeen) {
  // Out of reset with CTRL.ENABLE set the controller waits in Detect for a
  // receiver, then sends TRAINING flits, which the PHY sends on every lane.
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  LcRtlModel model;
  LcInputs in;
  in.phy_tx_ready = true;
  LcOutputs out;
  for (int cycle = 0; cycle < 5000; ++cycle) {
    model.Cycle(in, out);
    ASSERT_FALSE(out.phy_tx) << "flit sent with no receiver, cycle " << cycle;
  }
  in.phy_receivers = (1u << profile.max_lanes) - 1;
  bool sent = false;
  for (int cycle = 0; cycle < 20000 && !sent; ++cycle) {
    model.Cycle(in, out);
    sent = out.phy_tx;
  }
  ASSERT_TRUE(sent) << "no flit once every lane sees a receiver";
  ASSERT_EQ(out.phy_tx_flit.size(), kLcContentBytes);
  EXPECT_EQ(flit::PeekFlitType(out.phy_tx_flit[flit::DlpOffset(profile)]),
            flit::FlitType::kTraining);
  EXPECT_EQ(out.width, 0u) << "no width before the link is up";
}

}  // namespace
}  // namespace lq::link
