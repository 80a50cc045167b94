// SPDX-License-Identifier: Apache-2.0
// Tests of the text form of injected faults (models/phy/fault_event.h).
#include "models/phy/fault_event.h"

#include <gtest/gtest.h>

namespace lq::phy {
namespace {

using Action = FaultCommand::Action;

TEST(FaultEvent, ReadsLinkAndLaneFaultsWithTheirTimes) {
  const auto cut = ParseTimedFault("13ms link cut 0 2");
  ASSERT_TRUE(cut.ok()) << cut.error().reason;
  EXPECT_DOUBLE_EQ(cut->at_ns, 13e6);
  EXPECT_EQ(cut->command.action, Action::kLinkCut);
  EXPECT_EQ(cut->command.node, 0u);
  EXPECT_EQ(cut->command.port, 2u);
  EXPECT_EQ(cut->command.Describe(), "link cut node 0 port 2");

  const auto lane = ParseTimedFault("  2.5us\tlane fail 3 1 15 ");
  ASSERT_TRUE(lane.ok()) << lane.error().reason;
  EXPECT_DOUBLE_EQ(lane->at_ns, 2500);
  EXPECT_EQ(lane->command.Describe(), "lane fail node 3 port 1 lane 15");

  for (const auto& [text, ns] :
       {std::pair{"7ns link repair 1 0", 7.0}, {"1s lane repair 0 0 0", 1e9}}) {
    const auto fault = ParseTimedFault(text);
    ASSERT_TRUE(fault.ok()) << text << ": " << fault.error().reason;
    EXPECT_DOUBLE_EQ(fault->at_ns, ns) << text;
  }
}

TEST(FaultEvent, ReadsABerChangeWithItsRate) {
  const auto raise = ParseTimedFault("5ms ber 1 3 1e-5");
  ASSERT_TRUE(raise.ok()) << raise.error().reason;
  EXPECT_EQ(raise->command.action, Action::kBer);
  EXPECT_EQ(raise->command.node, 1u);
  EXPECT_EQ(raise->command.port, 3u);
  EXPECT_DOUBLE_EQ(raise->command.ber, 1e-5);
  EXPECT_EQ(raise->command.Describe(), "ber node 1 port 3 to 1e-05");
  const auto back = ParseFaultCommand("ber 1 3 0");
  ASSERT_TRUE(back.ok()) << back.error().reason;
  EXPECT_DOUBLE_EQ(back->ber, 0);
  for (const char* text : {"ber 1 3", "ber 1 3 0.5", "ber 1 3 -1e-5",
                           "ber 1 3 x", "ber 1 3 1e-5 1", "ber x 3 1e-5"}) {
    EXPECT_FALSE(ParseFaultCommand(text).ok()) << "'" << text << "'";
  }
}

TEST(FaultEvent, ReadsANodeFailureAndReset) {
  const auto fail = ParseTimedFault("3ms node fail 5");
  ASSERT_TRUE(fail.ok()) << fail.error().reason;
  EXPECT_EQ(fail->command.action, Action::kNodeFail);
  EXPECT_TRUE(fail->command.node_action());
  EXPECT_EQ(fail->command.node, 5u);
  EXPECT_EQ(fail->command.Describe(), "node 5 fails");
  const auto reset = ParseFaultCommand("node reset 2");
  ASSERT_TRUE(reset.ok()) << reset.error().reason;
  EXPECT_EQ(reset->action, Action::kNodeReset);
  EXPECT_EQ(reset->Describe(), "node 2 resets");
  for (const char* text : {"node fail", "node fail 5 0", "node fail x",
                           "node die 5", "node 5", "node reset"}) {
    EXPECT_FALSE(ParseFaultCommand(text).ok()) << "'" << text << "'";
  }
}

TEST(FaultEvent, MonitorCommandsHaveNoTime) {
  const auto command = ParseFaultCommand("link repair 4 5");
  ASSERT_TRUE(command.ok()) << command.error().reason;
  EXPECT_EQ(command->action, Action::kLinkRepair);
  EXPECT_EQ(command->node, 4u);
  EXPECT_EQ(command->port, 5u);
  EXPECT_FALSE(ParseFaultCommand("13ms link cut 0 2").ok());
}

TEST(FaultEvent, AListKeepsItsOrderAndSkipsEmptyEntries) {
  const auto faults =
      ParseTimedFaults("13ms link cut 0 2; ;14ms link repair 0 2;");
  ASSERT_TRUE(faults.ok()) << faults.error().reason;
  ASSERT_EQ(faults->size(), 2u);
  EXPECT_EQ((*faults)[0].command.action, Action::kLinkCut);
  EXPECT_EQ((*faults)[1].command.action, Action::kLinkRepair);
  EXPECT_DOUBLE_EQ((*faults)[1].at_ns, 14e6);
  EXPECT_TRUE(ParseTimedFaults("")->empty());
}

TEST(FaultEvent, BadTextIsRefusedWithTheFormToWrite_fail) {
  for (const char* text :
       {"", "13ms", "link cut 0 2", "13 link cut 0 2", "13hours link cut 0 2",
        "-1ms link cut 0 2", "1e3ms link cut 0 2", "13ms link snip 0 2",
        "13ms link cut 0", "13ms link cut 0 2 1", "13ms lane fail 0 2",
        "13ms link cut x 2", "13ms link cut 0 -2",
        "13ms link cut 0 99999999999", "1000001s link cut 0 2",
        "99999999999999999999999999999999s link cut 0 2"}) {
    const auto fault = ParseTimedFault(text);
    EXPECT_FALSE(fault.ok()) << "'" << text << "' must be refused";
  }
  const auto wrong = ParseTimedFault("13ms link snip 0 2");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().reason.find("link cut|repair NODE PORT"),
            std::string::npos)
      << wrong.error().reason;
  const auto list = ParseTimedFaults("13ms link cut 0 2; 14ms link mend 0 2");
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.error().reason.find("link mend"), std::string::npos)
      << "the error quotes the entry: " << list.error().reason;
}

}  // namespace
}  // namespace lq::phy
