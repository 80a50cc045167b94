// SPDX-License-Identifier: Apache-2.0
// Tests of the BTH and extension-header byte layouts.
#include "models/roce/ib_headers.h"

#include <gtest/gtest.h>

namespace lq::roce {
namespace {

// The BTH of protocol-facts §7's ICRC example.
const Bytes kVectorBth = {0x04, 0x40, 0xff, 0xff, 0x00, 0x00,
                          0x00, 0x11, 0x80, 0x00, 0x01, 0x00};

TEST(IbHeaders, TRN_2_1_BthFieldsOfTheVector) {
  Result<Bth> bth = Bth::Parse(kVectorBth);
  ASSERT_TRUE(bth.ok()) << bth.error().reason;
  EXPECT_EQ(bth->opcode, 0x04) << "SEND_ONLY";
  EXPECT_TRUE(bth->mig_req) << "M bit";
  EXPECT_EQ(bth->pkey, 0xFFFF) << "default P_Key";
  EXPECT_EQ(bth->dest_qp, 0x11u) << "DestQP";
  EXPECT_TRUE(bth->ack_req) << "AckReq";
  EXPECT_EQ(bth->psn, 0x100u) << "PSN";
  Bytes encoded(Bth::kSize);
  bth->Encode(encoded.data());
  EXPECT_EQ(encoded, kVectorBth) << "BTH must re-encode bit for bit";
}

TEST(IbHeaders, TRN_2_1_BthBitPositions) {
  Bth bth;
  bth.opcode = 0x0A;
  bth.solicited_event = true;
  bth.mig_req = false;
  bth.pad_count = 3;
  bth.pkey = 0x8001;
  bth.fecn = true;
  bth.becn = true;
  bth.dest_qp = 0xABCDEF;
  bth.ack_req = false;
  bth.psn = 0xFEDCBA;
  Bytes encoded(Bth::kSize);
  bth.Encode(encoded.data());
  EXPECT_EQ(encoded, (Bytes{0x0A, 0xB0, 0x80, 0x01, 0xC0, 0xAB, 0xCD, 0xEF,
                            0x00, 0xFE, 0xDC, 0xBA}))
      << "SE=bit7, PadCnt=bits5:4, FECN/BECN=bits7:6 of byte 4";
  EXPECT_EQ(*Bth::Parse(encoded), bth) << "BTH round trip";
}

TEST(IbHeaders, TRN_2_2_ReservedBitsIgnoredOnReceipt) {
  Bytes with_reserved = kVectorBth;
  with_reserved[4] |= 0x3F;  // resv6
  with_reserved[8] |= 0x7F;  // resv7
  EXPECT_EQ(*Bth::Parse(with_reserved), *Bth::Parse(kVectorBth))
      << "reserved bits must not change the parsed header";
}

TEST(IbHeaders, TRN_2_4_RethLayout) {
  const Reth reth{0x0102030405060708, 0x090A0B0C, 0x0D0E0F10};
  Bytes encoded(Reth::kSize);
  reth.Encode(encoded.data());
  EXPECT_EQ(encoded,
            (Bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
      << "VA, R_Key, DMA length, big-endian";
  EXPECT_EQ(*Reth::Parse(encoded), reth) << "RETH round trip";
}

TEST(IbHeaders, TRN_2_5_AtomicHeadersLayout) {
  const AtomicEth atomic{0x1000, 0x22, 0x3333, 0x4444};
  Bytes encoded(AtomicEth::kSize);
  atomic.Encode(encoded.data());
  EXPECT_EQ(encoded[7], 0x00) << "VA low byte";
  EXPECT_EQ(encoded[6], 0x10) << "VA second byte";
  EXPECT_EQ(encoded[11], 0x22) << "R_Key at bytes 8..11";
  EXPECT_EQ(encoded[19], 0x33) << "Swap/Add at bytes 12..19";
  EXPECT_EQ(encoded[27], 0x44) << "Compare at bytes 20..27";
  EXPECT_EQ(*AtomicEth::Parse(encoded), atomic) << "AtomicETH round trip";
  const AtomicAckEth ack{0x0102030405060708};
  Bytes ack_bytes(AtomicAckEth::kSize);
  ack.Encode(ack_bytes.data());
  EXPECT_EQ(ack_bytes, (Bytes{1, 2, 3, 4, 5, 6, 7, 8})) << "original value";
  EXPECT_EQ(*AtomicAckEth::Parse(ack_bytes), ack) << "AtomicAckETH round trip";
}

TEST(IbHeaders, TRN_2_6_AethSyndromes) {
  EXPECT_EQ(Aeth::Ack(1).syndrome, 0x1F) << "ACK with unlimited credits";
  EXPECT_EQ(Aeth::RnrNak(1, 12).syndrome, 0x2C) << "RNR NAK, timer 12";
  EXPECT_EQ(Aeth::Nak(1, NakCode::kPsnSequenceError).syndrome, 0x60)
      << "NAK PSN sequence error";
  EXPECT_EQ(Aeth::Nak(1, NakCode::kRemoteOperationalError).syndrome, 0x63)
      << "NAK remote operational error";
  EXPECT_EQ(Aeth::RnrNak(1, 12).type(), AethType::kRnrNak) << "type bits";
  EXPECT_EQ(Aeth::RnrNak(1, 12).value(), 12) << "timer code bits";
  const Aeth aeth = Aeth::Nak(0xABCDEF, NakCode::kInvalidRequest);
  Bytes encoded(Aeth::kSize);
  aeth.Encode(encoded.data());
  EXPECT_EQ(encoded, (Bytes{0x61, 0xAB, 0xCD, 0xEF})) << "syndrome then MSN";
  EXPECT_EQ(*Aeth::Parse(encoded), aeth) << "AETH round trip";
}

TEST(IbHeaders, TRN_2_6_RejectsReservedSyndromes) {
  for (uint8_t syndrome : {0x80, 0x40, 0x5F, 0x65, 0x7F, 0xFF}) {
    const Bytes bytes = {syndrome, 0, 0, 1};
    EXPECT_FALSE(Aeth::Parse(bytes).ok())
        << "syndrome 0x" << std::hex << int{syndrome} << " is reserved";
  }
  EXPECT_TRUE(Aeth::Parse(Bytes{0x64, 0, 0, 1}).ok())
      << "NAK code 4 (invalid RD request) is defined";
}

TEST(IbHeaders, TRN_2_7_ImmDtLayout) {
  Bytes encoded(ImmDt::kSize);
  ImmDt{0x01020304}.Encode(encoded.data());
  EXPECT_EQ(encoded, (Bytes{1, 2, 3, 4})) << "immediate, big-endian";
  EXPECT_EQ(ImmDt::Parse(encoded)->immediate, 0x01020304u) << "round trip";
}

TEST(IbHeaders, TRN_2_1_RejectsTruncatedHeaders) {
  const Bytes short_bytes(3, 0);
  EXPECT_FALSE(Bth::Parse(ByteView(kVectorBth.data(), 11)).ok()) << "BTH";
  EXPECT_FALSE(Reth::Parse(short_bytes).ok()) << "RETH";
  EXPECT_FALSE(Aeth::Parse(short_bytes).ok()) << "AETH";
  EXPECT_FALSE(AtomicEth::Parse(short_bytes).ok()) << "AtomicETH";
  EXPECT_FALSE(AtomicAckEth::Parse(short_bytes).ok()) << "AtomicAckETH";
  EXPECT_FALSE(ImmDt::Parse(short_bytes).ok()) << "ImmDt";
}

}  // namespace
}  // namespace lq::roce
