// SPDX-License-Identifier: Apache-2.0
// Tests of the training-set record carried by TRAINING flits (DLL-6.x).
#include "models/flit/training_set.h"

#include <gtest/gtest.h>

namespace lq::flit {
namespace {

phy::LinkProfile Profile(const char* name) {
  return phy::FindLinkProfile(name).value();
}

TrainingSet Ts2(uint8_t width) {
  TrainingSet ts;
  ts.kind = TrainingSetKind::kTs2;
  ts.profile_id = 0;
  ts.rx_lane_mask = 0xFFFF;
  ts.proposed_width = width;
  ts.initial_credits = {64, 1, 4095, 0};
  return ts;
}

TEST(TrainingSet, DLL_6_3_RecordLayoutAndRoundTrip) {
  const phy::LinkProfile pcie6 = Profile("pcie6");
  const Bytes slot = EncodeTrainingSet(pcie6, Ts2(16)).value();
  ASSERT_EQ(slot.size(), pcie6.payload_bytes) << "a TS fills the payload slot";
  const Bytes head(slot.begin(), slot.begin() + kTrainingSetBytes);
  EXPECT_EQ(head, (Bytes{2, 0, 0xFF, 0xFF, 16, 4, 0x00, 0x40, 0x00, 0x01, 0x0F,
                         0xFF, 0x00, 0x00, 0x00}))
      << "kind, profile, lane mask, width, VC count, four credits, flags";
  EXPECT_EQ(ParseTrainingSet(pcie6, slot).value(), Ts2(16));

  TrainingSet ts1;
  ts1.profile_id = 1;
  ts1.rx_lane_mask = 0x000B;
  const phy::LinkProfile ib = Profile("ib");
  EXPECT_EQ(ParseTrainingSet(ib, EncodeTrainingSet(ib, ts1).value()).value(),
            ts1)
      << "TS1 carries no width";
}

TEST(TrainingSet, DLL_6_13_InRecoveryFlagRoundTrips) {
  const phy::LinkProfile pcie6 = Profile("pcie6");
  TrainingSet ts = Ts2(8);
  ts.in_recovery = true;
  const Bytes slot = EncodeTrainingSet(pcie6, ts).value();
  EXPECT_EQ(slot[14], 0x01) << "flags byte 14, bit 0";
  EXPECT_EQ(ParseTrainingSet(pcie6, slot).value(), ts);
  EXPECT_FALSE(ParseTrainingSet(pcie6, slot).value() == Ts2(8))
      << "the flag is part of the record's identity";
}

TEST(TrainingSet, DLL_6_3_RejectsWhatTheProfileCannotDo) {
  const phy::LinkProfile ib = Profile("ib");
  TrainingSet ts = Ts2(4);
  ts.rx_lane_mask = 0x0010;
  EXPECT_FALSE(EncodeTrainingSet(ib, ts).ok()) << "ib has no lane 4";
  EXPECT_FALSE(EncodeTrainingSet(ib, Ts2(8)).ok()) << "ib cannot run x8";
  EXPECT_FALSE(EncodeTrainingSet(Profile("pcie6"), Ts2(3)).ok())
      << "x3 is not a width";
  TrainingSet ts1;
  ts1.proposed_width = 4;
  EXPECT_FALSE(EncodeTrainingSet(ib, ts1).ok()) << "TS1 proposes no width";
}

TEST(TrainingSet, DLL_6_3_RejectsMalformedRecords_fail) {
  const phy::LinkProfile pcie6 = Profile("pcie6");
  const Bytes good = EncodeTrainingSet(pcie6, Ts2(8)).value();

  Bytes bad = good;
  bad[0] = 3;
  EXPECT_EQ(ParseTrainingSet(pcie6, bad).error().reason,
            "unknown training set kind 3");
  bad = good;
  bad[5] = 8;
  EXPECT_EQ(ParseTrainingSet(pcie6, bad).error().reason,
            "training set announces 8 VCs, expected 4");
  bad = good;
  bad[6] = 0x10;
  EXPECT_FALSE(ParseTrainingSet(pcie6, bad).ok()) << "credits above 12 bits";
  bad = good;
  bad[14] = 0x02;
  EXPECT_EQ(ParseTrainingSet(pcie6, bad).error().reason,
            "reserved training set flag set");
  bad = good;
  bad[200] = 1;
  const auto trailing = ParseTrainingSet(pcie6, bad);
  ASSERT_FALSE(trailing.ok()) << "bytes after the record are reserved";
  EXPECT_EQ(trailing.error().offset, 200u);
  EXPECT_FALSE(ParseTrainingSet(pcie6, Bytes(100, 0)).ok())
      << "a slot of the wrong size";
}

}  // namespace
}  // namespace lq::flit
