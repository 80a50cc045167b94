// SPDX-License-Identifier: Apache-2.0
// The link bring-up firmware under a link fault: a board with two ports
// boots link_bringup_watch.elf, its links train, then port 0's cable is cut
// and repaired while the firmware watches. The firmware must see LINK_DOWN
// through the PLIC, ask for a retrain, see the link come back, and end with
// both ports up; port 1 must not notice.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/firmware_image.h"

namespace lq::cluster {
namespace {

using sc_core::SC_MS;
using sc_core::sc_time;

bool Printed(const std::vector<std::string>& console, const std::string& text) {
  return std::find(console.begin(), console.end(), text) != console.end();
}

TEST(BoardLinkFaultTest, FirmwareSeesLinkDownAndTheLinkComesBack) {
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  ASSERT_TRUE(image.ok()) << image.error().reason;

  std::vector<std::string> console;
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  config.on_console_line = [&](const std::string&, const std::string& line) {
    console.push_back(line);
  };
  Cluster cluster("cluster", config, 2);
  ASSERT_TRUE(cluster.Load(*image).ok());

  // The cut fails every lane of both directions (PHY-5.6); the repair ends
  // it. Both lie inside the firmware's 20 ms watch, and the cut outlasts
  // Recovery's scaled timeout (240 us), so the link goes down. (Failed lanes
  // carry bit-by-bit noise: the half millisecond of cut dominates the
  // test's run time.)
  LinkPort& near = cluster.node(0).port(0);
  LinkPort& far = cluster.partner(0);
  for (phy::PhyPort* phy : {&near.phy, &far.phy}) {
    phy->ScheduleLaneFailure(phy->AllLanes(), sc_time(3, SC_MS));
    phy->ScheduleLaneRepair(phy->AllLanes(), sc_time(3500, sc_core::SC_US));
  }
  sc_core::sc_start(sc_time(100, SC_MS));

  std::string transcript;
  for (const auto& line : console) {
    transcript += line + "\n";
  }
  EXPECT_EQ(cluster.finished_nodes(), 1u) << transcript;
  EXPECT_EQ(cluster.node(0).board().exit_status(), 0)
      << "both links must be up when the watch ends\n"
      << transcript;
  EXPECT_TRUE(std::any_of(console.begin(), console.end(),
                          [](const std::string& line) {
                            return line.rfind("link bring-up: 2 of 2 ports up",
                                              0) == 0;
                          }))
      << "bring-up before the fault\n"
      << transcript;
  EXPECT_TRUE(std::any_of(console.begin(), console.end(),
                          [](const std::string& line) {
                            return line.rfind(
                                       "port 0: link down, retrain "
                                       "requested",
                                       0) == 0;
                          }))
      << "the LINK_DOWN interrupt reached the firmware\n"
      << transcript;
  EXPECT_TRUE(Printed(console, "port 0: link up again x16 64 GT/s"))
      << "the repaired link trained again at full width\n"
      << transcript;
  EXPECT_TRUE(std::none_of(console.begin(), console.end(),
                           [](const std::string& line) {
                             return line.rfind("port 1: link down", 0) == 0;
                           }))
      << "port 1's link was never touched\n"
      << transcript;
  EXPECT_TRUE(Printed(console, "link watch: 2 of 2 ports up at the end"))
      << transcript;
}

}  // namespace
}  // namespace lq::cluster
