// SPDX-License-Identifier: Apache-2.0
// Tests of StatWriter: a component reports exactly the statistics it
// declares, under its prefix and in the order it reports them.
#include "systemc/common/component_decl.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace lq {
namespace {

const ComponentDecl& Widget() {
  static const ComponentDecl decl{
      "widget",
      "a test component",
      {{"in", "slot socket", "what comes in"}},
      {{"sent", "things sent"},
       {"lost", "things lost"},
       {"port<p>.tc<t>.paused_ps", "a family of two placeholders"}}};
  return decl;
}

TEST(StatWriter, ReportsDeclaredStatisticsUnderThePrefixInOrder) {
  StatWriter stats(Widget(), "node3.widget.");
  stats.Add("lost", 2).Add("sent", 5).Add("port<p>.tc<t>.paused_ps", {"1", "6"},
                                          40);
  const StatList list = stats.Take();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].name, "node3.widget.lost");
  EXPECT_EQ(list[0].value, 2u);
  EXPECT_EQ(list[1].name, "node3.widget.sent");
  EXPECT_EQ(list[2].name, "node3.widget.port1.tc6.paused_ps");
  EXPECT_EQ(list[2].value, 40u);
}

TEST(StatWriter, RefusesAStatisticTheComponentDoesNotDeclare) {
  StatWriter stats(Widget(), "w.");
  EXPECT_THROW(stats.Add("dropped", 1), std::logic_error);
}

TEST(StatWriter, RefusesAFamilyWithoutItsValues) {
  StatWriter stats(Widget(), "w.");
  EXPECT_THROW(stats.Add("port<p>.tc<t>.paused_ps", 1), std::logic_error);
  EXPECT_THROW(stats.Add("port<p>.tc<t>.paused_ps", {"1"}, 1),
               std::logic_error);
  EXPECT_THROW(stats.Add("port<p>.tc<t>.paused_ps", {"1", "2", "3"}, 1),
               std::logic_error);
}

TEST(StatWriter, InsistsOnEveryDeclaredSingleStatistic) {
  StatWriter stats(Widget(), "w.");
  stats.Add("sent", 1);  // "lost" missing; a family may be empty
  EXPECT_THROW(stats.Take(), std::logic_error);
}

}  // namespace
}  // namespace lq
