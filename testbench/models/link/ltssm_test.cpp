// SPDX-License-Identifier: Apache-2.0
// Tests of Ltssm: two instances trained against each other through an
// ideal channel that delivers every training set on every lane, then the
// Recovery and Disabled rules (docs/spec/dll.md §6, §7).
#include "models/link/ltssm.h"

#include <gtest/gtest.h>

#include <array>

#include "models/phy/link_profile.h"

namespace lq::link {
namespace {

// LTSSM_TIME_SCALE 1e-3: every timeout spans many of this test's steps.
constexpr uint64_t kMsPs = 1'000'000;
constexpr uint64_t kFlitPs = 32'000;  // One TRAINING flit per lane time.

phy::LinkProfile Pcie6() { return phy::FindLinkProfile("pcie6").value(); }

// One flit time: each side sends what its mode asks for and the other
// receives it (training sets on every lane).
void Exchange(std::array<Ltssm, 2>& sides, uint64_t now) {
  for (unsigned s = 0; s < 2; ++s) {
    Ltssm& from = sides[s];
    Ltssm& to = sides[1 - s];
    const TxMode mode = from.Mode();
    if (mode == TxMode::kSilent) {
      continue;
    }
    LtssmInputs sent;
    sent.tx_sent = true;
    from.Step(sent, now);
    LtssmInputs in;
    in.rx_flit = true;
    in.good = true;
    const flit::TrainingSet record = from.Record();
    if (mode == TxMode::kTraining) {
      in.type = flit::FlitType::kTraining;
      in.training_set = &record;
      for (unsigned lane = 0; lane < 16; ++lane) {
        in.rx_lane = lane;
        to.Step(in, now);
      }
    } else {
      in.type =
          mode == TxMode::kIdle ? flit::FlitType::kIdle : flit::FlitType::kNop;
      to.Step(in, now);
    }
  }
}

std::array<Ltssm, 2> Pair() {
  std::array<Ltssm, 2> sides{Ltssm(Pcie6(), kMsPs), Ltssm(Pcie6(), kMsPs)};
  for (Ltssm& side : sides) {
    side.set_receivers(0xFFFF);
  }
  return sides;
}

// Runs flit times until both are in L0; returns the time it took.
uint64_t TrainToL0(std::array<Ltssm, 2>& sides, uint64_t start) {
  uint64_t now = start;
  for (int step = 0; step < 2000; ++step, now += kFlitPs) {
    for (Ltssm& side : sides) {
      if (side.Deadline() <= now) {
        side.Step({}, now);
      }
    }
    Exchange(sides, now);
    if (sides[0].state() == LtssmState::kL0 &&
        sides[1].state() == LtssmState::kL0) {
      return now;
    }
  }
  ADD_FAILURE() << "no L0: " << LtssmStateName(sides[0].state()) << " / "
                << LtssmStateName(sides[1].state());
  return now;
}

TEST(Ltssm, DLL_6_5_TwoPartnersTrainToTheWidestWidth) {
  std::array<Ltssm, 2> sides = Pair();
  TrainToL0(sides, 0);
  for (const Ltssm& side : sides) {
    EXPECT_TRUE(side.link_up());
    EXPECT_EQ(side.width(), 16u);
    EXPECT_EQ(side.partner_init()[0], 64u) << "INIT from the partner's TS2";
  }
}

TEST(Ltssm, DLL_6_5_DifferentTargetsSettleOnTheNarrower) {
  std::array<Ltssm, 2> sides = Pair();
  LtssmControl narrow;
  narrow.target_width = 4;
  sides[1].set_control(narrow);
  TrainToL0(sides, 0);
  EXPECT_EQ(sides[0].width(), 4u);
  EXPECT_EQ(sides[1].width(), 4u);
}

TEST(Ltssm, DLL_6_4_NoReceiverStaysInDetect) {
  Ltssm side(Pcie6(), kMsPs);
  for (uint64_t now = 0; now < 50 * kMsPs; now += kMsPs) {
    side.Step({}, now);
    EXPECT_EQ(side.Mode(), TxMode::kSilent) << "at " << now << " ps";
  }
}

TEST(Ltssm, DLL_7_3_LaneLossRetrainsWithoutLinkDown) {
  std::array<Ltssm, 2> sides = Pair();
  const uint64_t up = TrainToL0(sides, 0);
  LtssmInputs lost;
  lost.lock_lost = 1u << 3;
  const LtssmEvents events = sides[0].Step(lost, up);
  EXPECT_TRUE(events.retrain);
  EXPECT_FALSE(events.link_down);
  EXPECT_EQ(sides[0].state(), LtssmState::kRecoveryLock);
}

TEST(Ltssm, DLL_6_8_RecoveryTimeoutIsALinkDown) {
  std::array<Ltssm, 2> sides = Pair();
  const uint64_t up = TrainToL0(sides, 0);
  LtssmInputs retrain;
  retrain.retrain = true;
  sides[0].Step(retrain, up);
  const LtssmEvents events = sides[0].Step({}, sides[0].Deadline());
  EXPECT_TRUE(events.link_down) << "24 ms x scale without the partner";
  EXPECT_FALSE(sides[0].link_up());
}

TEST(Ltssm, DLL_6_10_DisableTakesTheLinkDown) {
  std::array<Ltssm, 2> sides = Pair();
  const uint64_t up = TrainToL0(sides, 0);
  LtssmControl off;
  off.enable = false;
  sides[0].set_control(off);
  EXPECT_TRUE(sides[0].Step({}, up).link_down);
  EXPECT_EQ(sides[0].state(), LtssmState::kDisabled);
  EXPECT_EQ(sides[0].Mode(), TxMode::kSilent);
}

TEST(Ltssm, DLL_6_12_StartTrainedIsUpAtOnce) {
  Ltssm side(Pcie6(), kMsPs);
  LtssmControl control;
  control.target_width = 8;
  side.set_control(control);
  const LtssmEvents events = side.StartTrained(0);
  EXPECT_TRUE(events.link_up);
  EXPECT_EQ(side.state(), LtssmState::kL0);
  EXPECT_EQ(side.width(), 8u);
}

}  // namespace
}  // namespace lq::link
