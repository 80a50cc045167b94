// SPDX-License-Identifier: Apache-2.0
// SystemC tests of PhyPort: two ports and a cable between stub controllers.
// Flits marked idle fill cross a noisy wire untouched (PHY-5.8) while
// ordinary flits take the BER's errors (PHY-5.1); TRAINING flits go on
// every lane (PHY-4.7); flits before a width is known take the widest the
// working lanes allow (PHY-4.8); a cut cable carries only noise (PHY-5.6);
// and the ports count what they did (PHY-3.8, PHY-5.7).
#include "systemc/phy/phy_port.h"

#include <gtest/gtest.h>

#include <cmath>
#include <systemc>
#include <vector>

#include "models/flit/flit_codec.h"
#include "models/phy/bit_error_channel.h"
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
  void UpdateLanes(phy::LaneStatus status, const sc_time&) override {
    lanes.push_back(status);
  }

 public:
  std::vector<phy::LaneStatus> lanes;
};

// Two stub controllers on one cable of profile pcie6.
struct Wire {
  explicit Wire(const phy::PhyPortConfig& config)
      : near("near", config),
        far("far", config),
        sender("sender"),
        receiver("receiver") {
    Connect(sender.phy, near.link);
    Connect(receiver.phy, far.link);
    Connect(near.cable, far.cable);
  }
  phy::PhyPort near, far;
  StubController sender, receiver;
};

phy::PhyPortConfig Pcie6() {
  phy::PhyPortConfig config;
  config.profile = phy::FindLinkProfile("pcie6").value();
  return config;
}

// How long the cable of `config` takes (PHY-4.5).
sc_time CableDelay(const phy::PhyPortConfig& config) {
  return sc_time::from_value(phy::CableDelayPs(config.cable_metres));
}

// The content of a flit of `type` (IDLE or TRAINING: no payload).
Bytes ContentOf(const phy::LinkProfile& profile, flit::FlitType type) {
  flit::DlpHeader header;
  header.type = type;
  return flit::EncodeContent(profile, header, {}).value();
}

// Sends `flit` from the near controller and returns the flit time the PHY
// gives back.
sc_time Send(Wire& wire, phy::PhyTxFlit flit) {
  return wire.sender.phy.out->Transmit(std::move(flit), sc_core::SC_ZERO_TIME);
}

// From a thread: sends `flits` IDLE flits at x16 back to back, then lets
// the last one arrive.
void SendIdleFlits(Wire& wire, int flits) {
  phy::PhyTxFlit flit;
  flit.content = ContentOf(wire.near.config().profile, flit::FlitType::kIdle);
  flit.width = 16;
  for (int i = 0; i < flits; ++i) {
    sc_core::wait(Send(wire, flit));
  }
  sc_core::wait(1, sc_core::SC_US);
}

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

TEST(PhyPort, PHY_4_7_TrainingFlitGoesOnEveryLaneAtTheLaneRate) {
  const phy::PhyPortConfig config = Pcie6();
  Wire wire(config);
  sc_time busy;
  ScThread run("run", [&] {
    phy::PhyTxFlit flit;
    flit.content = ContentOf(config.profile, flit::FlitType::kTraining);
    busy = Send(wire, std::move(flit));
    sc_core::wait(1, sc_core::SC_US);
  });
  sc_core::sc_start();

  EXPECT_EQ(busy, sc_time(32, SC_NS)) << "one TRAINING flit per 32 ns a lane";
  ASSERT_EQ(wire.receiver.received.size(), config.profile.max_lanes);
  for (unsigned lane = 0; lane < config.profile.max_lanes; ++lane) {
    const phy::PhyRxFlit& copy = wire.receiver.received[lane];
    EXPECT_EQ(copy.lane, lane) << "each copy names the lane it came on";
    EXPECT_FALSE(copy.bad);
    EXPECT_EQ(copy.content,
              ContentOf(config.profile, flit::FlitType::kTraining));
  }
  EXPECT_EQ(wire.near.stats().tx_training_flits, 1u);
  EXPECT_EQ(wire.near.stats().tx_flits, 0u) << "a TRAINING flit is not striped";
  EXPECT_EQ(wire.far.stats().rx_flits, config.profile.max_lanes)
      << "every copy is received (PHY-3.8)";
}

TEST(PhyPort, PHY_4_8_FlitBeforeAWidthTakesTheWidestWorkingWidth) {
  const phy::PhyPortConfig config = Pcie6();
  Wire wire(config);
  std::vector<sc_time> busy;
  ScThread run("run", [&] {
    const Bytes idle = ContentOf(config.profile, flit::FlitType::kIdle);
    phy::PhyTxFlit flit;
    flit.content = idle;  // width 0: none reported yet
    busy.push_back(Send(wire, flit));
    sc_core::wait(busy.back());
    // Lanes 10..15 of the far direction fail: 10 work both ways, and the
    // widest allowed width within them is x8 (once the near end knows:
    // a cable's delay later, PHY-5.5).
    wire.far.ScheduleLaneFailure(0xFC00u, sc_core::sc_time_stamp());
    sc_core::wait(CableDelay(config) + sc_time(1, SC_NS));
    busy.push_back(Send(wire, flit));
    sc_core::wait(busy.back());
    flit.width = 4;  // Once a width is reported, the PHY stripes at it.
    busy.push_back(Send(wire, flit));
    sc_core::wait(1, sc_core::SC_US);
  });
  sc_core::sc_start();

  ASSERT_EQ(busy.size(), 3u);
  EXPECT_EQ(busy[0], sc_time(2, SC_NS)) << "x16 on a clean link";
  EXPECT_EQ(busy[1], sc_time(4, SC_NS)) << "x8 with 10 lanes working";
  EXPECT_EQ(busy[2], sc_time(8, SC_NS)) << "x4 as reported";
  EXPECT_EQ(wire.near.stats().tx_flits, 3u);
}

TEST(PhyPort, PHY_5_5_FarLanesFailForTheNearEndWhenTheNewsArrives) {
  const phy::PhyPortConfig config = Pcie6();
  Wire wire(config);
  std::vector<sc_time> busy;
  ScThread run("run", [&] {
    phy::PhyTxFlit flit;
    flit.content = ContentOf(config.profile, flit::FlitType::kIdle);
    // The far direction's lanes 10..15 fail; the near end stripes over
    // all 16 until that reaches it, a cable's delay later.
    wire.far.ScheduleLaneFailure(0xFC00u, sc_core::sc_time_stamp());
    sc_core::wait(1, SC_NS);
    busy.push_back(Send(wire, flit));
    sc_core::wait(CableDelay(config));
    busy.push_back(Send(wire, flit));
    sc_core::wait(1, sc_core::SC_US);
  });
  sc_core::sc_start();

  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(busy[0], sc_time(2, SC_NS)) << "x16: the news has not arrived";
  EXPECT_EQ(busy[1], sc_time(4, SC_NS)) << "x8 with 10 lanes working";
}

TEST(PhyPort, PHY_5_6_CutCableCarriesOnlyNoiseAndReportsNoReceivers) {
  const phy::PhyPortConfig config = Pcie6();
  Wire wire(config);
  constexpr int kFlits = 20;
  ScThread run("run", [&] {
    wire.near.ScheduleLaneFailure(wire.near.AllLanes(), sc_time(10, SC_NS));
    wire.far.ScheduleLaneFailure(wire.far.AllLanes(), sc_time(10, SC_NS));
    sc_core::wait(20, SC_NS);
    SendIdleFlits(wire, kFlits);
  });
  sc_core::sc_start();

  ASSERT_EQ(wire.receiver.received.size(), static_cast<size_t>(kFlits));
  for (const phy::PhyRxFlit& flit : wire.receiver.received) {
    // Noise is uncorrectable, or the FEC makes a wrong word of it that
    // the flit CRC rejects (PHY-2.7).
    EXPECT_TRUE(flit.bad ||
                !flit::CheckContent(config.profile, ByteView(flit.content)))
        << "no flit crosses a cut cable";
  }
  ASSERT_FALSE(wire.receiver.lanes.empty());
  EXPECT_EQ(wire.receiver.lanes.back().receivers, 0u)
      << "the receiver sees no far transmitter on any lane";
  uint32_t lost = 0;
  for (const phy::LaneStatus& status : wire.receiver.lanes) {
    lost |= status.lock_lost;
  }
  EXPECT_EQ(lost, wire.far.AllLanes()) << "every lane loses lock";
  EXPECT_EQ(wire.near.stats().lanes_failed, config.profile.max_lanes);
  EXPECT_GT(wire.near.stats().noise_bits, 0u);
}

TEST(PhyPort, PHY_3_8_And_PHY_5_7_CountWhatTheWireAndTheFecDid) {
  phy::PhyPortConfig config = Pcie6();
  config.errors.ber = 1e-4;  // About 0.2 errors a flit: the FEC corrects.
  config.errors.burst_rate = 1e-6;
  config.errors.burst_bits = 400;  // Beyond any FEC: some flits are lost.
  Wire wire(config);
  constexpr int kFlits = 20000;
  ScThread run("run", [&wire] { SendIdleFlits(wire, kFlits); });
  sc_core::sc_start();

  const phy::PhyPortStats& tx = wire.near.stats();
  const phy::PhyPortStats& rx = wire.far.stats();
  EXPECT_EQ(tx.tx_flits, static_cast<uint64_t>(kFlits));
  EXPECT_EQ(rx.rx_flits, static_cast<uint64_t>(kFlits));
  uint64_t bad = 0, corrected = 0, clean = 0;
  for (const phy::PhyRxFlit& flit : wire.receiver.received) {
    bad += flit.bad ? 1 : 0;
    corrected += flit.fec_corrected ? 1 : 0;
    clean += !flit.bad && !flit.fec_corrected ? 1 : 0;
  }
  EXPECT_EQ(rx.rx_bad, bad) << "PHY-3.8: uncorrectable flits";
  EXPECT_EQ(rx.rx_fec_corrected, corrected) << "PHY-3.8: corrected flits";
  EXPECT_GT(bad, 0u) << "the bursts defeat the FEC now and then";
  EXPECT_GT(corrected, 0u);
  EXPECT_GT(clean, 0u);
  EXPECT_GE(rx.rx_fec_symbols, corrected)
      << "PHY-3.8: at least one symbol per corrected flit";
  EXPECT_LE(rx.rx_fec_symbols, tx.bit_errors + tx.noise_bits +
                                   tx.bursts * config.errors.burst_bits)
      << "no more symbols corrected than bits flipped";
  // PHY-5.7: the channel counts the bits its processes flipped and the
  // bursts it started: about ber and burst_rate times the wire's bits (the
  // FEC's bytes included), each burst flipping at most burst_bits more.
  const double wire_bits = static_cast<double>(kFlits) *
                           static_cast<double>(config.profile.flit_wire_bytes) *
                           8;
  const double bursts = config.errors.burst_rate * wire_bits;
  EXPECT_NEAR(static_cast<double>(tx.bursts), bursts, 4 * std::sqrt(bursts));
  const double ber_bits = config.errors.ber * wire_bits;
  EXPECT_GE(static_cast<double>(tx.bit_errors), 0.9 * ber_bits);
  EXPECT_LE(static_cast<double>(tx.bit_errors),
            1.1 * ber_bits +
                static_cast<double>(tx.bursts) * config.errors.burst_bits);
  const StatList stats = wire.far.Stats();
  EXPECT_EQ(StatValue(stats, "rx_fec_symbols").value_or(0), rx.rx_fec_symbols)
      << "reported under the port's name";
}

}  // namespace
}  // namespace lq::testing
