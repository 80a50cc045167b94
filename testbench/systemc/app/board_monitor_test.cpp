// SPDX-License-Identifier: Apache-2.0
// GDB's monitor commands on a board run (AnswerMonitor): help, the
// simulated time, and faults applied at once through the run's injector,
// with an error for what cannot be done.
#include "systemc/app/board_monitor.h"

#include <gtest/gtest.h>

#include <string>
#include <systemc>

#include "models/topology/topology_registry.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/common/tl_cards.h"

namespace lq::app {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(BoardMonitorTest, AnswersHelpTimeAndFaultsAppliedNow) {
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "3x1"}}).value();
  const cluster::ClusterConfig config = testing::TlCards(topology);
  cluster::Cluster cluster("cluster", config, topology);
  int applied = 0;
  cluster::FaultInjector faults(
      "faults", cluster,
      [&applied](unsigned, const std::string&) { ++applied; });

  testing::ScThread gdb("gdb", [&] {
    sc_core::wait(sc_time(1.25, SC_US));
    const std::string help = AnswerMonitor("help", faults);
    EXPECT_NE(help.find("link cut|repair NODE PORT"), std::string::npos);
    EXPECT_NE(help.find("ber NODE PORT RATE"), std::string::npos);
    EXPECT_NE(help.find("node fail NODE"), std::string::npos);
    EXPECT_EQ(AnswerMonitor("", faults), help) << "bare `monitor` helps";
    EXPECT_EQ(AnswerMonitor("time", faults), "simulated time 1.250 us\n");
    EXPECT_EQ(AnswerMonitor("  link cut 0 0", faults),
              "link cut node 0 port 0 at 1.250 us\n");
    EXPECT_EQ(AnswerMonitor("ber 1 0 1e-5", faults),
              "ber node 1 port 0 to 1e-05 at 1.250 us\n");
    EXPECT_EQ(AnswerMonitor("link cut 0 9", faults),
              "error: link cut node 0 port 9: node 0 has ports 0..3\n");
    EXPECT_EQ(AnswerMonitor("link snip 0 0", faults)
                  .rfind("error: 'link snip 0 0': no such fault;", 0),
              0u);
    EXPECT_EQ(AnswerMonitor("node fail 5", faults),
              "error: node 5 fails: the run has nodes 0..2\n");
    EXPECT_EQ(AnswerMonitor("snip", faults),
              "unknown monitor command 'snip'; 'monitor help' lists them\n");
    sc_core::wait(sc_time(0.5, SC_US));
    EXPECT_EQ(cluster.node(0).port(0).phy.stats().lanes_failed, 16u)
        << "the cut took effect";
  });
  sc_core::sc_start(sc_time(3, SC_US));

  ASSERT_TRUE(gdb.finished());
  EXPECT_EQ(applied, 2) << "the cut and the BER change, not the refusals";
}

}  // namespace
}  // namespace lq::app
