// SPDX-License-Identifier: Apache-2.0
// A ring AllReduce as RDMA WRITEs with immediate data on a 2x2x2 torus of
// transport engines whose interfaces drop 2 % of the packets they deliver
// (NET-8.10): every message must land once (TRN-6.8: each WRITE with
// immediate consumes one receive WR and names its message), the transport
// must repair the drops, every node must end with the sum of every node's
// buffer — and the check must catch a node whose buffer is wrong.
#include "systemc/transport/collective_workload.h"

#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "models/network/collective.h"
#include "systemc/cluster/engine_torus.h"

namespace lq::transport {
namespace {

TEST(CollectiveWorkload, TRN_6_8_RingAllReduceLandsEveryMessageAndSumsRight) {
  TorusOptions options;
  options.faults.drop = 0.02;
  options.faults.seed = 5;
  options.register_memory = false;  // the workload registers its own
  std::vector<EngineNode> nodes = BuildTorus("2x2x2", options);
  const std::vector<TransportEngine*> engines = Engines(nodes);
  auto schedule =
      net::CreateCollective("ring_allreduce", 8, {}, {{"bytes", "40000"}});
  ASSERT_TRUE(schedule.ok()) << schedule.error().reason;
  const NodeMemories memories = TestMemories(nodes);
  CollectiveWorkloadConfig config;
  config.pmtu = 1024;
  CollectiveWorkload workload("allreduce", engines, *schedule, config,
                              memories);
  for (unsigned n = 0; n < 8; ++n) {
    ASSERT_LE(workload.memory_bytes(n), nodes[n].memory->bytes.size());
  }
  workload.Fill();

  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));

  const size_t messages = schedule->messages.size();
  EXPECT_EQ(messages, 8u * 14u) << "2 (N-1) steps of one message per node";
  EXPECT_TRUE(workload.done());
  EXPECT_EQ(workload.posted(), messages);
  EXPECT_EQ(workload.delivered(), messages);
  EXPECT_EQ(workload.sends_ended(), messages);
  EXPECT_EQ(workload.failed(), 0u);
  EXPECT_EQ(workload.duplicated(), 0u);
  EXPECT_GT(workload.finished_ps(), 0u);
  EXPECT_EQ(workload.WrongNodes(), 0u) << "every node holds the sum";
  uint64_t retransmits = 0;
  for (const auto& node : nodes) {
    retransmits += node.engine->counters().retransmits;
  }
  EXPECT_GT(retransmits, 0u) << "the drops were repaired by the transport";

  nodes[3].memory->bytes[12345] ^= 1;
  EXPECT_EQ(workload.WrongNodes(), 1u) << "a wrong byte on node 3 is caught";
}

}  // namespace
}  // namespace lq::transport
