// SPDX-License-Identifier: Apache-2.0
// Checks that tshark decodes a pcap of mixed transport traffic as RoCEv2
// with no malformed packets and with the BTH fields that were written.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "models/pcap/pcap_writer.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"
#include "models/roce/psn.h"
#include "models/roce/sample_packets.h"
#include "testbench/models/pcap/tshark.h"

namespace lq::pcap {
namespace {

using roce::Opcode;
using roce::RocePacket;
using testing::FindTshark;
using testing::RunCommand;

// SEND, WRITE, READ request and responses, both atomics with their ACK,
// ACK, NAK, RNR NAK and CNP, with distinct QPNs and PSNs near the wrap.
std::vector<RocePacket> MixedTraffic() {
  std::vector<RocePacket> packets;
  uint32_t psn = 0xFFFFF8;
  uint32_t qpn = 0x100;
  auto add = [&](RocePacket packet) {
    packet.bth.psn = psn;
    packet.bth.dest_qp = qpn;
    psn = (psn + 1) & roce::kPsnMask;
    qpn += 0x101;
    packets.push_back(std::move(packet));
  };
  for (Opcode opcode :
       {Opcode::kSendFirst, Opcode::kSendMiddle, Opcode::kSendLast,
        Opcode::kSendOnly, Opcode::kSendOnlyWithImmediate, Opcode::kWriteFirst,
        Opcode::kWriteMiddle, Opcode::kWriteLastWithImmediate,
        Opcode::kWriteOnly, Opcode::kReadRequest, Opcode::kReadResponseFirst,
        Opcode::kReadResponseMiddle, Opcode::kReadResponseLast,
        Opcode::kReadResponseOnly, Opcode::kCompareSwap, Opcode::kFetchAdd,
        Opcode::kAtomicAcknowledge}) {
    add(roce::testing::SamplePacket(opcode, 256));
  }
  const roce::Path path = roce::testing::SamplePath();
  add(roce::MakeAcknowledge(path, 0, roce::Aeth::Ack(9)));
  add(roce::MakeAcknowledge(
      path, 0, roce::Aeth::Nak(9, roce::NakCode::kPsnSequenceError)));
  add(roce::MakeAcknowledge(path, 0, roce::Aeth::RnrNak(9, 12)));
  RocePacket cnp = roce::MakeCnp(path);
  add(cnp);
  packets.back().bth.psn = 0;  // A CNP's PSN is always 0 (TRN-9.4).
  return packets;
}

TEST(PcapTshark, TRN_1_8_TsharkDecodesMixedCapture) {
  const std::string tshark = FindTshark();
  if (tshark.empty()) {
    GTEST_SKIP() << "tshark not found on PATH; install it with "
                    "scripts/setup-deps (Debian package tshark)";
  }
  char dir_template[] = "/tmp/lqemu-pcap-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr) << "cannot create a temp dir";
  const std::string file = std::string(dir_template) + "/mixed.pcap";

  const std::vector<RocePacket> packets = MixedTraffic();
  {
    Result<PcapWriter> writer = PcapWriter::ToFile(file);
    ASSERT_TRUE(writer.ok()) << writer.error().reason;
    uint64_t time_ps = 0;
    for (const RocePacket& packet : packets) {
      Result<Bytes> frame = roce::BuildPacket(packet);
      ASSERT_TRUE(frame.ok()) << frame.error().reason;
      ASSERT_TRUE(writer.value().Write(time_ps, *frame).ok());
      time_ps += 1'234'567;
    }
    ASSERT_TRUE(writer.value().Flush().ok());
  }

  const std::string read = "'" + tshark + "' -n -r '" + file + "' ";
  EXPECT_EQ(
      RunCommand(read + "-Y '_ws.malformed || _ws.expert.severity == error' "
                        "2>/dev/null"),
      "")
      << "tshark found malformed packets or errors";

  std::istringstream decoded(
      RunCommand(read +
                 "-Y infiniband -T fields -e infiniband.bth.opcode "
                 "-e infiniband.bth.destqp -e infiniband.bth.psn 2>/dev/null"));
  std::string line;
  size_t index = 0;
  while (std::getline(decoded, line)) {
    ASSERT_LT(index, packets.size()) << "more packets decoded than written";
    const roce::Bth& bth = packets[index].bth;
    std::ostringstream expected;
    expected << int{bth.opcode} << "\t0x" << std::hex;
    expected.width(6);
    expected.fill('0');
    expected << bth.dest_qp << "\t" << std::dec << bth.psn;
    EXPECT_EQ(line, expected.str()) << "BTH fields of packet " << index;
    ++index;
  }
  EXPECT_EQ(index, packets.size())
      << "every packet must be decoded as InfiniBand/RoCE";
  std::filesystem::remove_all(dir_template);
}

}  // namespace
}  // namespace lq::pcap
