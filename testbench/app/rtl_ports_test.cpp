// SPDX-License-Identifier: Apache-2.0
// Tests of link.rtl_ports's parser (NODE or NODE:PORT entries, ports of the
// nodes, each named once), of link.vcd_trigger's, and of the waveform file
// names --vcd writes.
#include "systemc/app/rtl_ports.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "models/link/ltssm.h"

namespace lq::app {
namespace {

// Eight nodes of six ports, as a 2x2x2 torus has.
Result<std::set<NodePort>> Parse(const std::string& text) {
  return ParseRtlPorts(text, 8, [](uint32_t) { return 6u; });
}

TEST(RtlPorts, ParsesNodesAndSinglePorts) {
  const auto ports = Parse("3:5,0");
  ASSERT_TRUE(ports.ok()) << ports.error().reason;
  std::set<NodePort> expected = {{3, 5}};
  for (uint32_t port = 0; port < 6; ++port) {
    expected.insert({0, port});  // "0": every port of node 0
  }
  EXPECT_EQ(*ports, expected);
  const auto none = Parse("");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty()) << "every controller is the TL model";
}

TEST(RtlPorts, RefusesMalformedEntriesWithAReason_fail) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"8", "node: 8 is outside 0..7"},
      {"0:6", "port: 6 is outside 0..5"},
      {"x", "node: expected a number, got 'x'"},
      {"1:", "port: expected a number, got ''"},
      {":1", "node: expected a number, got ''"},
      {"-1", "expected a number"},
      {"123456789012345678901234567890", "expected a number"},
      {"0:1:2", "port: expected a number, got '1:2'"},
      {"0,0:3", "port 3 of node 0 is named twice"},
      {"2:1,2:1", "port 1 of node 2 is named twice"},
      {"1,", "an empty entry after the last comma"},
      {",1", "node: expected a number, got ''"},
  };
  for (const auto& [text, reason] : cases) {
    const auto ports = Parse(text);
    ASSERT_FALSE(ports.ok()) << text;
    EXPECT_NE(ports.error().reason.find(reason), std::string::npos)
        << text << ": " << ports.error().reason;
  }
}

TEST(RtlPorts, RefusesANodeWithoutPorts_fail) {
  const auto ports = ParseRtlPorts("0", 1, [](uint32_t) { return 0u; });
  ASSERT_FALSE(ports.ok());
  EXPECT_EQ(ports.error().reason, "\"0\": node 0 has no ports");
  const auto nodes = ParseRtlPorts("0", 0, [](uint32_t) { return 6u; });
  ASSERT_FALSE(nodes.ok());
  EXPECT_EQ(nodes.error().reason, "there are no nodes");
}

TEST(RtlPorts, VcdTriggerNamesAStateOrARegister) {
  const auto none = ParseVcdTrigger("");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->triggered());
  const auto state = ParseVcdTrigger("ltssm Recovery.RcvrLock");
  ASSERT_TRUE(state.ok()) << state.error().reason;
  EXPECT_EQ(state->open_on_ltssm,
            static_cast<unsigned>(link::LtssmState::kRecoveryLock));
  EXPECT_FALSE(state->open_on_write);
  const auto write = ParseVcdTrigger("write IRQ_ENABLE");
  ASSERT_TRUE(write.ok()) << write.error().reason;
  EXPECT_EQ(write->open_on_write, regs::lc::kIrqEnableOffset);
}

TEST(RtlPorts, VcdTriggerRefusesWhatItCannotWatch_fail) {
  for (const char* text :
       {"ltssm", "ltssm L1", "write", "write ctrl", "write CTRL now", "at 3"}) {
    EXPECT_FALSE(ParseVcdTrigger(text).ok()) << text;
  }
}

TEST(RtlPorts, NamesOneWaveformFilePerPort) {
  EXPECT_EQ(RtlPortVcdPath("w.vcd", {0, 2}), "w.node0.port2.vcd");
  EXPECT_EQ(RtlPortVcdPath("out/run.1/w.vcd", {12, 5}),
            "out/run.1/w.node12.port5.vcd");
  EXPECT_EQ(RtlPortVcdPath("out/run.1/waves", {3, 0}),
            "out/run.1/waves.node3.port0");
}

}  // namespace
}  // namespace lq::app
