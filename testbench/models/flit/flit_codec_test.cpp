// SPDX-License-Identifier: Apache-2.0
// Tests of whole-flit encoding and decoding per profile: layout, CRC, FEC
// correction, and that damaged flits are never delivered as good.
#include "models/flit/flit_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "models/fec/reed_solomon.h"
#include "models/flit/interleaved_rs_fec.h"
#include "models/flit/kp4_fec.h"
#include "models/flit/training_set.h"
#include "models/phy/bit_error_channel.h"

namespace lq::flit {
namespace {

phy::LinkProfile Pcie6() { return phy::FindLinkProfile("pcie6").value(); }
phy::LinkProfile Ib() { return phy::FindLinkProfile("ib").value(); }

// Bit-at-a-time CRC-64/XZ, independent of the table-driven engine.
uint64_t ReferenceCrc64Xz(const uint8_t* data, size_t size) {
  constexpr uint64_t kReflectedPoly = 0xC96C5795D7870F42;
  uint64_t reg = ~uint64_t{0};
  for (size_t i = 0; i < size; ++i) {
    reg ^= data[i];
    for (int bit = 0; bit < 8; ++bit) {
      reg = (reg & 1) ? (reg >> 1) ^ kReflectedPoly : reg >> 1;
    }
  }
  return ~reg;
}

DlpHeader PayloadHeader(uint16_t seq) {
  DlpHeader header;
  header.type = FlitType::kPayload;
  header.payload_vc = 2;
  header.flit_seq = seq;
  header.replay = ReplayCommand::kAck;
  header.ack_seq = 1000;
  header.credit_vc = 3;
  header.credit_count = 77;
  return header;
}

Bytes RandomPayload(size_t size, std::mt19937_64& rng) {
  Bytes payload(size);
  for (uint8_t& byte : payload) {
    byte = static_cast<uint8_t>(rng());
  }
  return payload;
}

// Rewrites the FEC part after the content was edited, so that only the
// check under test (CRC, DLP, pad) sees the edit.
void Reprotect(const phy::LinkProfile& profile, Bytes& wire) {
  FlitFecFor(profile.fec).Protect(wire.data());
}

TEST(FlitCodec, PHY_2_1_Pcie6BytesSitWhereTheLayoutTableSays) {
  std::mt19937_64 rng(1);
  const Bytes payload = RandomPayload(236, rng);
  const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(5), payload).value();
  ASSERT_EQ(wire.size(), 256u);
  EXPECT_EQ(Bytes(wire.begin(), wire.begin() + 236), payload) << "0..235";
  const DlpBytes dlp = EncodeDlp(PayloadHeader(5)).value();
  EXPECT_EQ(Bytes(wire.begin() + 236, wire.begin() + 242),
            Bytes(dlp.begin(), dlp.end()))
      << "DLP in 236..241";
  EXPECT_EQ(LoadBigEndian(&wire[242], 8), ReferenceCrc64Xz(wire.data(), 242))
      << "242..249: CRC-64/XZ of bytes 0..241, big-endian (PHY-2.3)";
}

TEST(FlitCodec, PHY_2_3_CrcCoversHeaderAndPayloadInBothProfiles) {
  std::mt19937_64 rng(2);
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    const Bytes wire = EncodeFlit(profile, PayloadHeader(9),
                                  RandomPayload(profile.payload_bytes, rng))
                           .value();
    EXPECT_EQ(LoadBigEndian(&wire[CrcOffset(profile)], kFlitCrcBytes),
              ReferenceCrc64Xz(wire.data(), CrcOffset(profile)))
        << profile.name;
    // A content change with consistent FEC must be caught by the CRC alone.
    for (size_t byte : {size_t{0}, DlpOffset(profile) + 5}) {
      Bytes bad = wire;
      bad[byte] ^= 0x01;
      Reprotect(profile, bad);
      const auto decoded = DecodeFlit(profile, bad);
      ASSERT_FALSE(decoded.ok()) << profile.name << " byte " << byte;
      EXPECT_EQ(decoded.error().reason, "CRC mismatch");
      EXPECT_EQ(decoded.error().offset, CrcOffset(profile));
    }
  }
}

TEST(FlitCodec, PHY_2_2_CrcIsStoredMostSignificantByteFirst) {
  const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(6), {}).value();
  const uint64_t crc = ReferenceCrc64Xz(wire.data(), 242);
  for (size_t i = 0; i < kFlitCrcBytes; ++i) {
    EXPECT_EQ(wire[242 + i], static_cast<uint8_t>(crc >> (56 - 8 * i)))
        << "CRC byte " << i << " must be big-endian";
  }
}

TEST(FlitCodec, PHY_2_5_TrainingFlitCarriesATrainingSet) {
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    TrainingSet ts;
    ts.kind = TrainingSetKind::kTs2;
    ts.profile_id = profile.wire_id;
    ts.rx_lane_mask = 0x3;
    ts.proposed_width = 2;
    ts.initial_credits = {64, 64, 0, 4095};
    DlpHeader header;
    header.type = FlitType::kTraining;
    const Bytes slot = EncodeTrainingSet(profile, ts).value();
    const auto decoded =
        DecodeFlit(profile, EncodeFlit(profile, header, slot).value());
    ASSERT_TRUE(decoded.ok()) << decoded.error().reason;
    EXPECT_EQ(decoded->header, header);
    EXPECT_EQ(ParseTrainingSet(profile, decoded->payload).value(), ts)
        << profile.name << ": the slot carries the record unchanged";
  }
}

TEST(FlitCodec, PHY_2_4_RoundTripsAndZeroPadsShortPayloads) {
  std::mt19937_64 rng(3);
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    const Bytes payload = RandomPayload(100, rng);
    const auto decoded = DecodeFlit(
        profile, EncodeFlit(profile, PayloadHeader(1023), payload).value());
    ASSERT_TRUE(decoded.ok()) << decoded.error().reason;
    EXPECT_EQ(decoded->header, PayloadHeader(1023));
    Bytes padded = payload;
    padded.resize(profile.payload_bytes, 0);
    EXPECT_EQ(decoded->payload, padded) << "the slot is zero-padded";
    EXPECT_EQ(decoded->fec.symbols_corrected, 0u) << "no errors injected";
  }
}

TEST(FlitCodec, PHY_2_4_RejectsPayloadLongerThanTheSlot_fail) {
  const auto too_long = EncodeFlit(Pcie6(), PayloadHeader(0), Bytes(237, 1));
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.error().reason,
            "payload of 237 bytes exceeds the 236-byte slot of pcie6");
  EXPECT_FALSE(EncodeFlit(Ib(), PayloadHeader(0), Bytes(629, 1)).ok());
}

TEST(FlitCodec, PHY_2_6_IdleAndNopFlitsCarryAZeroSlot) {
  DlpHeader nop;
  nop.type = FlitType::kNop;
  nop.flit_seq = 17;
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    const Bytes wire = EncodeFlit(profile, nop, {}).value();
    const auto decoded = DecodeFlit(profile, wire);
    ASSERT_TRUE(decoded.ok()) << decoded.error().reason;
    EXPECT_TRUE(decoded->payload.empty()) << "a NOP delivers no payload";
    EXPECT_EQ(decoded->header, nop);

    EXPECT_EQ(EncodeFlit(profile, nop, Bytes(1, 0)).error().reason,
              "NOP flit cannot carry payload");
    // A rogue sender: stray slot byte, with CRC and FEC made to match.
    Bytes bad = wire;
    bad[40] = 0x01;
    StoreBigEndian(&bad[CrcOffset(profile)], kFlitCrcBytes,
                   ReferenceCrc64Xz(bad.data(), CrcOffset(profile)));
    Reprotect(profile, bad);
    const auto rejected = DecodeFlit(profile, bad);
    ASSERT_FALSE(rejected.ok()) << "the slot of a NOP is reserved";
    EXPECT_EQ(rejected.error().reason, "non-zero payload in NOP flit");
    EXPECT_EQ(rejected.error().offset, 40u);
  }
}

TEST(FlitCodec, PHY_2_7_RejectsWrongLength_fail) {
  const auto short_flit = DecodeFlit(Pcie6(), Bytes(255, 0));
  ASSERT_FALSE(short_flit.ok());
  EXPECT_EQ(short_flit.error().reason, "wrong length 255, expected 256");
  EXPECT_EQ(DecodeFlit(Ib(), Bytes(256, 0)).error().reason,
            "wrong length 256, expected 680");
}

TEST(FlitCodec, DLL_1_3_RejectsReservedDlpBitsBehindAGoodCrc) {
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    Bytes wire = EncodeFlit(profile, PayloadHeader(3), {}).value();
    wire[DlpOffset(profile) + 2] |= 0x08;
    StoreBigEndian(&wire[CrcOffset(profile)], kFlitCrcBytes,
                   ReferenceCrc64Xz(wire.data(), CrcOffset(profile)));
    Reprotect(profile, wire);
    const auto decoded = DecodeFlit(profile, wire);
    ASSERT_FALSE(decoded.ok()) << "a good CRC does not excuse reserved bits";
    EXPECT_EQ(decoded.error().reason,
              "reserved DLP bits set (byte 2 bits 0x08)");
    EXPECT_EQ(decoded.error().offset, DlpOffset(profile) + 2)
        << "offsets count from the start of the flit";
  }
}

TEST(FlitCodec, PHY_3_1_ByteIBelongsToCodewordIModThree) {
  std::mt19937_64 rng(4);
  const Bytes wire =
      EncodeFlit(Pcie6(), PayloadHeader(1), RandomPayload(236, rng)).value();
  const InterleavedRsFec fec;
  for (size_t index = 0; index < 3; ++index) {
    const fec::ReedSolomon& rs = fec.code(index);
    EXPECT_EQ(rs.n(), index == 0 ? 86u : 85u) << "256 = 86 + 85 + 85";
    // Evaluate the gathered bytes at both generator roots: zero means the
    // bytes i = index mod 3 form a codeword on their own.
    for (fec::Symbol root : {1, 2}) {
      fec::Symbol value = 0;
      for (size_t i = index; i < 256; i += 3) {
        value = rs.field().Mul(value, root) ^ wire[i];
      }
      EXPECT_EQ(value, 0) << "codeword " << index << " at root " << root;
    }
  }
}

TEST(FlitCodec, PHY_3_3_EverySingleByteErrorIsCorrected) {
  std::mt19937_64 rng(5);
  const Bytes payload = RandomPayload(236, rng);
  const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(77), payload).value();
  for (size_t byte = 0; byte < wire.size(); ++byte) {
    for (uint8_t error : {0x01, 0x80, 0xFF}) {
      Bytes bad = wire;
      bad[byte] ^= error;
      const auto decoded = DecodeFlit(Pcie6(), bad);
      ASSERT_TRUE(decoded.ok())
          << "byte " << byte << ": " << decoded.error().reason;
      ASSERT_EQ(decoded->payload, payload) << "byte " << byte;
      ASSERT_EQ(decoded->header, PayloadHeader(77)) << "byte " << byte;
      ASSERT_EQ(decoded->fec.symbols_corrected, 1u) << "byte " << byte;
    }
  }
}

TEST(FlitCodec, PHY_3_3_OneErrorInEachCodewordIsCorrected) {
  std::mt19937_64 rng(6);
  const Bytes payload = RandomPayload(236, rng);
  const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(8), payload).value();
  for (size_t start = 0; start + 2 < wire.size(); ++start) {
    Bytes bad = wire;
    // Three consecutive bytes: a lane burst of up to 3 bytes (PHY-4.1).
    bad[start] ^= 0xA5;
    bad[start + 1] ^= 0x5A;
    bad[start + 2] ^= 0xFF;
    const auto decoded = DecodeFlit(Pcie6(), bad);
    ASSERT_TRUE(decoded.ok()) << "bytes " << start << ".." << start + 2;
    ASSERT_EQ(decoded->payload, payload);
    ASSERT_EQ(decoded->fec.codewords_corrected, 3u);
  }
}

TEST(FlitCodec, PHY_3_7_TwoErrorsInOneCodewordAreNeverDelivered) {
  std::mt19937_64 rng(7);
  int caught_by_fec = 0;
  int caught_by_crc = 0;
  constexpr int kTrials = 20000;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(trial % 1024),
                                  RandomPayload(236, rng))
                           .value();
    const size_t first = rng() % 256;
    size_t second = first;
    while (second == first) {
      second = (first % 3) + 3 * (rng() % (first % 3 == 0 ? 86 : 85));
    }
    Bytes bad = wire;
    bad[first] ^= static_cast<uint8_t>(1 + rng() % 255);
    bad[second] ^= static_cast<uint8_t>(1 + rng() % 255);
    const auto decoded = DecodeFlit(Pcie6(), bad);
    ASSERT_FALSE(decoded.ok())
        << "bytes " << first << " and " << second << " delivered as good data";
    if (decoded.error().reason == "CRC mismatch") {
      ++caught_by_crc;
    } else {
      ++caught_by_fec;
    }
  }
  EXPECT_GT(caught_by_fec, kTrials / 2) << "the FEC detects most";
  EXPECT_GT(caught_by_crc, 0) << "the CRC catches what the FEC miscorrects";
}

TEST(FlitCodec, PHY_3_5_UncorrectableCodewordIsNamed) {
  std::mt19937_64 rng(12);
  const Bytes wire = EncodeFlit(Pcie6(), PayloadHeader(0), {}).value();
  for (size_t index = 0; index < 3; ++index) {
    int named = 0;
    for (int trial = 0; trial < 30; ++trial) {
      Bytes bad = wire;
      bad[index + 3 * (trial + 1)] ^= static_cast<uint8_t>(1 + rng() % 255);
      bad[index + 3 * (trial + 40)] ^= static_cast<uint8_t>(1 + rng() % 255);
      const auto decoded = DecodeFlit(Pcie6(), bad);
      ASSERT_FALSE(decoded.ok()) << "two errors in codeword " << index;
      if (decoded.error().reason != "CRC mismatch") {
        EXPECT_EQ(decoded.error().reason,
                  "FEC uncorrectable in codeword " + std::to_string(index));
        EXPECT_EQ(decoded.error().offset, index)
            << "the offset is the codeword's first byte";
        ++named;
      }
    }
    EXPECT_GT(named, 0) << "most double errors are FEC-detected";
  }
}

TEST(FlitCodec, PHY_2_8_IbContentIsPackedMsbFirstIntoTenBitSymbols) {
  std::mt19937_64 rng(8);
  const Bytes payload = RandomPayload(628, rng);
  const Bytes wire = EncodeFlit(Ib(), PayloadHeader(4), payload).value();
  ASSERT_EQ(wire.size(), 680u);
  EXPECT_EQ(Bytes(wire.begin(), wire.begin() + 628), payload)
      << "the systematic code leaves the content bytes as they were";
  EXPECT_EQ(LoadBigEndian(&wire[634], 8), ReferenceCrc64Xz(wire.data(), 634))
      << "634..641: CRC over payload and DLP";
  EXPECT_EQ(wire[642] & 0xF0, 0) << "four zero pad bits follow the content";

  Kp4Fec::SymbolBlock symbols;
  Kp4Fec::Unpack(wire.data(), symbols);
  EXPECT_EQ(symbols[0], (wire[0] << 2) | (wire[1] >> 6))
      << "symbol 0 is the first 10 bits, MSB first";
  EXPECT_EQ(symbols[513], ((wire[641] & 0x3F) << 4))
      << "symbol 513 is the last 6 content bits and the 4 pad bits";
  const Kp4Fec kp4;
  for (int j = 0; j < 30; ++j) {
    fec::Symbol value = 0;
    const fec::Symbol root = kp4.code().field().Exp(j);
    for (fec::Symbol s : symbols) {
      value = kp4.code().field().Mul(value, root) ^ s;
    }
    ASSERT_EQ(value, 0) << "the 544 symbols form an RS(544,514) codeword";
  }
}

TEST(FlitCodec, PHY_2_8_RejectsNonZeroPadBits) {
  const Kp4Fec kp4;
  Bytes wire = EncodeFlit(Ib(), PayloadHeader(4), {}).value();
  Kp4Fec::SymbolBlock symbols;
  Kp4Fec::Unpack(wire.data(), symbols);
  symbols[513] |= 0x1;  // A pad bit, with parity recomputed to match.
  kp4.code().Encode(symbols.data(), symbols.data() + 514);
  Kp4Fec::Pack(symbols, wire.data());
  const auto decoded = DecodeFlit(Ib(), wire);
  ASSERT_FALSE(decoded.ok()) << "pad bits are reserved";
  EXPECT_EQ(decoded.error().reason, "non-zero pad bits in FEC block");
  EXPECT_EQ(decoded.error().offset, 642u);
}

TEST(FlitCodec, PHY_3_4_IbCorrectsAnySingleSymbolAndUpToFifteen) {
  std::mt19937_64 rng(9);
  const Bytes payload = RandomPayload(628, rng);
  const Bytes wire = EncodeFlit(Ib(), PayloadHeader(600), payload).value();
  for (size_t byte = 0; byte < wire.size(); ++byte) {
    Bytes bad = wire;
    bad[byte] ^= 0x81;  // May straddle two symbols; still within t.
    const auto decoded = DecodeFlit(Ib(), bad);
    ASSERT_TRUE(decoded.ok())
        << "byte " << byte << ": " << decoded.error().reason;
    ASSERT_EQ(decoded->payload, payload);
  }
  // Fifteen damaged symbols: one bit in each of 15 distinct symbols.
  Bytes bad = wire;
  for (int s = 0; s < 15; ++s) {
    const size_t bit = 10 * (s * 36 + 3);
    bad[bit / 8] ^= static_cast<uint8_t>(0x80 >> (bit % 8));
  }
  const auto decoded = DecodeFlit(Ib(), bad);
  ASSERT_TRUE(decoded.ok()) << decoded.error().reason;
  EXPECT_EQ(decoded->payload, payload);
  EXPECT_EQ(decoded->fec.symbols_corrected, 15u);
}

TEST(FlitCodec, PHY_3_4_BurstsUpTo141BitsAreCorrectedInIb) {
  std::mt19937_64 rng(13);
  const Bytes payload = RandomPayload(628, rng);
  const Bytes wire = EncodeFlit(Ib(), PayloadHeader(2), payload).value();
  for (size_t start = 0; start + 141 <= wire.size() * 8; start += 97) {
    Bytes bad = wire;
    for (size_t bit = start; bit < start + 141; ++bit) {
      bad[bit / 8] ^= static_cast<uint8_t>(0x80 >> (bit % 8));
    }
    const auto decoded = DecodeFlit(Ib(), bad);
    ASSERT_TRUE(decoded.ok()) << "141-bit burst at bit " << start;
    ASSERT_EQ(decoded->payload, payload);
    ASSERT_LE(decoded->fec.symbols_corrected, 15u);
  }
}

TEST(FlitCodec, PHY_3_6_IbBeyondFifteenSymbolsIsNeverDelivered) {
  std::mt19937_64 rng(10);
  int rejected = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Bytes payload = RandomPayload(628, rng);
    Bytes bad = EncodeFlit(Ib(), PayloadHeader(1), payload).value();
    for (int e = 0; e < 16 + trial % 40; ++e) {
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    }
    const auto decoded = DecodeFlit(Ib(), bad);
    if (decoded.ok()) {
      // Repeated positions can leave 15 or fewer damaged symbols; then the
      // flit must come out exactly as sent.
      EXPECT_EQ(decoded->payload, payload) << "corrupted payload delivered";
    } else {
      ++rejected;
      EXPECT_EQ(decoded.error().reason, "FEC uncorrectable in codeword 0");
    }
  }
  EXPECT_GT(rejected, 190) << "16+ damaged bytes almost always exceed t = 15";
}

TEST(FlitCodec, PHY_5_4_FailedLaneMakesEveryFlitBad) {
  std::mt19937_64 rng(11);
  phy::BitErrorChannel channel = phy::BitErrorChannel::Create({}, 12).value();
  for (const phy::LinkProfile& profile : {Pcie6(), Ib()}) {
    for (int trial = 0; trial < 50; ++trial) {
      Bytes wire = EncodeFlit(profile, PayloadHeader(trial),
                              RandomPayload(profile.payload_bytes, rng))
                       .value();
      channel.CorruptLane(profile, profile.max_lanes, trial % profile.max_lanes,
                          wire.data(), wire.size());
      EXPECT_FALSE(DecodeFlit(profile, wire).ok())
          << profile.name << ": a dead lane must not yield good flits";
    }
  }
}

}  // namespace
}  // namespace lq::flit
