// SPDX-License-Identifier: Apache-2.0
// pcap global header and record encoding, always little-endian on disk.
#include "models/pcap/pcap_writer.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace lq::pcap {
namespace {

constexpr size_t kU16 = sizeof(uint16_t);
constexpr size_t kU32 = sizeof(uint32_t);

bool WriteBytes(std::ostream& out, const uint8_t* data, size_t size) {
  out.write(reinterpret_cast<const char*>(data),
            static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}

}  // namespace

PcapWriter::PcapWriter(std::unique_ptr<std::ofstream> file, std::ostream* out,
                       uint32_t snap_length)
    : file_(std::move(file)), out_(out), snap_length_(snap_length) {}

Result<PcapWriter> PcapWriter::ToStream(std::ostream& out,
                                        uint32_t snap_length) {
  if (snap_length == 0) {
    return Fail("pcap snap length must be positive");
  }
  std::array<uint8_t, kGlobalHeaderSize> header{};
  StoreLittleEndian(&header[kMagicOffset], kU32, kMagicNanoseconds);
  StoreLittleEndian(&header[kVersionMajorOffset], kU16, kVersionMajor);
  StoreLittleEndian(&header[kVersionMinorOffset], kU16, kVersionMinor);
  StoreLittleEndian(&header[kThisZoneOffset], kU32, 0);
  StoreLittleEndian(&header[kSigFigsOffset], kU32, 0);
  StoreLittleEndian(&header[kSnapLengthOffset], kU32, snap_length);
  StoreLittleEndian(&header[kLinkTypeOffset], kU32, kLinkTypeEthernet);
  if (!WriteBytes(out, header.data(), header.size())) {
    return Fail("cannot write the pcap global header");
  }
  return PcapWriter(nullptr, &out, snap_length);
}

Result<PcapWriter> PcapWriter::ToFile(const std::string& path,
                                      uint32_t snap_length) {
  auto file = std::make_unique<std::ofstream>(
      path, std::ios::binary | std::ios::out | std::ios::trunc);
  if (!*file) {
    return Fail("cannot open capture file " + path + " for writing");
  }
  Result<PcapWriter> writer = ToStream(*file, snap_length);
  if (!writer) {
    return Fail(writer.error().reason + " to " + path);
  }
  // The writer's stream pointer stays valid: the ofstream lives on the heap.
  PcapWriter owner = std::move(writer).value();
  owner.file_ = std::move(file);
  return owner;
}

Result<size_t> PcapWriter::Write(uint64_t time_ps, ByteView frame) {
  // 2^64 ps is about 213 days: the seconds always fit pcap's 32 bits.
  const uint64_t seconds = time_ps / kPicosecondsPerSecond;
  if (frame.size() > std::numeric_limits<uint32_t>::max()) {
    return Fail("frame longer than a pcap record can describe");
  }
  const uint64_t nanoseconds =
      time_ps % kPicosecondsPerSecond / kPicosecondsPerNanosecond;
  const size_t included = std::min<size_t>(frame.size(), snap_length_);
  std::array<uint8_t, kRecordHeaderSize> header{};
  StoreLittleEndian(&header[kSecondsOffset], kU32, seconds);
  StoreLittleEndian(&header[kFractionOffset], kU32, nanoseconds);
  StoreLittleEndian(&header[kIncludedLengthOffset], kU32, included);
  StoreLittleEndian(&header[kOriginalLengthOffset], kU32, frame.size());
  if (!WriteBytes(*out_, header.data(), header.size()) ||
      !WriteBytes(*out_, frame.data(), included)) {
    return Fail("cannot write pcap record " + std::to_string(records_));
  }
  ++records_;
  return header.size() + included;
}

Result<uint64_t> PcapWriter::Flush() {
  out_->flush();
  if (!*out_) {
    return Fail("cannot flush the capture");
  }
  return records_;
}

}  // namespace lq::pcap
