// SPDX-License-Identifier: Apache-2.0
// The traffic workload on a 2x2x2 torus of transport engines whose
// interfaces drop 2 % of the packets they deliver and flip a bit in 1 %
// (NET-8.10): every message must land once, intact and in its
// connection's order (TRN-6.8, TRN-7), each with a one-way latency; and
// the workload's own checks must catch what the transport could not:
// bytes that differ from those sent (corrupted) and another message of the
// same connection in a message's receive buffer (reordered), shown by
// tampering with what two receives read back. And a node that fails
// mid-run: its messages, and those to it, end as failed, each counted,
// while every other message lands.
#include "systemc/transport/traffic_workload.h"

#include <gtest/gtest.h>

#include <random>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"

namespace lq::transport {
namespace {

constexpr uint32_t kNodes = 8;
constexpr uint32_t kMessageBytes = 300;  // two packets at PMTU 256
constexpr uint64_t kMessages = 400;

std::vector<ScheduledMessage> Schedule() {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<uint32_t> node(0, kNodes - 1);
  std::vector<ScheduledMessage> schedule;
  uint64_t at_ps = 0;
  while (schedule.size() < kMessages) {
    const uint32_t src = node(random), dst = node(random);
    if (src != dst) {
      at_ps += 5000 + random() % 20000;
      schedule.push_back({src, dst, at_ps});
    }
  }
  return schedule;
}

TEST(TrafficWorkload,
     TRN_6_8_EveryMessageLandsOnceInOrderAndTamperingIsCaught) {
  net::DeliveryFaults faults;
  faults.drop = 0.02;
  faults.corrupt = 0.01;
  faults.seed = 3;
  std::vector<EngineNode> nodes = BuildTorus("2x2x2", faults);
  const std::vector<TransportEngine*> engines = Engines(nodes);
  const std::vector<ScheduledMessage> schedule = Schedule();
  // Two receives read back something else: message 100 with a byte
  // flipped, and message 200's slot holding the connection's previous
  // message (found below).
  uint64_t previous_of_200 = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    if (schedule[i].src == schedule[200].src &&
        schedule[i].dst == schedule[200].dst) {
      previous_of_200 = i;
    }
  }
  ASSERT_NE(previous_of_200, 0u) << "the schedule repeats that pair";
  Bytes tampered;
  NodeMemories memories;
  memories.write = [&](unsigned node, uint64_t address, const Bytes& bytes) {
    std::copy(bytes.begin(), bytes.end(),
              nodes[node].memory->bytes.begin() + address);
  };
  memories.read = [&](unsigned node, uint64_t address, uint32_t length) {
    const uint8_t* at = nodes[node].memory->bytes.data() + address;
    tampered.assign(at, at + length);
    const uint64_t index = tampered[0] | uint64_t{tampered[1]} << 8;
    if (index == 100) {
      tampered[17] ^= 0x40;
      return ByteView(tampered);
    }
    if (index == 200) {
      // What message `previous_of_200` carried, intact.
      tampered[0] = static_cast<uint8_t>(previous_of_200);
      tampered[1] = static_cast<uint8_t>(previous_of_200 >> 8);
      for (size_t i = 8; i < tampered.size(); ++i) {
        tampered[i] =
            static_cast<uint8_t>(previous_of_200 * 131 + i * 7 + (i >> 8));
      }
      return ByteView(tampered);
    }
    return ByteView(at, length);
  };
  TrafficWorkloadConfig config;
  config.message_bytes = kMessageBytes;
  config.pmtu = 256;
  TrafficWorkload workload("traffic", engines, schedule, config, memories);
  for (unsigned n = 0; n < kNodes; ++n) {
    ASSERT_LE(workload.memory_bytes(n), nodes[n].memory->bytes.size());
  }

  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));

  const TrafficOutcome& outcome = workload.outcome();
  EXPECT_EQ(outcome.posted, kMessages);
  EXPECT_EQ(workload.sends_ended(), kMessages)
      << "the run ends when every SEND has completed";
  EXPECT_EQ(outcome.failed, 0u) << "the transport recovers every loss";
  EXPECT_EQ(outcome.corrupted, 1u) << "message 100's flipped byte";
  EXPECT_EQ(outcome.reordered, 1u) << "message 200's slot held an older one";
  EXPECT_EQ(outcome.duplicated, 0u);
  EXPECT_EQ(outcome.delivered, kMessages - 2);
  EXPECT_EQ(outcome.payload_bytes, (kMessages - 2) * kMessageBytes);
  ASSERT_EQ(outcome.latencies_ns.size(), kMessages - 2);
  for (const double latency : outcome.latencies_ns) {
    EXPECT_GT(latency, 0);
  }
  EXPECT_GT(outcome.last_delivery_ps, schedule.back().at_ps);
  uint64_t retransmits = 0;
  for (const auto& node : nodes) {
    retransmits += node.engine->counters().retransmits;
  }
  EXPECT_GT(retransmits, 0u) << "the drops were repaired by the transport";
  EXPECT_LE(workload.connections(), uint64_t{kNodes} * (kNodes - 1));
}

// Messages between neighbours of a 2x2x2 torus (one hop, through no
// other node), node 0 among them; 8 each way of every such pair, 2 us
// apart.
std::vector<ScheduledMessage> NeighbourSchedule() {
  std::vector<ScheduledMessage> schedule;
  uint64_t at_ps = 0;
  for (int round = 0; round < 8; ++round) {
    for (uint32_t src = 0; src < kNodes; ++src) {
      for (uint32_t dst = 0; dst < kNodes; ++dst) {
        if (__builtin_popcount(src ^ dst) == 1) {
          schedule.push_back({src, dst, at_ps += 2'000'000 / 24});
        }
      }
    }
  }
  return schedule;
}

TEST(TrafficWorkload, TRN_7_9_AFailedNodesMessagesFailEachCountedTheRestLand) {
  std::vector<EngineNode> nodes = BuildTorus("2x2x2", net::DeliveryFaults{});
  const std::vector<ScheduledMessage> schedule = NeighbourSchedule();
  TrafficWorkload workload("traffic", Engines(nodes), schedule,
                           TrafficWorkloadConfig{}, TestMemories(nodes));
  // Node 0 fails halfway through the schedule: its router and interface
  // hold nothing from then on, and its neighbours' ports to it are down
  // (NET-7.1), as the stack's fault makes them.
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "2x2x2"}}).value();
  const sc_core::sc_time failure(8, sc_core::SC_US);
  sc_core::sc_start(failure);
  net::NetworkInterface& interface = nodes[0].engine->interface();
  const uint64_t handed_over = interface.injected();
  nodes[0].router->Fail(handed_over, interface.Fail());
  for (topo::PortId p = 0; p < topology->PortCount(0); ++p) {
    const auto far = topology->Neighbour(0, p).value();
    nodes[far.node].router->SetPortDown(far.port, sc_core::SC_ZERO_TIME);
  }
  workload.NodeFailed(0);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));

  const TrafficOutcome outcome = workload.outcome();
  uint64_t with_node0 = 0, landed_with_node0 = 0;
  for (uint64_t i = 0; i < schedule.size(); ++i) {
    const bool node0 = schedule[i].src == 0 || schedule[i].dst == 0;
    with_node0 += node0 ? 1 : 0;
    if (node0) {
      landed_with_node0 += workload.landed_ps(i) ? 1 : 0;
      EXPECT_TRUE(!workload.landed_ps(i) ||
                  *workload.landed_ps(i) <= failure.value())
          << "message " << i << " landed after its node had failed";
    } else {
      EXPECT_TRUE(workload.landed_ps(i)) << "message " << i << " is lost";
    }
  }
  EXPECT_EQ(workload.sends_ended(), schedule.size())
      << "the run ends: every SEND completed or failed with its node";
  EXPECT_GT(landed_with_node0, 0u) << "node 0 worked before it failed";
  EXPECT_EQ(outcome.endpoint_failed, with_node0 - landed_with_node0);
  EXPECT_EQ(outcome.delivered, schedule.size() - outcome.endpoint_failed);
  EXPECT_GT(outcome.unposted, 0u) << "node 0's later messages";
  EXPECT_GE(outcome.failed, outcome.endpoint_failed)
      << "each message that did not land failed its SEND";
  EXPECT_EQ(outcome.posted + outcome.unposted, schedule.size());
  EXPECT_GT(sc_core::sc_time_stamp(), sc_core::sc_time(8, sc_core::SC_MS))
      << "SENDs to node 0 fail once their retries are spent (TRN-7.9)";
}

}  // namespace
}  // namespace lq::transport
