// SPDX-License-Identifier: Apache-2.0
// pcap parsing with byte-order detection from the magic number.
#include "models/pcap/pcap_reader.h"

#include <fstream>
#include <iterator>
#include <limits>
#include <utility>

#include "models/pcap/pcap_format.h"

namespace lq::pcap {
namespace {

constexpr size_t kU16 = sizeof(uint16_t);
constexpr size_t kU32 = sizeof(uint32_t);

// Reads fields in the byte order the file's magic number revealed.
class FieldReader {
 public:
  explicit FieldReader(bool big_endian) : big_endian_(big_endian) {}
  uint32_t Load(const uint8_t* p, size_t width) const {
    return static_cast<uint32_t>(big_endian_ ? LoadBigEndian(p, width)
                                             : LoadLittleEndian(p, width));
  }

 private:
  bool big_endian_;
};

}  // namespace

Result<PcapCapture> ParsePcap(ByteView bytes) {
  if (bytes.size() < kGlobalHeaderSize) {
    return Fail("truncated pcap global header", bytes.size());
  }
  const uint32_t magic = static_cast<uint32_t>(
      LoadLittleEndian(bytes.data() + kMagicOffset, kU32));
  const uint32_t swapped =
      static_cast<uint32_t>(LoadBigEndian(bytes.data() + kMagicOffset, kU32));
  PcapCapture capture;
  bool big_endian = false;
  if (magic == kMagicNanoseconds || magic == kMagicMicroseconds) {
    capture.nanosecond = magic == kMagicNanoseconds;
  } else if (swapped == kMagicNanoseconds || swapped == kMagicMicroseconds) {
    capture.nanosecond = swapped == kMagicNanoseconds;
    big_endian = true;
  } else {
    return Fail("not a pcap file (unknown magic number)", kMagicOffset);
  }
  const FieldReader field(big_endian);
  if (field.Load(bytes.data() + kVersionMajorOffset, kU16) != kVersionMajor ||
      field.Load(bytes.data() + kVersionMinorOffset, kU16) != kVersionMinor) {
    return Fail("pcap version is not 2.4", kVersionMajorOffset);
  }
  capture.snap_length = field.Load(bytes.data() + kSnapLengthOffset, kU32);
  capture.link_type = field.Load(bytes.data() + kLinkTypeOffset, kU32);

  const uint32_t fraction_limit =
      capture.nanosecond ? kNanosecondsPerSecond : kMicrosecondsPerSecond;
  const uint64_t ps_per_fraction = capture.nanosecond
                                       ? kPicosecondsPerNanosecond
                                       : kPicosecondsPerMicrosecond;
  size_t offset = kGlobalHeaderSize;
  while (offset < bytes.size()) {
    if (bytes.size() - offset < kRecordHeaderSize) {
      return Fail("truncated pcap record header", offset);
    }
    const uint8_t* header = bytes.data() + offset;
    const uint32_t seconds = field.Load(header + kSecondsOffset, kU32);
    const uint32_t fraction = field.Load(header + kFractionOffset, kU32);
    const uint32_t included = field.Load(header + kIncludedLengthOffset, kU32);
    PcapRecord record;
    record.original_length = field.Load(header + kOriginalLengthOffset, kU32);
    if (seconds >
        std::numeric_limits<uint64_t>::max() / kPicosecondsPerSecond) {
      return Fail("pcap timestamp beyond 2^64 picoseconds",
                  offset + kSecondsOffset);
    }
    if (fraction >= fraction_limit) {
      return Fail("pcap timestamp fraction is a second or more",
                  offset + kFractionOffset);
    }
    if (included > capture.snap_length || included > record.original_length) {
      return Fail("pcap record longer than the snap or original length",
                  offset + kIncludedLengthOffset);
    }
    offset += kRecordHeaderSize;
    if (bytes.size() - offset < included) {
      return Fail("truncated pcap record data", bytes.size());
    }
    record.time_ps =
        seconds * kPicosecondsPerSecond + fraction * ps_per_fraction;
    record.data.assign(bytes.data() + offset, bytes.data() + offset + included);
    capture.records.push_back(std::move(record));
    offset += included;
  }
  return capture;
}

Result<PcapCapture> ReadPcapFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return Fail("cannot open capture file " + path);
  }
  const Bytes bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  if (file.bad()) {
    return Fail("cannot read capture file " + path);
  }
  Result<PcapCapture> capture = ParsePcap(bytes);
  if (!capture) {
    return Error{path + ": " + capture.error().reason, capture.error().offset};
  }
  return capture;
}

}  // namespace lq::pcap
