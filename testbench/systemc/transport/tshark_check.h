// SPDX-License-Identifier: Apache-2.0
// A check shared by the transport engine tests: what the engines sent, as
// a pcap, decodes in tshark (TRN-1.8).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "models/common/bytes.h"
#include "models/pcap/pcap_writer.h"
#include "models/roce/opcode.h"
#include "models/roce/packet.h"
#include "testbench/models/pcap/tshark.h"

namespace lq::transport {

// TRN-1.8: frames the engines sent (with their times in ps), written as a
// pcap, decode in tshark with nothing malformed, every one as RoCEv2 with
// the opcode, destination QP and PSN that were sent, and each of
// `expected` among them. Skips when tshark is missing.
inline void ExpectTsharkDecodes(std::vector<std::pair<uint64_t, Bytes>> frames,
                                const std::vector<roce::Opcode>& expected) {
  const std::string tshark = testing::FindTshark();
  if (tshark.empty()) {
    GTEST_SKIP() << "tshark not found; scripts/setup-deps installs it";
  }
  ASSERT_FALSE(frames.empty());
  char dir[] = "/tmp/lqemu-engine-pcap-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/engines.pcap";
  std::stable_sort(
      frames.begin(), frames.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  {
    auto writer = pcap::PcapWriter::ToFile(file);
    ASSERT_TRUE(writer.ok()) << writer.error().reason;
    for (const auto& [at_ps, frame] : frames) {
      ASSERT_TRUE(writer.value().Write(at_ps, frame).ok());
    }
    ASSERT_TRUE(writer.value().Flush().ok());
  }
  const std::string read = "'" + tshark + "' -n -r '" + file + "' ";
  EXPECT_EQ(testing::RunCommand(
                read + "-Y '_ws.malformed || _ws.expert.severity == error' "
                       "2>/dev/null"),
            "")
      << "tshark found malformed packets or errors";
  // Per frame, in capture order: what tshark read against what was sent.
  std::istringstream decoded(testing::RunCommand(
      read +
      "-T fields -E separator=, -e infiniband.bth.opcode "
      "-e infiniband.bth.destqp -e infiniband.bth.psn 2>/dev/null"));
  std::multiset<int> opcodes;
  std::string line;
  size_t index = 0;
  while (std::getline(decoded, line) && index < frames.size()) {
    const auto sent = roce::ParsePacket(frames[index].second);
    ASSERT_TRUE(sent.ok()) << "frame " << index;
    std::istringstream fields(line);
    std::string opcode, qp, psn;
    std::getline(fields, opcode, ',');
    std::getline(fields, qp, ',');
    std::getline(fields, psn, ',');
    ASSERT_FALSE(opcode.empty()) << "frame " << index << " is not RoCEv2";
    EXPECT_EQ(std::stoul(opcode, nullptr, 0), sent->bth.opcode)
        << "frame " << index;
    EXPECT_EQ(std::stoul(qp, nullptr, 0), sent->bth.dest_qp)
        << "frame " << index;
    EXPECT_EQ(std::stoul(psn, nullptr, 0), sent->bth.psn) << "frame " << index;
    opcodes.insert(sent->bth.opcode);
    ++index;
  }
  EXPECT_EQ(index, frames.size()) << "tshark read every frame";
  for (const roce::Opcode op : expected) {
    EXPECT_GT(opcodes.count(static_cast<int>(op)), 0u)
        << "no " << static_cast<int>(op) << " decoded";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace lq::transport
