// SPDX-License-Identifier: Apache-2.0
// Tests of LinkTransmitter: sequence numbers, replay, credits and error
// injection as docs/spec/dll.md §2, §4, §5 and §8.8 state them.
#include "models/link/link_transmitter.h"

#include <gtest/gtest.h>

#include "models/crc/crc.h"
#include "testbench/models/link/link_test_util.h"

namespace lq::link {
namespace {

using flit::FlitType;
using flit::ReplayCommand;
using testing::HeaderOf;
using testing::LinkFields;
using testing::Pcie6;
using testing::SendNext;

constexpr VcCredits kInit{4, 4, 4, 4};

LinkTransmitter Trained(const VcCredits& init = kInit) {
  LinkTransmitter tx(Pcie6(), 128);
  tx.Reset(init);
  return tx;
}

TEST(LinkTransmitter, DLL_4_1_NewFlitsAreNumberedFromZeroAndKept) {
  LinkTransmitter tx = Trained();
  for (uint16_t seq = 0; seq < 3; ++seq) {
    const flit::DlpHeader header = HeaderOf(SendNext(tx, 1u << 2, 7));
    EXPECT_EQ(header.type, FlitType::kPayload);
    EXPECT_EQ(header.flit_seq, seq) << "numbers follow NEXT_TX_SEQ (DLL-2.2)";
    EXPECT_EQ(header.payload_vc, 2);
  }
  EXPECT_EQ(tx.Outstanding(), 3u) << "kept until acknowledged";
  EXPECT_EQ(tx.CreditAvailable(2), 1u) << "each new flit spends a credit";
}

TEST(LinkTransmitter, DLL_5_3_NoCreditMeansNoPayloadFlit) {
  LinkTransmitter tx = Trained({1, 0, 0, 0});
  EXPECT_EQ(tx.Choose(TxMode::kL0, 0b10).kind, TxKind::kNop)
      << "INIT 0: the VC is not used (DLL-5.2)";
  SendNext(tx, 0b1);
  EXPECT_EQ(tx.Choose(TxMode::kL0, 0b1).kind, TxKind::kNop)
      << "the only credit is spent";
}

TEST(LinkTransmitter, DLL_2_4_NopCarriesTheWatermark) {
  LinkTransmitter tx = Trained();
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).flit_seq, 1023)
      << "1023 before any PAYLOAD flit";
  SendNext(tx, 0b1);
  SendNext(tx, 0b1);
  const flit::DlpHeader nop = HeaderOf(SendNext(tx, 0));
  EXPECT_EQ(nop.type, FlitType::kNop);
  EXPECT_EQ(nop.flit_seq, 1) << "the newest PAYLOAD flit sent";
}

TEST(LinkTransmitter, DLL_11_4_ControlGoesAheadOfResendsAndNewFlits) {
  LinkTransmitter tx = Trained({8, 8, 8, 8});
  SendNext(tx, 0b1);
  SendNext(tx, 0b1);
  tx.OnLinkFields(LinkFields(ReplayCommand::kSelectiveNak, 0), true);
  EXPECT_EQ(tx.Choose(TxMode::kL0, 0b1).kind, TxKind::kResend);
  EXPECT_EQ(tx.Choose(TxMode::kL0, 0b1, true).kind, TxKind::kControl)
      << "a control message goes before a selective resend";
  EXPECT_EQ(tx.Choose(TxMode::kIdle, 0, true).kind, TxKind::kIdle)
      << "outside L0 it waits";
  EXPECT_EQ(tx.Choose(TxMode::kTraining, 0, true).kind, TxKind::kTraining);
}

TEST(LinkTransmitter, DLL_11_2_ControlFlitCarriesANopsLinkFields) {
  LinkTransmitter tx = Trained();
  SendNext(tx, 0b1);
  SendNext(tx, 0b1);
  const Bytes content = testing::SendControl(tx, {0x01, 0x01, 0x00, 0x08});
  const flit::DlpHeader header = HeaderOf(content);
  EXPECT_EQ(header.type, FlitType::kControl);
  EXPECT_EQ(header.flit_seq, 1) << "the watermark, as a NOP";
  EXPECT_EQ(header.credit_vc, 2) << "the credit round-robin moves on";
  EXPECT_EQ(content[1], 4) << "the slot starts with the message length";
  EXPECT_EQ(tx.Outstanding(), 2u) << "a CONTROL flit is not kept for replay";
  EXPECT_EQ(tx.CreditAvailable(0), 2u) << "and spends no credit";
  tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 1023), true);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).type, FlitType::kPayload);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).type, FlitType::kPayload);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).type, FlitType::kNop)
      << "a go-back replay resends the two PAYLOAD flits only";
}

TEST(LinkTransmitter, DLL_11_2_ControlInAReplayCarriesTheReplaysWatermark) {
  LinkTransmitter tx = Trained({8, 8, 8, 8});
  for (int i = 0; i < 4; ++i) {
    SendNext(tx, 0b1);
  }
  tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 0), true);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).flit_seq, 1) << "the replay resends 1";
  EXPECT_EQ(HeaderOf(testing::SendControl(tx, {0x42})).flit_seq, 1)
      << "the partner has seen up to 1 of this replay: a watermark of 3 "
         "would make it NAK again (DLL-3.6)";
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).flit_seq, 2) << "the replay goes on";
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).flit_seq, 3);
  EXPECT_EQ(HeaderOf(testing::SendControl(tx, {0x43})).flit_seq, 3)
      << "after the replay: the newest flit sent";
}

TEST(LinkTransmitter, DLL_4_2_AckPurgesAndStaleAckIsIgnored) {
  LinkTransmitter tx = Trained();
  for (int i = 0; i < 3; ++i) {
    SendNext(tx, 0b1);
  }
  EXPECT_FALSE(
      tx.OnLinkFields(LinkFields(ReplayCommand::kAck, 1), true).protocol_error);
  EXPECT_EQ(tx.Outstanding(), 1u) << "flits 0 and 1 purged";
  const TxEvents stale =
      tx.OnLinkFields(LinkFields(ReplayCommand::kAck, 500), true);
  EXPECT_TRUE(stale.protocol_error) << "an ACK beyond what was sent";
  EXPECT_EQ(tx.Outstanding(), 1u) << "and it changes nothing";
}

TEST(LinkTransmitter, DLL_4_3_StandardNakReplaysEverythingAfterAckSeq) {
  LinkTransmitter tx = Trained({8, 8, 8, 8});
  for (uint8_t n = 0; n < 4; ++n) {
    SendNext(tx, 0b1, n);
  }
  const TxEvents events =
      tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 0), true);
  EXPECT_TRUE(events.nak_received);
  EXPECT_TRUE(events.replay_started);
  for (uint16_t seq = 1; seq <= 3; ++seq) {
    const Bytes content = SendNext(tx, 0b1, 99);
    EXPECT_EQ(HeaderOf(content).flit_seq, seq) << "in order from ACKD_SEQ+1";
    EXPECT_EQ(content[0], seq) << "the replay repeats the kept payload";
  }
  EXPECT_EQ(HeaderOf(SendNext(tx, 0b1, 4)).flit_seq, 4)
      << "then new flits go on";
}

TEST(LinkTransmitter, DLL_4_4_SelectiveNakResendsOneFlit) {
  LinkTransmitter tx = Trained({8, 8, 8, 8});
  for (uint8_t n = 0; n < 4; ++n) {
    SendNext(tx, 0b1, n);
  }
  tx.OnLinkFields(LinkFields(ReplayCommand::kSelectiveNak, 1), true);
  EXPECT_EQ(tx.Outstanding(), 2u) << "flits up to 1 purged";
  const Bytes resent = SendNext(tx, 0b1, 99);
  EXPECT_EQ(HeaderOf(resent).flit_seq, 2) << "only ACKD_SEQ + 1";
  EXPECT_EQ(HeaderOf(SendNext(tx, 0b1, 4)).flit_seq, 4)
      << "flit 3 is not resent";
}

TEST(LinkTransmitter, DLL_4_5_ReplayTimerGoesBackAfterTimeout) {
  LinkTransmitter tx = Trained();
  tx.set_replay_timeout(kMinReplayTimeout);
  SendNext(tx, 0b1);
  for (unsigned t = 0; t < kMinReplayTimeout; ++t) {
    EXPECT_FALSE(tx.CheckTimer(true).replay_started) << "flit time " << t;
    SendNext(tx, 0);  // NOPs count flit times.
  }
  EXPECT_TRUE(tx.CheckTimer(true).replay_started);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).type, FlitType::kPayload)
      << "the outstanding flit goes again";
  EXPECT_FALSE(tx.CheckTimer(false).replay_started) << "frozen outside L0";
}

TEST(LinkTransmitter, DLL_4_7_FifthReplayWithoutProgressEscalates) {
  LinkTransmitter tx = Trained();
  tx.set_replay_limit(4);
  SendNext(tx, 0b1);
  for (int replay = 1; replay <= 4; ++replay) {
    const TxEvents events =
        tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 1023), true);
    EXPECT_TRUE(events.replay_started) << "replay " << replay;
    EXPECT_FALSE(events.escalate);
    SendNext(tx, 0);
  }
  const TxEvents fifth =
      tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 1023), true);
  EXPECT_FALSE(fifth.replay_started);
  EXPECT_TRUE(fifth.escalate) << "REPLAY_NUM rolled over: retrain";
}

TEST(LinkTransmitter, DLL_5_6_CumulativeCountsReturnCreditsOnce) {
  LinkTransmitter tx = Trained({2, 2, 2, 2});
  SendNext(tx, 0b1);
  SendNext(tx, 0b1);
  EXPECT_EQ(tx.CreditAvailable(0), 0u);
  tx.OnLinkFields(LinkFields(ReplayCommand::kNone, 0, 0, 2), true);
  EXPECT_EQ(tx.CreditAvailable(0), 2u) << "two slots freed";
  tx.OnLinkFields(LinkFields(ReplayCommand::kNone, 0, 0, 2), true);
  EXPECT_EQ(tx.CreditAvailable(0), 2u) << "a repeated count adds nothing";
  tx.OnLinkFields(LinkFields(ReplayCommand::kNone, 0, 0, 4095), true);
  tx.OnLinkFields(LinkFields(ReplayCommand::kNone, 0, 0, 1), true);
  EXPECT_EQ(tx.CreditAvailable(0), 1u) << "4093 + 2 modulo 4096, 12 bits";
}

TEST(LinkTransmitter, DLL_5_5_CreditVcRotatesOverEveryLinkFlit) {
  LinkTransmitter tx = Trained();
  for (uint8_t expected = 0; expected < 6; ++expected) {
    EXPECT_EQ(HeaderOf(SendNext(tx, 0)).credit_vc, expected % 4);
  }
}

TEST(LinkTransmitter, DLL_8_8_InjectedErrorsHitOneFlitEach) {
  LinkTransmitter tx = Trained();
  const phy::LinkProfile profile = Pcie6();
  tx.ArmCrcError();
  const Bytes bad = SendNext(tx, 0);
  const uint64_t crc =
      crc::Crc64Xz().Compute(ByteView(bad.data(), flit::CrcOffset(profile)));
  EXPECT_NE(LoadBigEndian(&bad[flit::CrcOffset(profile)], 8), crc)
      << "CRC_ERR inverts the CRC";
  const Bytes good = SendNext(tx, 0);
  EXPECT_EQ(
      LoadBigEndian(&good[flit::CrcOffset(profile)], 8),
      crc::Crc64Xz().Compute(ByteView(good.data(), flit::CrcOffset(profile))))
      << "of one flit only";
  tx.ArmSeqError();
  EXPECT_EQ(HeaderOf(SendNext(tx, 0b1)).flit_seq, 512)
      << "SEQ_ERR: seq + 512 on the wire";
  tx.OnLinkFields(LinkFields(ReplayCommand::kStandardNak, 1023), true);
  EXPECT_EQ(HeaderOf(SendNext(tx, 0)).flit_seq, 0)
      << "the replay copy keeps the right number";
}

}  // namespace
}  // namespace lq::link
