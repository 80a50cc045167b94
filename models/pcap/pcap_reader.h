// SPDX-License-Identifier: Apache-2.0
// Strict reader of classic pcap files (either byte order, microsecond or
// nanosecond timestamps), for tests and tools that inspect captures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::pcap {

struct PcapRecord {
  uint64_t time_ps = 0;
  uint32_t original_length = 0;
  Bytes data;  // The captured bytes (at most the snap length).
};

struct PcapCapture {
  bool nanosecond = false;
  uint32_t snap_length = 0;
  uint32_t link_type = 0;
  std::vector<PcapRecord> records;
};

// Rejects an unknown magic or version, a truncated global or record header
// or record, a timestamp fraction of a second or more, and a record longer
// than the snap length or than its original length.
Result<PcapCapture> ParsePcap(ByteView bytes);

// Reads and parses a whole file.
Result<PcapCapture> ReadPcapFile(const std::string& path);

}  // namespace lq::pcap
