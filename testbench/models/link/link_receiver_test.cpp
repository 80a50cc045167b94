// SPDX-License-Identifier: Apache-2.0
// Tests of LinkReceiver: checks, sequence and reorder window, ACK/NAK
// scheduling and credits as docs/spec/dll.md §3 and §5 state them. Flits
// come from a LinkTransmitter, as from a partner.
#include "models/link/link_receiver.h"

#include <gtest/gtest.h>

#include <vector>

#include "testbench/models/link/link_test_util.h"

namespace lq::link {
namespace {

using flit::ReplayCommand;
using testing::Pcie6;
using testing::SendNext;

const VcCredits kInit{8, 8, 8, 8};

class LinkReceiverTest : public ::testing::Test {
 protected:
  LinkReceiverTest() : partner_(Pcie6(), 128), rx_(Pcie6(), LinkBufferSizes{}) {
    partner_.Reset({64, 64, 64, 64});
    state_.l0 = true;
    state_.own_init = &kInit;
  }
  // The partner's next `count` flits (new PAYLOAD on VC 0 when offered).
  std::vector<Bytes> PartnerFlits(int count, uint32_t offered = 0b1) {
    std::vector<Bytes> flits;
    for (int i = 0; i < count; ++i) {
      flits.push_back(SendNext(partner_, offered, static_cast<uint8_t>(i)));
    }
    return flits;
  }
  RxOutcome Take(const Bytes& content, bool bad = false) {
    return rx_.Receive(content, bad, state_);
  }

  LinkTransmitter partner_;
  LinkReceiver rx_;
  RxState state_;
};

TEST_F(LinkReceiverTest, DLL_3_3_InOrderFlitsAreAcceptedAndDelivered) {
  const std::vector<Bytes> flits = PartnerFlits(3);
  for (const Bytes& flit : flits) {
    const RxOutcome outcome = Take(flit);
    EXPECT_TRUE(outcome.good);
    EXPECT_TRUE(outcome.payload) << "counted in RX_FLITS";
  }
  for (uint8_t number = 0; number < 3; ++number) {
    ASSERT_TRUE(rx_.HasSlot());
    EXPECT_EQ(rx_.Deliver().bytes[0], number) << "in sequence order";
  }
  EXPECT_EQ(rx_.Freed()[0], 3u) << "FREED counts slots taken (DLL-5.5)";
  EXPECT_EQ(rx_.AckSeq(), 2u) << "ack_seq is the last in order (DLL-3.1)";
}

TEST_F(LinkReceiverTest, DLL_3_5_FlitAfterAGapIsHeldAndSelectivelyNaked) {
  const std::vector<Bytes> flits = PartnerFlits(4);
  Take(flits[0]);
  Take(flits[2]);  // Flit 1 lost.
  Take(flits[3]);
  EXPECT_EQ(rx_.Command(), ReplayCommand::kSelectiveNak);
  EXPECT_EQ(rx_.AckSeq(), 0u) << "resend ack_seq + 1 = flit 1";
  EXPECT_TRUE(rx_.CommandSent()) << "a NAK counts in NAKS_SENT";
  Take(flits[1]);  // The resend fills the gap.
  std::vector<uint8_t> order;
  while (rx_.HasSlot()) {
    order.push_back(rx_.Deliver().bytes[0]);
  }
  EXPECT_EQ(order, (std::vector<uint8_t>{0, 1, 2, 3}))
      << "held flits drain in order behind it (DLL-3.8)";
}

TEST_F(LinkReceiverTest, DLL_3_11_WithoutSelectiveNakAGapGoesBack) {
  state_.selective_nak = false;
  const std::vector<Bytes> flits = PartnerFlits(3);
  Take(flits[0]);
  Take(flits[2]);
  EXPECT_EQ(rx_.Command(), ReplayCommand::kStandardNak);
  rx_.CommandSent();
  Take(flits[2]);
  EXPECT_EQ(rx_.Command(), ReplayCommand::kNone)
      << "NakScheduled: no second NAK (DLL-3.7)";
}

TEST_F(LinkReceiverTest, DLL_3_4_DuplicateIsDiscardedAndReAcked) {
  const std::vector<Bytes> flits = PartnerFlits(1);
  Take(flits[0]);
  rx_.Deliver();
  rx_.CommandSent();  // Clears what the accept scheduled.
  const RxOutcome again = Take(flits[0]);
  EXPECT_TRUE(again.payload) << "duplicates count in RX_FLITS";
  EXPECT_FALSE(rx_.HasSlot()) << "but are not delivered twice";
  EXPECT_EQ(rx_.Command(), ReplayCommand::kAck);
}

TEST_F(LinkReceiverTest, DLL_3_6_WatermarkPastWhatArrivedAsksForReplay) {
  const std::vector<Bytes> flits = PartnerFlits(2);
  const Bytes nop = SendNext(partner_, 0);  // Watermark 1.
  Take(flits[0]);
  Take(nop);  // Flit 1 was lost and only NOPs follow.
  EXPECT_EQ(rx_.Command(), ReplayCommand::kStandardNak);
}

TEST_F(LinkReceiverTest, DLL_11_3_ControlMessageGoesUpInL0AndIdleOnly) {
  const Bytes message = {0x01, 0x01, 0x00, 0x08, 0xFF, 0xFF};
  const Bytes control = testing::SendControl(partner_, message);
  RxOutcome outcome = Take(control);
  EXPECT_TRUE(outcome.good);
  EXPECT_TRUE(outcome.link_fields) << "a NOP's link fields (DLL-11.2)";
  ASSERT_TRUE(outcome.control.has_value());
  EXPECT_EQ(*outcome.control, message);
  EXPECT_FALSE(outcome.payload) << "not a PAYLOAD flit";
  EXPECT_FALSE(rx_.HasSlot()) << "nothing enters the receive buffer";

  state_.l0 = false;
  state_.idle = true;
  outcome = Take(control);
  ASSERT_TRUE(outcome.control.has_value())
      << "in an Idle substate it completes the handshake (DLL-6.9)";

  state_.idle = false;  // Training or Detect.
  outcome = Take(control);
  EXPECT_TRUE(outcome.good);
  EXPECT_FALSE(outcome.control.has_value()) << "not while training";
}

TEST_F(LinkReceiverTest, DLL_11_3_MalformedControlSlotIsRejected) {
  static const VcCredits kNoneFreed{};
  TxLinkFields fields;
  fields.freed = &kNoneFreed;
  Bytes slot(Pcie6().payload_bytes, 0);  // Length 0.
  const TxChoice choice{TxKind::kControl, 0};
  const RxOutcome outcome = Take(partner_.Send(choice, slot, fields, {}));
  EXPECT_TRUE(outcome.good) << "the flit itself is good";
  EXPECT_FALSE(outcome.control.has_value());
  EXPECT_TRUE(outcome.control_rejected);
}

TEST_F(LinkReceiverTest,
       DLL_11_2_ControlWatermarkPastWhatArrivedAsksForReplay) {
  const std::vector<Bytes> flits = PartnerFlits(2);
  const Bytes control = testing::SendControl(partner_, {0x42});
  Take(flits[0]);
  Take(control);  // Flit 1 was lost; the CONTROL flit's watermark says so.
  EXPECT_EQ(rx_.Command(), ReplayCommand::kStandardNak);
}

TEST_F(LinkReceiverTest, DLL_3_9_AckAfterEightAcceptedOrSixteenFlitTimes) {
  const std::vector<Bytes> flits = PartnerFlits(8);
  for (int i = 0; i < 7; ++i) {
    Take(flits[i]);
  }
  EXPECT_EQ(rx_.Command(), ReplayCommand::kNone);
  Take(flits[7]);
  EXPECT_EQ(rx_.Command(), ReplayCommand::kAck) << "ACK_COALESCE_FLITS";
  rx_.CommandSent();
  while (rx_.HasSlot()) {
    rx_.Deliver();  // Room on VC 0 for the next one.
  }
  Take(PartnerFlits(1)[0]);
  for (unsigned t = 0; t < kAckTimeoutFlits; ++t) {
    EXPECT_EQ(rx_.Command(), ReplayCommand::kNone) << "flit time " << t;
    rx_.OnFlitTime();
  }
  EXPECT_EQ(rx_.Command(), ReplayCommand::kAck) << "ACK_TIMEOUT";
}

TEST_F(LinkReceiverTest, DLL_3_2_BadFlitsCountAndSixteenInARowRetrain) {
  const Bytes flit = PartnerFlits(1)[0];
  for (unsigned i = 1; i < kRxBadFlitLimit; ++i) {
    const RxOutcome outcome = Take(flit, /*bad=*/true);
    EXPECT_TRUE(outcome.counted_bad) << "CRC_ERRORS";
    EXPECT_FALSE(outcome.bad_limit) << "bad flit " << i;
  }
  EXPECT_TRUE(Take(flit, true).bad_limit);
  Bytes damaged = flit;
  damaged[10] ^= 1;
  EXPECT_FALSE(Take(damaged).good) << "a CRC mismatch is a bad flit";
}

TEST_F(LinkReceiverTest, DLL_5_8_FlitForAFullVcIsDiscarded) {
  const VcCredits one{1, 1, 1, 1};
  state_.own_init = &one;
  const std::vector<Bytes> flits = PartnerFlits(2);
  Take(flits[0]);
  EXPECT_TRUE(Take(flits[1]).overflow) << "the partner overran its credit";
  rx_.Deliver();
  EXPECT_FALSE(rx_.HasSlot()) << "the overflowing flit was not accepted";
}

}  // namespace
}  // namespace lq::link
