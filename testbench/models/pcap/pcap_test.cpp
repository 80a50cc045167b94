// SPDX-License-Identifier: Apache-2.0
// Tests of the pcap writer and the strict pcap reader.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "models/pcap/pcap_format.h"
#include "models/pcap/pcap_reader.h"
#include "models/pcap/pcap_writer.h"

namespace lq::pcap {
namespace {

Bytes ToBytes(const std::string& text) {
  return Bytes(text.begin(), text.end());
}

// A capture of three frames written to memory.
Bytes SampleCapture() {
  std::ostringstream out;
  Result<PcapWriter> writer = PcapWriter::ToStream(out);
  EXPECT_TRUE(writer.ok());
  writer.value().Write(0, Bytes{1, 2, 3});
  writer.value().Write(1'500'000'123'456, Bytes(70, 0xAB));
  writer.value().Write(2'000'000'000'999, Bytes{});
  writer.value().Flush();
  return ToBytes(out.str());
}

TEST(Pcap, TRN_1_8_WriteThenReadBack) {
  const Bytes bytes = SampleCapture();
  EXPECT_EQ(LoadLittleEndian(bytes.data(), 4), kMagicNanoseconds)
      << "nanosecond magic, little-endian";
  Result<PcapCapture> capture = ParsePcap(bytes);
  ASSERT_TRUE(capture.ok()) << capture.error().reason;
  EXPECT_TRUE(capture->nanosecond) << "nanosecond resolution";
  EXPECT_EQ(capture->link_type, kLinkTypeEthernet) << "LINKTYPE_ETHERNET";
  EXPECT_EQ(capture->snap_length, kDefaultSnapLength) << "snap length";
  ASSERT_EQ(capture->records.size(), 3u) << "three records";
  EXPECT_EQ(capture->records[0].data, (Bytes{1, 2, 3})) << "first frame";
  EXPECT_EQ(capture->records[1].time_ps, 1'500'000'123'000u)
      << "1.500000123 s: picoseconds below a nanosecond are dropped";
  EXPECT_EQ(capture->records[1].data, Bytes(70, 0xAB)) << "second frame";
  EXPECT_EQ(capture->records[2].time_ps, 2'000'000'000'000u) << "third time";
  EXPECT_TRUE(capture->records[2].data.empty()) << "empty frame allowed";
}

TEST(Pcap, TRN_1_8_SnapLengthCutsLongFrames) {
  std::ostringstream out;
  PcapWriter writer = PcapWriter::ToStream(out, 16).value();
  ASSERT_EQ(*writer.Write(5, Bytes(100, 7)), kRecordHeaderSize + 16)
      << "record holds only the snap length";
  Result<PcapCapture> capture = ParsePcap(ToBytes(out.str()));
  ASSERT_TRUE(capture.ok()) << capture.error().reason;
  EXPECT_EQ(capture->records[0].data.size(), 16u) << "captured part";
  EXPECT_EQ(capture->records[0].original_length, 100u) << "original length";
}

TEST(Pcap, TRN_1_8_UnwritableFileIsAnErrorNotACrash) {
  Result<PcapWriter> writer =
      PcapWriter::ToFile("/nonexistent-dir/lqemu/capture.pcap");
  ASSERT_FALSE(writer.ok()) << "cannot create a file in a missing directory";
  EXPECT_NE(writer.error().reason.find("/nonexistent-dir"), std::string::npos)
      << "the message names the file";
  EXPECT_FALSE(ReadPcapFile("/nonexistent-dir/x.pcap").ok()) << "no file";
}

TEST(Pcap, TRN_1_8_ReadsBigEndianMicrosecondFiles) {
  const Bytes bytes = {0xA1, 0xB2, 0xC3, 0xD4, 0, 2, 0, 4,    0,   0, 0,
                       0,    0,    0,    0,    0, 0, 0, 1,    0,   0, 0,
                       0,    1,    0,    0,    0, 3, 0, 0,    0,   9, 0,
                       0,    0,    2,    0,    0, 0, 2, 0xAA, 0xBB};
  Result<PcapCapture> capture = ParsePcap(bytes);
  ASSERT_TRUE(capture.ok()) << capture.error().reason;
  EXPECT_FALSE(capture->nanosecond) << "microsecond magic";
  EXPECT_EQ(capture->snap_length, 256u) << "big-endian field";
  EXPECT_EQ(capture->records[0].time_ps, 3'000'009'000'000u) << "3 s + 9 us";
  EXPECT_EQ(capture->records[0].data, (Bytes{0xAA, 0xBB})) << "data";
}

TEST(Pcap, TRN_1_8_RejectsMalformedCaptures) {
  const Bytes good = SampleCapture();
  auto reject = [](const Bytes& bytes, const char* reason) {
    Result<PcapCapture> capture = ParsePcap(bytes);
    ASSERT_FALSE(capture.ok()) << "expected rejection: " << reason;
    EXPECT_NE(capture.error().reason.find(reason), std::string::npos)
        << capture.error().reason;
  };
  reject(Bytes(good.begin(), good.begin() + 23), "truncated pcap global");
  Bytes magic = good;
  magic[0] ^= 0xFF;
  reject(magic, "magic");
  Bytes version = good;
  version[4] = 3;
  reject(version, "version");
  reject(Bytes(good.begin(), good.begin() + kGlobalHeaderSize + 10),
         "truncated pcap record header");
  reject(Bytes(good.begin(), good.begin() + kGlobalHeaderSize + 18),
         "truncated pcap record data");
  // The first record header's fields, rewritten.
  auto with_field = [&good](size_t offset, uint32_t value) {
    Bytes bytes = good;
    for (size_t i = 0; i < sizeof(value); ++i) {
      bytes.at(kGlobalHeaderSize + offset + i) =
          static_cast<uint8_t>(value >> (8 * i));
    }
    return bytes;
  };
  reject(with_field(kFractionOffset, 1'000'000'000), "fraction");
  reject(with_field(kOriginalLengthOffset, 2),
         "longer than the snap or original length");
}

TEST(Pcap, TRN_1_8_EveryTruncationIsRejectedOrARecordBoundary) {
  const Bytes good = SampleCapture();
  const size_t boundaries[] = {
      kGlobalHeaderSize, kGlobalHeaderSize + kRecordHeaderSize + 3,
      kGlobalHeaderSize + 2 * kRecordHeaderSize + 73, good.size()};
  for (size_t size = 0; size <= good.size(); ++size) {
    const bool boundary =
        std::find(std::begin(boundaries), std::end(boundaries), size) !=
        std::end(boundaries);
    EXPECT_EQ(ParsePcap(Bytes(good.begin(), good.begin() + size)).ok(),
              boundary)
        << "capture cut to " << size << " bytes";
  }
}

}  // namespace
}  // namespace lq::pcap
