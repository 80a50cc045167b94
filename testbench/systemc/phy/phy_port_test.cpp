// SystemC test of PhyPort: two ports and a cable between stub controllers.
// Checks that flits marked idle fill cross a noisy wire untouched (PHY-5.8)
// while ordinary flits on the same wire take the BER's errors (PHY-5.1).
#include "systemc/phy/phy_port.h"

#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "models/flit/flit_codec.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// Stands in for a link controller: sends what the test asks, keeps what
// arrives.
class StubController : public sc_core::sc_module, private phy::PhyRxIf {
 public:
  phy::PhyInitiatorSocket phy;
  std::vector<phy::PhyRxFlit> received;

  explicit StubController(sc_core::sc_module_name name)
      : sc_module(name), phy("phy") {
    phy.in(*static_cast<phy::PhyRxIf*>(this));
  }

 private:
  void Receive(phy::PhyRxFlit flit, const sc_time&) override {
    received.push_back(std::move(flit));
  }
  void UpdateLanes(phy::LaneStatus, const sc_time&) override {}
};

TEST(PhyPort, PHY_5_8_IdleFillCrossesANoisyWireUntouched) {
  constexpr int kFlits = 500;
  phy::PhyPortConfig config;
  config.profile = phy::FindLinkProfile("pcie6").value();
  config.errors.ber = 1e-3;  // About two errors per flit.
  phy::PhyPort near("near", config), far("far", config);
  StubController sender("sender"), receiver("receiver");
  Connect(sender.phy, near.link);
  Connect(receiver.phy, far.link);
  Connect(near.cable, far.cable);

  const Bytes content(flit::ContentBytes(config.profile), 0x3C);
  uint64_t bit_errors_during_fill = 0;
  ScThread run("run", [&] {
    for (int i = 0; i < 2 * kFlits; ++i) {
      phy::PhyTxFlit flit;
      flit.content = content;
      flit.width = 16;
      flit.idle_fill = i < kFlits;
      sc_core::wait(
          sender.phy.out->Transmit(std::move(flit), sc_core::SC_ZERO_TIME));
      if (i == kFlits - 1) {
        bit_errors_during_fill = near.stats().bit_errors;
      }
    }
    sc_core::wait(100, SC_NS);
  });
  sc_core::sc_start();

  ASSERT_EQ(receiver.received.size(), 2u * kFlits);
  int touched_fill = 0, touched_ordinary = 0;
  for (int i = 0; i < 2 * kFlits; ++i) {
    const phy::PhyRxFlit& flit = receiver.received[i];
    const bool touched =
        flit.bad || flit.fec_corrected || flit.content != content;
    (i < kFlits ? touched_fill : touched_ordinary) += touched ? 1 : 0;
  }
  EXPECT_EQ(bit_errors_during_fill, 0u) << "no error process runs over fill";
  EXPECT_EQ(touched_fill, 0) << "idle fill arrives as sent";
  EXPECT_GT(touched_ordinary, kFlits / 2)
      << "the same wire hits ordinary flits (PHY-5.1)";
}

}  // namespace
}  // namespace lq::testing
