// SPDX-License-Identifier: Apache-2.0
// Tests of the Verilated link controller (lc_top): training, registers, wire
// format against models/flit, and replay through a lossy channel.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "models/crc/crc.h"
#include "models/flit/control_slot.h"
#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/flit/training_set.h"
#include "testbench/rtl/lc/lc_link_pair.h"

namespace lq::rtl {
namespace {

namespace regs = lq::regs::lc;

constexpr uint64_t kTrainCycles =
    20000;  // Scaled LTSSM: MsCycles = 100 in this build.
constexpr uint64_t kSeed = 20260107;
constexpr uint32_t kLtssmDetect = 0;
constexpr uint32_t kLtssmPolling = 1;
constexpr uint32_t kLtssmConfig = 2;
constexpr uint32_t kLtssmL0 = 3;
constexpr uint32_t kLtssmRecovery = 4;
constexpr uint32_t kLtssmDisabled = 5;
constexpr uint32_t kWidthX16 = 16;
constexpr uint32_t kWidthX8 = 8;
constexpr uint32_t kWidthX4 = 4;
constexpr uint32_t kAllLanes = 0xFFFF;
constexpr uint32_t kCreditInit = 64;  // CREDIT_INIT reset value.
constexpr uint32_t kSpeedGt64 = 1;

constexpr size_t kSlotBytes = 236;
constexpr size_t kDlpOffset = kSlotBytes;
constexpr size_t kCrcOffset = kSlotBytes + flit::kDlpBytes;
constexpr unsigned kTypeShift = 5;
constexpr unsigned kReplayShift = 6;    // replay_cmd: DLP byte 2 bits 7-6.
constexpr uint8_t kAckSeqBit9 = 0x02;   // ack_seq bit 9: DLP byte 2 bit 1.
constexpr uint64_t kReorderFlits = 64;  // RxReorderFlits of this build.
constexpr unsigned kQuickLockLoss = 4;  // Cycles to report loss of lock.
constexpr uint32_t kBadFlitLimit = 16;  // RX_BAD_FLIT_LIMIT (DLL-3.2).
constexpr unsigned kSpoiledIdleFlits = 24;
constexpr uint64_t kIdleTimeoutCycles = 200;  // 2 ms at MsCycles = 100.
constexpr size_t kTsWidthByte = 4;            // proposed_width in the record.
constexpr size_t kTsVcCountByte = 5;
constexpr uint8_t kUnknownTsKind = 7;
constexpr uint8_t kInvalidWidth = 3;

// Recomputes a flit content's CRC after a change, so that only the DLP, slot
// or protocol checks can reject it.
void Reseal(Bytes& content) {
  StoreBigEndian(content.data() + kCrcOffset, flit::kFlitCrcBytes,
                 crc::Crc64Xz().Compute(ByteView(content.data(), kCrcOffset)));
}

// Changes the first flit of type `type` towards a side once, with `change`,
// then re-seals its CRC.
LinkPair::Mutator OnceResealed(flit::FlitType type,
                               std::function<void(Bytes&)> change) {
  auto done = std::make_shared<bool>(false);
  return [=](Bytes& content) {
    if (*done ||
        (content[kDlpOffset] >> kTypeShift) != static_cast<unsigned>(type)) {
      return false;
    }
    *done = true;
    change(content);
    Reseal(content);
    return true;
  };
}

uint32_t WidthOf(LinkPair& pair, unsigned side) {
  return regs::kStatusWidth.Read(pair.Read(side, regs::kStatusOffset));
}

// Writes CTRL.TARGET_WIDTH of one side, keeping the other fields.
void SetTargetWidth(LinkPair& pair, unsigned side, uint32_t width) {
  const uint32_t ctrl = pair.Read(side, regs::kCtrlOffset);
  ASSERT_TRUE(pair.Write(side, regs::kCtrlOffset,
                         (ctrl & ~regs::kCtrlTargetWidth.Mask()) |
                             (width << regs::kCtrlTargetWidth.lsb)));
}

// Takes one side through Detect: CTRL.ENABLE 0, then 1 (DLL-6.10).
void RestartFromDetect(LinkPair& pair, unsigned side) {
  const uint32_t ctrl = pair.Read(side, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(side, regs::kCtrlOffset, ctrl & ~regs::kCtrlEnable.Mask()));
  ASSERT_TRUE(pair.Write(side, regs::kCtrlOffset, ctrl));
}

// Writes CTRL.RETRAIN on one side (DLL-6.6).
void RequestRetrain(LinkPair& pair, unsigned side) {
  const uint32_t ctrl = pair.Read(side, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(side, regs::kCtrlOffset, ctrl | regs::kCtrlRetrain.Mask()));
}

// Runs until both sides are in L0 at `width`, or max_cycles.
bool RunUntilWidth(LinkPair& pair, unsigned width, uint64_t max_cycles) {
  const uint64_t end = pair.cycles() + max_cycles;
  while (pair.cycles() < end) {
    pair.Step();
    if (pair.top(0).link_up_o && pair.top(1).link_up_o &&
        pair.top(0).width_o == width && pair.top(1).width_o == width) {
      return true;
    }
  }
  return false;
}

struct Counters {
  uint64_t tx_flits, rx_flits;
  uint32_t crc_errors, fec_corrected, naks_sent, naks_received, replays,
      retrains, link_downs;
};

Counters ReadCounters(LinkPair& pair, unsigned side) {
  Counters c{};
  c.tx_flits = pair.ReadCounter64(side, regs::kTxFlitsLoOffset);
  c.rx_flits = pair.ReadCounter64(side, regs::kRxFlitsLoOffset);
  c.crc_errors = pair.Read(side, regs::kCrcErrorsOffset);
  c.fec_corrected = pair.Read(side, regs::kFecCorrectedOffset);
  c.naks_sent = pair.Read(side, regs::kNaksSentOffset);
  c.naks_received = pair.Read(side, regs::kNaksReceivedOffset);
  c.replays = pair.Read(side, regs::kReplaysOffset);
  c.retrains = pair.Read(side, regs::kRetrainsOffset);
  c.link_downs = pair.Read(side, regs::kLinkDownsOffset);
  return c;
}

// `injected_to_side1` flits towards side 1 were corrupted on purpose by
// ERR_INJECT and so cannot match the model's encoding.
void ExpectClean(const LinkPair& pair, uint64_t injected_to_side1 = 0) {
  for (unsigned side = 0; side < kSides; ++side) {
    const uint64_t injected = side == 1 ? injected_to_side1 : 0;
    const SideReport& r = pair.report(side);
    EXPECT_EQ(r.lost, 0u) << "side " << side << " lost payload";
    EXPECT_EQ(r.duplicated, 0u) << "side " << side << " got a slot twice";
    EXPECT_EQ(r.corrupted, 0u) << "side " << side << " got corrupted payload";
    EXPECT_EQ(r.model_mismatches, injected)
        << "side " << side
        << " received wire flits that models/flit encodes differently";
  }
}

TEST(LcTop, DLL_6_5_TrainsToL0AndRaisesLinkUp) {
  LinkPair pair(kSeed);
  pair.set_sending(false);  // Nothing consumes credits before they are read.
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles)) << "link never reached L0";
  for (unsigned side = 0; side < kSides; ++side) {
    const uint32_t status = pair.Read(side, regs::kStatusOffset);
    EXPECT_EQ(regs::kStatusLtssm.Read(status), kLtssmL0)
        << "STATUS.LTSSM after link up";
    EXPECT_EQ(regs::kStatusLinkUp.Read(status), 1u)
        << "STATUS.LINK_UP after link up";
    EXPECT_EQ(regs::kStatusWidth.Read(status), kWidthX16)
        << "pcie6 trains to x16";
    EXPECT_EQ(regs::kStatusSpeed.Read(status), kSpeedGt64) << "pcie6 runs GT64";
    const uint32_t irq = pair.Read(side, regs::kIrqStatusOffset);
    EXPECT_EQ(regs::kIrqStatusLinkUp.Read(irq), 1u)
        << "DLL-7.1 raises IRQ_STATUS.LINK_UP";
    EXPECT_EQ(pair.Read(side, regs::CreditAvailOffset(0)), 64u)
        << "CREDIT_AVAIL starts at the partner's advertised CREDIT_INIT "
           "(DLL-5.3)";
  }
  ExpectClean(pair);
}

TEST(LcTop, DLL_1_2_WireFlitsMatchFlitModelAndDeliverInOrder) {
  LinkPair pair(kSeed + 1);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  for (unsigned side = 0; side < kSides; ++side) {
    pair.traffic(side).offer_per_cycle = 0.3;  // Idle cycles on the sources.
    pair.traffic(side).drain_per_cycle =
        0.7;  // Backpressure from the consumer.
    pair.channel(side).stall_per_cycle = 0.1;  // The PHY refuses some cycles.
  }
  ASSERT_TRUE(pair.RunTraffic(3000, 200000)) << "traffic did not complete";
  ExpectClean(pair);
  EXPECT_GT(pair.report(0).wire_flits, 3000u)
      << "every wire flit was cross-checked";
}

TEST(LcTop, DLL_4_8_CleanLinkRunsAtLineRate) {
  LinkPair pair(kSeed + 2);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  const uint64_t start_cycle = pair.cycles();
  const uint64_t start_payload = pair.report(1).wire_payload_flits;
  ASSERT_TRUE(pair.RunTraffic(10000, 100000));
  const double share =
      static_cast<double>(pair.report(1).wire_payload_flits - start_payload) /
      static_cast<double>(pair.cycles() - start_cycle);
  EXPECT_GE(share, 0.95)
      << "a clean saturated link must carry payload in >= 95% of flit times";
  ExpectClean(pair);
}

// A control slot (DLL-11.3) carrying `length` bytes, each `fill`.
Bytes ControlSlot(size_t length, uint8_t fill) {
  return flit::EncodeControlSlot(Bytes(length, fill), kSlotBytes).value();
}

TEST(LcTop, DLL_11_4_ControlMessagesGoAheadOfDataUnderFullLoad) {
  LinkPair pair(kSeed + 30);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(500, 20000)) << "both directions saturated";
  const uint64_t offered = pair.cycles();
  for (uint8_t m = 1; m <= 3; ++m) {
    pair.SendControl(0, ControlSlot(60, m));
  }
  ASSERT_TRUE(pair.RunTraffic(2000, 40000));
  pair.Drain(2000);
  const std::vector<uint64_t>& taken = pair.controls_taken(0);
  ASSERT_EQ(taken.size(), 3u);
  for (size_t i = 0; i < taken.size(); ++i) {
    EXPECT_EQ(taken[i], offered + i)
        << "each goes in the next flit, ahead of queued payload";
  }
  const auto& received = pair.controls_received(1);
  ASSERT_EQ(received.size(), 3u) << "every message arrives, once";
  for (uint8_t m = 1; m <= 3; ++m) {
    EXPECT_EQ(received[m - 1].second, ControlSlot(60, m)) << "in order";
  }
  EXPECT_TRUE(pair.controls_received(0).empty()) << "nothing came back";
  const Counters a = ReadCounters(pair, 0);
  const Counters b = ReadCounters(pair, 1);
  EXPECT_EQ(a.tx_flits, pair.report(1).wire_payload_flits)
      << "TX_FLITS counts no CONTROL flit (DLL-11.5)";
  EXPECT_EQ(b.rx_flits, pair.report(1).good_payload_flits)
      << "neither does RX_FLITS";
  ExpectClean(pair);  // Every CONTROL flit matched models/flit's encoding.
}

TEST(LcTop, DLL_11_4_ControlGoesAheadOfAReplay) {
  LinkPair pair(kSeed + 33);
  // Without selective NAK the lost flit costs a go-back replay of a round
  // trip of flits, long enough to send control messages in the middle.
  const uint32_t ctrl = pair.Read(1, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(1, regs::kCtrlOffset, ctrl & ~regs::kCtrlSelNakEn.Mask()));
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(500, 20000));
  // One injected CRC error makes side 0 replay what followed it.
  ASSERT_TRUE(pair.Write(0, regs::kErrInjectOffset,
                         regs::kErrInjectCrcErr.Mask() |
                             (1u << regs::kErrInjectCorruptBytes.lsb)));
  uint64_t waited = 0;
  while (pair.Read(0, regs::kReplaysOffset) == 0 && waited++ < 1000) {
  }
  ASSERT_EQ(pair.Read(0, regs::kReplaysOffset), 1u) << "the replay started";
  const uint64_t offered = pair.cycles();
  for (uint8_t m = 1; m <= 4; ++m) {
    pair.SendControl(0, ControlSlot(60, m));
  }
  ASSERT_TRUE(pair.RunTraffic(2000, 40000));
  pair.Drain(2000);
  const std::vector<uint64_t>& taken = pair.controls_taken(0);
  ASSERT_EQ(taken.size(), 4u);
  for (size_t i = 0; i < taken.size(); ++i) {
    EXPECT_EQ(taken[i], offered + i) << "not held back by the replay";
  }
  ASSERT_EQ(pair.controls_received(1).size(), 4u);
  EXPECT_EQ(pair.Read(0, regs::kReplaysOffset), 1u);
  ExpectClean(pair, 1);
}

TEST(LcTop, DLL_11_1_BadControlFlitIsLostAndNeverReplayed) {
  LinkPair pair(kSeed + 31);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(200, 20000));
  // The first CONTROL flit towards side 1 arrives with a CRC mismatch.
  auto spoiled = std::make_shared<bool>(false);
  pair.set_mutator(1, [spoiled](Bytes& content) {
    if (*spoiled || (content[kDlpOffset] >> kTypeShift) !=
                        static_cast<unsigned>(flit::FlitType::kControl)) {
      return false;
    }
    *spoiled = true;
    content[kCrcOffset] ^= 0x01;
    return true;
  });
  pair.SendControl(0, ControlSlot(60, 0xA1));
  pair.SendControl(0, ControlSlot(60, 0xA2));
  ASSERT_TRUE(pair.RunTraffic(1000, 20000));
  pair.Drain(2000);
  ASSERT_TRUE(*spoiled);
  const auto& received = pair.controls_received(1);
  ASSERT_EQ(received.size(), 1u) << "the bad one is lost, the other arrives";
  EXPECT_EQ(received[0].second, ControlSlot(60, 0xA2));
  EXPECT_EQ(pair.Read(1, regs::kCrcErrorsOffset), 1u);
  EXPECT_EQ(pair.Read(1, regs::kNaksSentOffset), 0u)
      << "a lost CONTROL flit leaves no gap in the sequence";
  EXPECT_EQ(pair.Read(0, regs::kReplaysOffset), 0u);
  ExpectClean(pair);  // The RTL encoded it right; the channel spoiled it.
}

TEST(LcTop, DLL_11_4_ControlWaitsOutsideL0) {
  LinkPair pair(kSeed + 32);
  pair.SendControl(0, ControlSlot(4, 0x5C));
  for (int i = 0; i < 100; ++i) {
    pair.Step();
  }
  EXPECT_TRUE(pair.controls_taken(0).empty()) << "not before L0";
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  pair.Drain(200);
  ASSERT_EQ(pair.controls_received(1).size(), 1u);
  EXPECT_EQ(pair.controls_received(1)[0].second, ControlSlot(4, 0x5C));
}

// Trains, loads the link, corrupts one flit from side 0 by ERR_INJECT.CRC_ERR,
// then lets the link recover and settle.
void InjectOneCrcErrorUnderLoad(LinkPair& pair) {
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(200, 20000));
  ASSERT_TRUE(pair.Write(0, regs::kErrInjectOffset,
                         regs::kErrInjectCrcErr.Mask() |
                             (1u << regs::kErrInjectCorruptBytes.lsb)));
  ASSERT_TRUE(pair.RunTraffic(1000, 20000));
  pair.Drain(2000);
}

TEST(LcTop, DLL_8_8_InjectedCrcErrorIsNakedAndReplayed) {
  LinkPair pair(kSeed + 3);
  InjectOneCrcErrorUnderLoad(pair);
  const Counters a = ReadCounters(pair, 0);
  const Counters b = ReadCounters(pair, 1);
  EXPECT_EQ(b.crc_errors, 1u)
      << "the partner sees exactly the one injected CRC error";
  EXPECT_EQ(b.naks_sent, 1u) << "one NAK answers the lost flit (DLL-3.5)";
  EXPECT_EQ(a.naks_received, 1u) << "the NAK reaches the sender";
  EXPECT_EQ(a.replays, 1u) << "one replay (DLL-4.4)";
  EXPECT_EQ(a.tx_flits, pair.report(1).wire_payload_flits)
      << "TX_FLITS counts wire PAYLOAD flits";
  EXPECT_EQ(b.rx_flits, pair.report(1).good_payload_flits - 1)
      << "RX_FLITS counts good PAYLOAD flits; the injected one was bad";
  ExpectClean(pair, 1);
}

// The PAYLOAD flits side 0 sent beyond the slots delivered: what the recovery
// from one injected CRC error resent.
uint64_t ResentAfterOneCrcError(LinkPair& pair) {
  InjectOneCrcErrorUnderLoad(pair);
  EXPECT_EQ(pair.Read(1, regs::kNaksSentOffset), 1u) << "one NAK";
  EXPECT_EQ(pair.Read(0, regs::kReplaysOffset), 1u) << "one recovery";
  ExpectClean(pair, 1);
  return pair.ReadCounter64(0, regs::kTxFlitsLoOffset) -
         pair.report(1).delivered;
}

TEST(LcTop, DLL_3_5_SelectiveNakResendsOnlyTheMissingFlit) {
  LinkPair pair(kSeed + 23);
  EXPECT_EQ(ResentAfterOneCrcError(pair), 1u)
      << "the flits after the lost one wait in the reorder window; only the "
         "lost one is sent again (DLL-4.4)";
}

TEST(LcTop, DLL_3_5_GapBeyondTheReorderWindowFallsBackToStandardNak) {
  LinkPair pair(kSeed + 26);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  pair.channel(1).drop_per_flit = 1.0;
  for (uint64_t i = 0; i < kReorderFlits + 8; ++i) {
    pair.Step();  // More flits vanish than the reorder window can bridge.
  }
  pair.channel(1).drop_per_flit = 0.0;
  const uint64_t before = pair.report(1).delivered;
  ASSERT_TRUE(pair.RunTraffic(before + 2000, 40000));
  pair.Drain(3000);
  ExpectClean(pair);
  EXPECT_GT(
      pair.ReadCounter64(0, regs::kTxFlitsLoOffset) - pair.report(1).delivered,
      kReorderFlits)
      << "a standard NAK brought a go-back replay of the whole gap";
}

TEST(LcTop, DLL_3_11_WithoutSelectiveNakTheSenderGoesBack) {
  LinkPair pair(kSeed + 23);
  const uint32_t ctrl = pair.Read(1, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(1, regs::kCtrlOffset, ctrl & ~regs::kCtrlSelNakEn.Mask()));
  EXPECT_GT(ResentAfterOneCrcError(pair), 8u)
      << "with CTRL.SEL_NAK_EN = 0 the receiver discards what follows the "
         "lost flit and the go-back replay resends a round trip of flits";
}

// Trains and loads the link, then alters one flit of type `type` towards side
// 1 with `change`, re-sealed: the receiver must reject it although its CRC is
// right, and the link must recover it by NAK and replay like any bad flit.
void ExpectRejectedAndRecovered(LinkPair& pair, flit::FlitType type,
                                std::function<void(Bytes&)> change) {
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(100, 10000));
  pair.set_mutator(1, OnceResealed(type, std::move(change)));
  ASSERT_TRUE(pair.RunTraffic(1500, 40000))
      << "traffic stalled after the rejected flit";
  pair.Drain(2000);
  EXPECT_EQ(pair.report(1).bad_flits, 1u)
      << "models/flit rejects the altered flit too";
  EXPECT_EQ(pair.Read(1, regs::kCrcErrorsOffset), 1u)
      << "the RTL counts it as a bad flit";
  EXPECT_EQ(regs::kIrqStatusCrcError.Read(pair.Read(1, regs::kIrqStatusOffset)),
            1u)
      << "DLL-7.5 raises IRQ_STATUS.CRC_ERROR";
  ExpectClean(pair);
}

TEST(LcTop, DLL_1_3_RejectsReservedDlpBits_fail) {
  LinkPair pair(kSeed + 11);
  ExpectRejectedAndRecovered(pair, flit::FlitType::kPayload,
                             [](Bytes& c) { c[kDlpOffset + 2] |= 0x08; });
}

TEST(LcTop, DLL_1_3_RejectsReservedFlitType_fail) {
  LinkPair pair(kSeed + 12);
  // PAYLOAD (2) becomes the reserved code 6: one bit, as a corrupted header
  // would.
  ExpectRejectedAndRecovered(pair, flit::FlitType::kPayload,
                             [](Bytes& c) { c[kDlpOffset] ^= 0x80; });
}

TEST(LcTop, DLL_1_4_RejectsCreditVcOutOfRange_fail) {
  LinkPair pair(kSeed + 13);
  ExpectRejectedAndRecovered(pair, flit::FlitType::kPayload,
                             [](Bytes& c) { c[kDlpOffset + 4] |= 0x80; });
}

TEST(LcTop, PHY_2_6_RejectsNonZeroNopSlot_fail) {
  LinkPair pair(kSeed + 14);
  pair.traffic(0).offer_per_cycle =
      0.2;  // Side 0 sends NOP flits between payload.
  ExpectRejectedAndRecovered(pair, flit::FlitType::kNop,
                             [](Bytes& c) { c[17] = 0x5A; });
}

TEST(LcTop, DLL_6_3_InvalidTrainingRecordIsABadFlit_fail) {
  LinkPair pair(kSeed + 28);
  pair.traffic(0).offer_per_cycle = 0.2;  // Side 0 sends NOP flits too.
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(100, 10000));
  // One NOP towards side 1 becomes a TRAINING flit, correctly sealed, whose
  // record has an unknown kind: it must count as bad, not start a retrain.
  pair.set_mutator(1, OnceResealed(flit::FlitType::kNop, [](Bytes& c) {
                     std::fill(c.begin(), c.begin() + kCrcOffset, 0);
                     c[kDlpOffset] = static_cast<uint8_t>(
                         static_cast<unsigned>(flit::FlitType::kTraining)
                         << kTypeShift);
                     c[0] = kUnknownTsKind;
                     c[kTsVcCountByte] = kVcs;
                   }));
  ASSERT_TRUE(pair.RunTraffic(1000, 40000));
  pair.Drain(2000);
  EXPECT_EQ(pair.Read(1, regs::kCrcErrorsOffset), 1u)
      << "a record that breaks DLL-6.3 makes its flit bad";
  EXPECT_EQ(pair.Read(1, regs::kRetrainsOffset), 0u)
      << "only a valid training set sends an L0 link to Recovery";
  ExpectClean(pair);
}

TEST(LcTop, DLL_8_8_SeqErrIsDiscardedAndRecovered) {
  LinkPair pair(kSeed + 15);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(200, 20000));
  ASSERT_TRUE(pair.Write(0, regs::kErrInjectOffset,
                         regs::kErrInjectSeqErr.Mask() |
                             (1u << regs::kErrInjectCorruptBytes.lsb)));
  ASSERT_TRUE(pair.RunTraffic(1500, 40000));
  pair.Drain(2000);
  EXPECT_EQ(pair.Read(1, regs::kCrcErrorsOffset), 0u)
      << "a wrong number is no bad flit";
  EXPECT_GE(pair.Read(0, regs::kReplaysOffset), 1u)
      << "the sender replays the lost number";
  ExpectClean(pair);
}

// Runs `flits` payload slots each way through a channel with bit errors,
// bursts, drops and stalls, then checks the scoreboard and that every counter
// equals what the channel injected.
void RunErrorChannel(uint64_t seed, uint64_t flits, double ber, double burst) {
  LinkPair pair(seed);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  for (unsigned side = 0; side < kSides; ++side) {
    ChannelConfig& channel = pair.channel(side);
    channel.bit_error_rate = ber;
    channel.burst_per_flit = burst;
    channel.drop_per_flit = burst / 2;
    channel.stall_per_cycle = 0.05;
    pair.traffic(side).drain_per_cycle = 0.9;
  }
  const auto start = std::chrono::steady_clock::now();
  const uint64_t start_cycles = pair.cycles();
  ASSERT_TRUE(pair.RunTraffic(flits, 40 * flits))
      << "traffic stalled under errors";
  pair.Drain(5000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double cycles = static_cast<double>(pair.cycles() - start_cycles);
  const double payload_bits = 2.0 * static_cast<double>(flits) * kSlotBytes * 8;
  std::printf(
      "[ perf     ] %.0f cycles of two lc_top in %.2f s: %.0f cycles/s, %.3f "
      "Gb/s of "
      "payload delivered per wall second\n",
      cycles, seconds, cycles / seconds, payload_bits / seconds / 1e9);
  ExpectClean(pair);
  for (unsigned side = 0; side < kSides; ++side) {
    const unsigned other = 1 - side;
    const Counters c = ReadCounters(pair, side);
    const Counters sender = ReadCounters(pair, other);
    const SideReport& r = pair.report(side);
    std::printf(
        "[ channel  ] to side %u: %llu wire flits, %llu bad, %llu dropped, "
        "%llu FEC "
        "corrected; %u NAKs received by the sender, %u replays\n",
        side, static_cast<unsigned long long>(r.wire_flits),
        static_cast<unsigned long long>(r.bad_flits),
        static_cast<unsigned long long>(r.dropped),
        static_cast<unsigned long long>(r.fec_corrected), sender.naks_received,
        sender.replays);
    EXPECT_GE(r.delivered, flits) << "every payload slot arrived";
    EXPECT_GT(r.bad_flits, 0u) << "the channel did inject errors";
    EXPECT_EQ(c.retrains, 0u) << "errors at this rate never force retraining";
    EXPECT_EQ(c.crc_errors, r.bad_flits)
        << "CRC_ERRORS equals the bad flits injected";
    EXPECT_EQ(c.fec_corrected, r.fec_corrected)
        << "FEC_CORRECTED equals the PHY's reports";
    EXPECT_EQ(c.rx_flits, r.good_payload_flits)
        << "RX_FLITS counts good PAYLOAD flits";
    EXPECT_EQ(sender.tx_flits, r.wire_payload_flits)
        << "TX_FLITS counts wire PAYLOAD flits";
    EXPECT_EQ(sender.naks_received,
              c.naks_sent - pair.report(other).naks_destroyed)
        << "every NAK sent arrives unless the channel destroyed its flit";
    EXPECT_GE(sender.replays, sender.naks_received)
        << "every NAK received starts a replay";
  }
}

// 10^5 payload flits in all, at a BER ten times the so that replays are
// frequent.
TEST(LcTop, DLL_4_3_ReplayRecoversFromBitErrorsDropsAndStalls) {
  RunErrorChannel(kSeed + 4, 50000, 1e-5, 2e-3);
}

// The acceptance run: 10^7 payload flits at BER 1e-6 with bursts. About
// ten minutes, so CTest skips it; run with --gtest_also_run_disabled_tests.
TEST(LcTop, DISABLED_DLL_4_3_TenMillionFlitsAtBer1e6) {
  RunErrorChannel(kSeed + 16, 5000000, 1e-6, 2e-4);
}

TEST(LcTop, DLL_4_7_ErrorStormEscalatesToRecoveryAndLinkRecovers) {
  LinkPair pair(kSeed + 5);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(500, 20000));
  pair.channel(1).drop_per_flit =
      1.0;  // Side 1 hears nothing: side 0 gets no ACKs either.
  for (int i = 0; i < 4000; ++i) {
    pair.Step();
  }
  pair.channel(1).drop_per_flit = 0.0;
  ASSERT_TRUE(pair.RunTraffic(3000, 200000)) << "link did not come back";
  pair.Drain(3000);
  ExpectClean(pair);
  const Counters a = ReadCounters(pair, 0);
  EXPECT_GE(a.retrains, 1u)
      << "the fifth replay without progress retrains (DLL-4.7)";
  EXPECT_EQ(a.link_downs, 0u)
      << "a retrain that succeeds is no link-down (DLL-7.3)";
  const uint32_t irq = pair.Read(0, regs::kIrqStatusOffset);
  EXPECT_EQ(regs::kIrqStatusReplayEscalation.Read(irq), 1u)
      << "DLL-7.3: escalation raises IRQ_STATUS.REPLAY_ESCALATION";
  EXPECT_EQ(regs::kStatusLtssm.Read(pair.Read(0, regs::kStatusOffset)),
            kLtssmL0)
      << "back in L0 after Recovery";
}

TEST(LcTop, DLL_6_10_DisableTakesLinkDownAndEnableRetrains) {
  LinkPair pair(kSeed + 6);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  const uint32_t ctrl = pair.Read(0, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(0, regs::kCtrlOffset, ctrl & ~regs::kCtrlEnable.Mask()));
  pair.Step();  // The LTSSM acts on the new CTRL value one cycle after the
                // write.
  EXPECT_EQ(regs::kStatusLtssm.Read(pair.Read(0, regs::kStatusOffset)),
            kLtssmDisabled)
      << "CTRL.ENABLE = 0 holds the link in DISABLED";
  EXPECT_EQ(pair.Read(0, regs::kLinkDownsOffset), 1u)
      << "DLL-7.2 counts the link-down";
  EXPECT_EQ(regs::kIrqStatusLinkDown.Read(pair.Read(0, regs::kIrqStatusOffset)),
            1u)
      << "DLL-7.2 raises IRQ_STATUS.LINK_DOWN";
  EXPECT_EQ(regs::kStatusWidth.Read(pair.Read(0, regs::kStatusOffset)), 0u)
      << "WIDTH reads NONE while the link is down";
  ASSERT_TRUE(pair.Write(0, regs::kCtrlOffset, ctrl));
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles * 4))
      << "link did not train again";
}

TEST(LcTop, DLL_6_8_LinkCutTakesLinkDownAndLinkRetrains) {
  LinkPair pair(kSeed + 17);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  pair.FailLanes(0, kAllLanes);  // The cable is cut: every lane, both ways.
  pair.FailLanes(1, kAllLanes);
  uint64_t waited = 0;
  while ((pair.top(0).link_up_o || pair.top(1).link_up_o) &&
         waited < kTrainCycles) {
    pair.Step();
    ++waited;
  }
  ASSERT_FALSE(pair.top(0).link_up_o || pair.top(1).link_up_o)
      << "a Recovery timeout must take the link down (DLL-6.8)";
  for (unsigned side = 0; side < kSides; ++side) {
    EXPECT_EQ(pair.Read(side, regs::kLinkDownsOffset), 1u)
        << "LINK_DOWNS counts it (DLL-7.2)";
    EXPECT_EQ(pair.Read(side, regs::kRetrainsOffset), 1u)
        << "Recovery was tried first";
    EXPECT_EQ(
        regs::kIrqStatusLinkDown.Read(pair.Read(side, regs::kIrqStatusOffset)),
        1u)
        << "DLL-7.2 raises IRQ_STATUS.LINK_DOWN";
  }
  for (int i = 0; i < 3000; ++i) {
    pair.Step();
  }
  for (unsigned side = 0; side < kSides; ++side) {
    EXPECT_EQ(regs::kStatusLtssm.Read(pair.Read(side, regs::kStatusOffset)),
              kLtssmDetect)
        << "without a receiver on any lane the LTSSM stays in Detect "
           "(DLL-6.4)";
  }
  pair.RepairLanes(0, kAllLanes);
  pair.RepairLanes(1, kAllLanes);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles * 4))
      << "the repaired link trains again";
  const uint64_t before = pair.report(1).delivered;
  ASSERT_TRUE(pair.RunTraffic(before + 1000, 40000))
      << "traffic flows after the new link-up";
  for (unsigned side = 0; side < kSides; ++side) {
    const unsigned other = 1 - side;
    EXPECT_EQ(pair.report(side).duplicated, 0u)
        << "nothing is delivered twice across link-down";
    EXPECT_EQ(pair.report(side).corrupted, 0u)
        << "nothing is corrupted across link-down";
    const uint32_t dropped = pair.Read(other, regs::kLostOnDownOffset);
    EXPECT_GT(dropped, 0u)
        << "the cut caught flits in flight: LOST_ON_DOWN counts the "
           "unacknowledged ones the replay buffer dropped (DLL-4.10)";
    EXPECT_LE(pair.report(side).lost, dropped)
        << "only flits the sender dropped unacknowledged can be missing";
  }
}

TEST(LcTop, DLL_6_5_DifferentTargetWidthsSettleOnTheNarrower) {
  LinkPair pair(kSeed + 18);
  pair.set_sending(false);
  SetTargetWidth(pair, 0, kWidthX4);  // Before the first Polling (DLL-8.7).
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  for (unsigned side = 0; side < kSides; ++side) {
    EXPECT_EQ(WidthOf(pair, side), kWidthX4)
        << "both sides take the narrower proposal";
    EXPECT_EQ(pair.top(side).width_o, kWidthX4)
        << "the PHY is told to stripe over 4 lanes";
  }
}

TEST(LcTop, DLL_6_7_LaneLossRetrainsNarrowerAndRepairWidensAfterDetect) {
  LinkPair pair(kSeed + 19);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  pair.FailLanes(1, 1u << 3);  // Lane 3 towards side 1 delivers noise.
  ASSERT_TRUE(RunUntilWidth(pair, kWidthX8, kTrainCycles))
      << "15 working lanes retrain to x8 (PHY-5.5)";
  const uint64_t before = pair.report(1).delivered;
  ASSERT_TRUE(pair.RunTraffic(before + 2000, 60000))
      << "traffic flows at the narrower width";
  for (unsigned side = 0; side < kSides; ++side) {
    EXPECT_EQ(WidthOf(pair, side), kWidthX8)
        << "STATUS.WIDTH follows the new width (DLL-7.4)";
    EXPECT_GE(pair.Read(side, regs::kRetrainsOffset), 1u)
        << "a lane loss is a retrain (DLL-6.6)";
    EXPECT_EQ(pair.Read(side, regs::kLinkDownsOffset), 0u)
        << "and no link-down: the port stays up (DLL-7.3)";
  }
  pair.Drain(3000);
  ExpectClean(pair);
  pair.RepairLanes(1, 1u << 3);
  RestartFromDetect(pair, 0);
  ASSERT_TRUE(RunUntilWidth(pair, kWidthX16, kTrainCycles * 4))
      << "after the repair, training from Detect widens the link (DLL-6.7)";
}

TEST(LcTop, DLL_6_6_LockLossOnALaneInUseRetrains) {
  LinkPair pair(kSeed + 25);
  pair.channel(1).lock_loss_cycles = kQuickLockLoss;  // Before 16 bad flits.
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  pair.FailLanes(1, 1u << 0);
  ASSERT_TRUE(RunUntilWidth(pair, kWidthX8, kTrainCycles))
      << "loss of lock on lane 0 retrains at once, to x8 on lanes 1-15";
  EXPECT_LT(pair.Read(1, regs::kCrcErrorsOffset), kBadFlitLimit)
      << "the retrain came from the lock loss, not from 16 bad flits";
  const uint64_t before = pair.report(1).delivered;
  ASSERT_TRUE(pair.RunTraffic(before + 1000, 40000));
  pair.Drain(3000);
  ExpectClean(pair);
}

TEST(LcTop, DLL_8_7_CreditInitTakesEffectAtTheNextPolling) {
  LinkPair pair(kSeed + 20);
  pair.set_sending(false);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  constexpr uint32_t kNewInit = 32;
  ASSERT_TRUE(pair.Write(1, regs::CreditInitOffset(0), kNewInit));
  RequestRetrain(pair, 1);
  ASSERT_TRUE(RunUntilWidth(pair, kWidthX16, kTrainCycles));
  EXPECT_EQ(pair.Read(0, regs::CreditAvailOffset(0)), kCreditInit)
      << "a retrain keeps the credits (DLL-5.7): the new INIT waits";
  RestartFromDetect(pair, 1);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles * 4));
  EXPECT_EQ(pair.Read(0, regs::CreditAvailOffset(0)), kNewInit)
      << "after the next Polling the partner sees the new INIT";
  EXPECT_EQ(pair.Read(0, regs::CreditAvailOffset(1)), kCreditInit)
      << "other VCs keep theirs";
}

// Runs until STATUS.LTSSM of `side` reads `state`, or max_cycles.
bool RunUntilLtssm(LinkPair& pair, unsigned side, uint32_t state,
                   uint64_t max_cycles) {
  const uint64_t end = pair.cycles() + max_cycles;
  while (pair.cycles() < end) {
    if (regs::kStatusLtssm.Read(pair.Read(side, regs::kStatusOffset)) ==
        state) {
      return true;
    }
  }
  return false;
}

// Turns every TS2 towards a side into an invalid record (width 3), re-sealed,
// so that a Configuration state there never hears the partner agree.
LinkPair::Mutator SpoilTs2() {
  return [](Bytes& c) {
    if ((c[kDlpOffset] >> kTypeShift) !=
            static_cast<unsigned>(flit::FlitType::kTraining) ||
        c[0] != static_cast<uint8_t>(flit::TrainingSetKind::kTs2)) {
      return false;
    }
    c[kTsWidthByte] = kInvalidWidth;
    Reseal(c);
    return true;
  };
}

TEST(LcTop, DLL_6_1_TrainingTimeoutsEndInDetect) {
  LinkPair pair(kSeed + 24);
  pair.set_sending(false);
  const uint32_t ctrl = pair.Read(1, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(1, regs::kCtrlOffset, ctrl & ~regs::kCtrlEnable.Mask()));
  ASSERT_TRUE(RunUntilLtssm(pair, 0, kLtssmPolling, kTrainCycles));
  ASSERT_TRUE(RunUntilLtssm(pair, 0, kLtssmDetect, kTrainCycles))
      << "a silent partner: Polling.Active times out to Detect (24 ms)";

  pair.set_mutator(0, SpoilTs2());
  ASSERT_TRUE(pair.Write(1, regs::kCtrlOffset, ctrl));
  ASSERT_TRUE(RunUntilLtssm(pair, 0, kLtssmConfig, kTrainCycles));
  ASSERT_TRUE(RunUntilLtssm(pair, 0, kLtssmDetect, kTrainCycles))
      << "no acceptable TS2: Configuration times out to Detect (24 ms)";
  EXPECT_FALSE(pair.top(0).link_up_o);

  pair.set_mutator(0, nullptr);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles * 4));
  pair.set_mutator(0, SpoilTs2());
  RequestRetrain(pair, 0);
  ASSERT_TRUE(RunUntilLtssm(pair, 0, kLtssmDetect, kTrainCycles * 2))
      << "no acceptable TS2 in Recovery.RcvrCfg: timeout, link down";
  EXPECT_EQ(pair.Read(0, regs::kLinkDownsOffset), 1u)
      << "a Recovery timeout is a link-down (DLL-6.8)";
}

TEST(LcTop, DLL_6_9_GoodNopInIdleEntersL0AtOnce) {
  LinkPair pair(kSeed + 27);
  // Spoil the first IDLE flits towards side 1 (a CRC byte, not re-sealed), so
  // side 0 reaches L0 while side 1 still waits for 8 good IDLE flits: only
  // side 0's NOPs can bring side 1 to L0 before its 2 ms Idle timeout.
  auto spoiled = std::make_shared<unsigned>(0);
  pair.set_mutator(1, [spoiled](Bytes& c) {
    if ((c[kDlpOffset] >> kTypeShift) !=
            static_cast<unsigned>(flit::FlitType::kIdle) ||
        *spoiled == kSpoiledIdleFlits) {
      return false;
    }
    ++*spoiled;
    c[kCrcOffset] ^= 0xFF;
    return true;
  });
  const uint64_t end = pair.cycles() + kTrainCycles;
  while (!pair.top(0).link_up_o && pair.cycles() < end) {
    pair.Step();
  }
  ASSERT_TRUE(pair.top(0).link_up_o);
  EXPECT_FALSE(pair.top(1).link_up_o)
      << "side 1 is still in Configuration.Idle";
  ASSERT_TRUE(pair.RunUntilLinkUp(kIdleTimeoutCycles / 2))
      << "side 1 follows into L0 on side 0's first good NOP";
  EXPECT_EQ(pair.Read(1, regs::kLinkDownsOffset), 0u);
  ASSERT_TRUE(pair.RunTraffic(1000, 20000));
  pair.Drain(2000);
  ExpectClean(pair);
}

TEST(LcTop, DLL_6_13_PartnerBackFromDetectTakesTheLinkDown) {
  LinkPair pair(kSeed + 22);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  RestartFromDetect(pair, 1);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles * 4));
  EXPECT_EQ(pair.Read(0, regs::kLinkDownsOffset), 1u)
      << "side 0 never left L0 by itself, yet the partner's Polling training "
         "sets (in_recovery = 0) must take its link down, not resume it";
  const uint64_t before = pair.report(0).delivered;
  ASSERT_TRUE(pair.RunTraffic(before + 1000, 40000))
      << "both sides start afresh: sequence numbers and credits agree";
  for (unsigned side = 0; side < kSides; ++side) {
    EXPECT_EQ(pair.report(side).duplicated, 0u);
    EXPECT_EQ(pair.report(side).corrupted, 0u);
  }
}

TEST(LcTop, DLL_4_2_StaleAckIsIgnoredAndCountedAsProtocolError) {
  LinkPair pair(kSeed + 21);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(200, 20000));
  // The first ACK towards side 0 gets an ack_seq 512 away from the true one:
  // beyond anything outstanding. The CRC is re-sealed so only DLL-4.2 can
  // catch it.
  auto done = std::make_shared<bool>(false);
  pair.set_mutator(0, [done](Bytes& c) {
    const auto command =
        static_cast<flit::ReplayCommand>(c[kDlpOffset + 2] >> kReplayShift);
    if (*done || command != flit::ReplayCommand::kAck) {
      return false;
    }
    *done = true;
    c[kDlpOffset + 2] ^= kAckSeqBit9;
    Reseal(c);
    return true;
  });
  ASSERT_TRUE(pair.RunTraffic(1500, 40000));
  pair.Drain(2000);
  EXPECT_EQ(pair.Read(0, regs::kProtocolErrorsOffset), 1u)
      << "the stale ACK is counted";
  EXPECT_EQ(pair.Read(0, regs::kCrcErrorsOffset), 0u) << "it was a good flit";
  EXPECT_EQ(pair.Read(1, regs::kProtocolErrorsOffset), 0u);
  ExpectClean(pair, 0);
}

TEST(LcTop, DLL_6_6_RetrainRequestGoesThroughRecovery) {
  LinkPair pair(kSeed + 7);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(300, 20000));
  const uint32_t ctrl = pair.Read(1, regs::kCtrlOffset);
  ASSERT_TRUE(
      pair.Write(1, regs::kCtrlOffset, ctrl | regs::kCtrlRetrain.Mask()));
  EXPECT_EQ(regs::kStatusLtssm.Read(pair.Read(1, regs::kStatusOffset)),
            kLtssmRecovery)
      << "CTRL.RETRAIN sends an L0 link to RECOVERY";
  EXPECT_EQ(regs::kCtrlRetrain.Read(pair.Read(1, regs::kCtrlOffset)), 0u)
      << "pulse fields read 0 (DLL-8.5)";
  ASSERT_TRUE(pair.RunTraffic(1500, 100000))
      << "traffic resumes after the retrain";
  pair.Drain(2000);
  ExpectClean(pair);
  EXPECT_EQ(pair.Read(1, regs::kRetrainsOffset), 1u)
      << "RETRAINS counts the entry to Recovery";
  EXPECT_GE(pair.Read(0, regs::kRetrainsOffset), 1u)
      << "the partner follows into Recovery";
  EXPECT_EQ(pair.Read(0, regs::kLinkDownsOffset), 0u)
      << "credits and sequence survive (DLL-5.7)";
}

TEST(LcCsr, DLL_8_3_RejectsIllegalWrites_fail) {
  LinkPair pair(kSeed + 8);
  const uint32_t ctrl = pair.Read(0, regs::kCtrlOffset);
  EXPECT_FALSE(pair.Write(0, regs::kCtrlOffset, ctrl | (1u << 31)))
      << "reserved bit set";
  EXPECT_FALSE(
      pair.Write(0, regs::kCtrlOffset, ctrl & ~regs::kCtrlTargetWidth.Mask()))
      << "TARGET_WIDTH NONE is illegal";
  EXPECT_FALSE(pair.Write(0, regs::kCtrlOffset,
                          (ctrl & ~regs::kCtrlTargetWidth.Mask()) |
                              (3u << regs::kCtrlTargetWidth.lsb)))
      << "TARGET_WIDTH 3 is no enum value";
  EXPECT_EQ(pair.Read(0, regs::kCtrlOffset), ctrl)
      << "a rejected write changes nothing";
  EXPECT_FALSE(pair.Write(0, regs::kReplayTimeoutOffset, 374))
      << "below the UCIe minimum 375";
  EXPECT_TRUE(pair.Write(0, regs::kReplayTimeoutOffset, 400));
  EXPECT_EQ(pair.Read(0, regs::kReplayTimeoutOffset), 400u);
  EXPECT_FALSE(pair.Write(0, regs::kStatusOffset, 0))
      << "STATUS has no writable field";
  EXPECT_FALSE(pair.Write(0, regs::kCrcErrorsOffset, 0))
      << "counters are read-only";
  EXPECT_FALSE(pair.Write(0, 0x030, 0)) << "DLL-8.1: no register at 0x030";
  EXPECT_FALSE(pair.Write(0, regs::kCtrlOffset + 1, ctrl))
      << "unaligned access";
  EXPECT_EQ(pair.Read(0, regs::kIdOffset), 0x01014c43u)
      << "ID identifies the block";
}

TEST(LcCsr, DLL_8_5_IrqStatusIsWriteOneToClear) {
  LinkPair pair(kSeed + 9);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  const uint32_t up = regs::kIrqStatusLinkUp.Mask();
  EXPECT_EQ(pair.top(0).irq_o, 0)
      << "a cause without its enable keeps the line low";
  ASSERT_TRUE(pair.Write(0, regs::kIrqEnableOffset, up));
  EXPECT_EQ(pair.top(0).irq_o, 1)
      << "DLL-7.6: line = OR(IRQ_STATUS & IRQ_ENABLE)";
  ASSERT_TRUE(pair.Write(0, regs::kIrqStatusOffset, 0));
  EXPECT_EQ(pair.Read(0, regs::kIrqStatusOffset) & up, up)
      << "writing 0 leaves the bit";
  ASSERT_TRUE(pair.Write(0, regs::kIrqStatusOffset, up));
  EXPECT_EQ(pair.Read(0, regs::kIrqStatusOffset) & up, 0u)
      << "writing 1 clears the bit";
  EXPECT_EQ(pair.top(0).irq_o, 0) << "the line drops with the cleared cause";
}

TEST(LcCsr, DLL_8_4_CntClearZeroesCounters) {
  LinkPair pair(kSeed + 10);
  ASSERT_TRUE(pair.RunUntilLinkUp(kTrainCycles));
  ASSERT_TRUE(pair.RunTraffic(100, 10000));
  ASSERT_GT(pair.ReadCounter64(0, regs::kTxFlitsLoOffset), 0u);
  const uint32_t ctrl = pair.Read(0, regs::kCtrlOffset);
  pair.set_sending(false);
  pair.Drain(200);
  ASSERT_TRUE(
      pair.Write(0, regs::kCtrlOffset, ctrl | regs::kCtrlCntClear.Mask()));
  EXPECT_EQ(pair.ReadCounter64(0, regs::kTxFlitsLoOffset), 0u)
      << "CNT_CLEAR zeroes TX_FLITS";
  EXPECT_EQ(pair.ReadCounter64(0, regs::kRxFlitsLoOffset), 0u)
      << "CNT_CLEAR zeroes RX_FLITS";
}

}  // namespace
}  // namespace lq::rtl
