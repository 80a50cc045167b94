// SPDX-License-Identifier: Apache-2.0
// Writes captured frames as a classic nanosecond-resolution pcap file
// (LINKTYPE_ETHERNET) with simulated timestamps, for --pcap captures.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/pcap/pcap_format.h"

namespace lq::pcap {

class PcapWriter {
 public:
  // Writes the global header to `out`, which must outlive the writer.
  static Result<PcapWriter> ToStream(std::ostream& out,
                                     uint32_t snap_length = kDefaultSnapLength);
  // Creates or truncates `path` and writes the global header.
  static Result<PcapWriter> ToFile(const std::string& path,
                                   uint32_t snap_length = kDefaultSnapLength);

  // Appends `frame` (an Ethernet frame without FCS) seen at simulated time
  // `time_ps`. A frame longer than the snap length is cut to it; its record
  // keeps the original length. Returns the record's size in bytes.
  Result<size_t> Write(uint64_t time_ps, ByteView frame);

  // Pushes buffered records to the stream; returns the records written.
  Result<uint64_t> Flush();

  uint64_t records() const { return records_; }

 private:
  PcapWriter(std::unique_ptr<std::ofstream> file, std::ostream* out,
             uint32_t snap_length);

  std::unique_ptr<std::ofstream> file_;  // Set when the writer owns a file.
  std::ostream* out_;
  uint32_t snap_length_;
  uint64_t records_ = 0;
};

}  // namespace lq::pcap
