// SPDX-License-Identifier: Apache-2.0
// A node's management firmware (NET-7.3 to NET-7.5) on a router of a 4x4
// torus, driven message by message as the in-band fabric manager would: a
// repeated SEQ applied once and acknowledged twice; tables written, switched
// in, and the new shadow bank made equal to them so that a later SWITCH
// with no TABLE_WRITE keeps them (NET-7.6's direct notification); COUNT_REP
// from the counters; and a LINK_EVENT resent until acknowledged, then given
// up on.
#include "systemc/network/management_agent.h"

#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "generated/cpp/router_regs.h"
#include "models/topology/programmed_table.h"
#include "models/topology/routing_registry.h"
#include "models/topology/table_routing.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/router_registers.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/network/router_node.h"

namespace lq::net {
namespace {

namespace regs = lq::regs::router;
using sc_core::sc_time;
using sc_core::SC_US;
using testing::ScThread;

constexpr unsigned kNodes = 16;  // 4x4
constexpr topo::NodeId kNode = 5;

struct Bench {
  std::shared_ptr<const topo::Topology> topology =
      topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::vector<Delivered> delivered;
  std::vector<RouterNode> nodes;
  std::vector<MgmtMessage> to_manager;  // what the agent sent
  std::vector<sc_time> sent_at;         // and when
  std::unique_ptr<ManagementAgent> agent;

  explicit Bench(const MgmtTimers& timers) {
    const std::shared_ptr<const topo::RoutingFunction> dor =
        topo::CreateRouting("dor", topology, {}).value();
    for (unsigned n = 0; n < kNodes; ++n) {
      nodes.push_back(
          MakeRouterNode(SmallRouterConfig(*topology, n, dor, 64), delivered));
      nodes.back().router->registers().SetHooks(
          LocalPortHooks(*nodes.back().ni));
    }
    CableRouters(*topology, nodes);
    agent = std::make_unique<ManagementAgent>(
        "agent", kNode, timers, [this](const MgmtMessage& m) {
          to_manager.push_back(m);
          sent_at.push_back(sc_core::sc_time_stamp());
        });
    agent->bus().socket.bind(router().csr());
  }
  Router& router() { return *nodes[kNode].router; }
  // The test's view of node 5's registers: the agent's bus (a target
  // socket takes one initiator).
  RegisterMaster& csr() { return agent->bus(); }
};

MgmtMessage Command(MgmtType type, uint8_t seq, MgmtBody body = {}) {
  MgmtMessage m;
  m.type = type;
  m.seq = seq;
  m.node = kNode;
  m.body = std::move(body);
  return m;
}

TEST(ManagementAgent, NET_7_5_RepeatedSeqIsAppliedOnceAndAcknowledgedAgain) {
  Bench bench{MgmtTimers{}};
  ScThread driver("driver", [&] {
    const MgmtMessage write =
        Command(MgmtType::kRegWrite, 5,
                RegWriteBody{regs::kMgmtParentPortOffset / 4, 2});
    bench.agent->Receive(write);
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(bench.router().mgmt_parent_port(), 2u);
    bench.csr().Write(regs::kMgmtParentPortOffset, 3);  // changed since
    bench.agent->Receive(write);                        // the ACK was lost
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(bench.router().mgmt_parent_port(), 3u) << "not applied again";
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.agent->applied(), 1u);
  EXPECT_EQ(bench.agent->repeats(), 1u);
  ASSERT_EQ(bench.to_manager.size(), 2u) << "both copies acknowledged";
  for (const MgmtMessage& ack : bench.to_manager) {
    EXPECT_EQ(ack.type, MgmtType::kAck);
    EXPECT_EQ(ack.seq, 5u);
    EXPECT_EQ(ack.node, kNode);
  }
}

TEST(ManagementAgent, NET_7_6_SwitchKeepsBothBanksEqualForDirectNotification) {
  Bench bench{MgmtTimers{}};
  const auto tables =
      topo::TableRouting::Build(bench.topology, 2, std::nullopt).value();
  const std::vector<topo::TableEntry> table =
      topo::ProgrammedTableRouting::TableOf(*tables, kNode);
  ScThread driver("driver", [&] {
    uint8_t seq = 0;
    bench.agent->Receive(Command(
        MgmtType::kRegWrite, ++seq,
        RegWriteBody{regs::kRouteModeOffset / 4,
                     regs::kRouteModeMode.Place(*RouteModeCode("table"))}));
    bench.agent->Receive(Command(
        MgmtType::kRegWrite, ++seq,
        RegWriteBody{regs::kPortUpOffset / 4,
                     topo::ProgrammedTableRouting::PortUpOf(*tables, kNode)}));
    TableWriteBody body;
    for (const topo::TableEntry& e : table) {
      body.entries.push_back(e.raw);
    }
    bench.agent->Receive(Command(MgmtType::kTableWrite, ++seq, body));
    bench.agent->Receive(Command(MgmtType::kSwitch, ++seq));
    sc_core::wait(sc_time(20, SC_US));
    EXPECT_EQ(bench.router().epoch(), 1u);
    EXPECT_EQ(bench.router().routing().Name(), "table");
    // The new shadow bank holds the same tables.
    bench.csr().Write(regs::kTableIndexOffset, 0);
    for (size_t i = 0; i < table.size(); ++i) {
      ASSERT_EQ(bench.csr().Read(regs::kTableDataOffset), table[i].raw)
          << "shadow entry " << i;
    }
    // A later update leaves this node out of TABLE_WRITE: its SWITCH
    // flips the epoch and keeps the tables.
    bench.agent->Receive(Command(MgmtType::kSwitch, ++seq));
    sc_core::wait(sc_time(20, SC_US));
    EXPECT_EQ(bench.router().epoch(), 0u);
    EXPECT_EQ(bench.router().routing().Name(), "table");
    // A third SWITCH with nothing written since the second has nothing to
    // write again: one register access.
    const sc_time asked = sc_core::sc_time_stamp();
    bench.agent->Receive(Command(MgmtType::kSwitch, ++seq));
    sc_core::wait(sc_time(20, SC_US));
    EXPECT_LT(bench.sent_at.back() - asked, sc_time(100, sc_core::SC_NS))
        << "the shadow writes are replayed once, not at every switch";
    for (topo::NodeId dst = 0; dst < kNodes; ++dst) {
      const auto want = tables->Route(kNode, 4, 0, dst);
      const auto got = bench.router().routing().Route(kNode, 4, 0, dst);
      ASSERT_EQ(want.ok(), got.ok()) << "dst " << dst;
      if (want.ok()) {
        EXPECT_EQ(got->port, want->port) << "dst " << dst;
      }
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.agent->applied(), 6u);
  EXPECT_EQ(bench.to_manager.size(), 6u);
}

TEST(ManagementAgent, NET_7_7_FreezeAndCountReadTheRouter) {
  Bench bench{MgmtTimers{}};
  ScThread driver("driver", [&] {
    bench.agent->Receive(Command(MgmtType::kFreeze, 1));
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(bench.csr().Read(regs::kInjectFreezeOffset), 1u);
    bench.nodes[kNode].ni->Send(6, 0, Bytes(100, 1));  // waits: frozen
    bench.nodes[0].ni->Send(kNode, 0, Bytes(100, 2));  // arrives
    sc_core::wait(sc_time(2, SC_US));
    bench.agent->Receive(Command(MgmtType::kCountReq, 2));
    sc_core::wait(sc_time(1, SC_US));
    bench.agent->Receive(Command(MgmtType::kResume, 3));
    sc_core::wait(sc_time(2, SC_US));
    bench.agent->Receive(Command(MgmtType::kCountReq, 4));
    sc_core::wait(sc_time(1, SC_US));
    bench.agent->Receive(Command(MgmtType::kCountReq, 4));  // a resend
    sc_core::wait(sc_time(1, SC_US));
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.to_manager.size(), 5u);
  for (const size_t i : {3u, 4u}) {
    ASSERT_EQ(bench.to_manager[i].type, MgmtType::kCountRep);
    EXPECT_EQ(std::get<CountRepBody>(bench.to_manager[i].body).injected, 1u)
        << "a repeated COUNT_REQ is answered afresh, after RESUME";
  }
  const MgmtMessage& rep = bench.to_manager[1];
  ASSERT_EQ(rep.type, MgmtType::kCountRep);
  EXPECT_EQ(rep.seq, 2u);
  const auto& counts = std::get<CountRepBody>(rep.body);
  EXPECT_EQ(counts.injected, 0u) << "nothing left while frozen";
  EXPECT_EQ(counts.ejected, 1u);
  EXPECT_EQ(counts.dropped, 0u);
  EXPECT_EQ(bench.delivered.size(), 2u) << "both delivered after RESUME";
}

TEST(ManagementAgent, NET_7_5_RefusedAccessIsNotAcknowledged) {
  Bench bench{MgmtTimers{}};
  ScThread driver("driver", [&] {
    // ROUTE_MODE code 7 names no routing function: a bus error (NET-5.6).
    bench.agent->Receive(Command(MgmtType::kRegWrite, 1,
                                 RegWriteBody{regs::kRouteModeOffset / 4,
                                              regs::kRouteModeMode.Place(7)}));
    MgmtMessage other = Command(MgmtType::kFreeze, 2);
    other.node = kNode + 1;  // not for this node
    bench.agent->Receive(other);
    bench.agent->Receive(Command(MgmtType::kCountRep, 3));  // manager's only
    sc_core::wait(sc_time(2, SC_US));
    EXPECT_EQ(bench.csr().Read(regs::kInjectFreezeOffset), 0u);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.to_manager.empty()) << "nothing acknowledged";
  EXPECT_EQ(bench.agent->refused(), 1u);
  EXPECT_EQ(bench.agent->malformed(), 2u);
  EXPECT_EQ(bench.agent->applied(), 0u);
}

TEST(ManagementAgent, NET_7_5_LinkEventIsResentUntilAcknowledged) {
  MgmtTimers timers;
  timers.msg_timeout = sc_time(10, SC_US);
  timers.msg_retries = 3;
  Bench bench{timers};
  ScThread driver("driver", [&] {
    bench.agent->OnLinkEvent(2, false);
    sc_core::wait(sc_time(25, SC_US));  // sent, resent twice
    EXPECT_EQ(bench.to_manager.size(), 3u);
    MgmtMessage ack = Command(MgmtType::kAck, bench.to_manager.back().seq);
    bench.agent->Receive(ack);
    sc_core::wait(sc_time(50, SC_US));
    EXPECT_EQ(bench.to_manager.size(), 3u) << "no resend once acknowledged";
    bench.agent->OnLinkEvent(2, true);  // never acknowledged
    sc_core::wait(sc_time(100, SC_US));
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.to_manager.size(), 3u + 4u) << "sent once, resent 3 times";
  const auto& down = std::get<LinkEventBody>(bench.to_manager[0].body);
  EXPECT_EQ(down.port, 2u);
  EXPECT_FALSE(down.up);
  EXPECT_EQ(bench.to_manager[0].seq, bench.to_manager[2].seq)
      << "a resend keeps its SEQ";
  EXPECT_NE(bench.to_manager[3].seq, bench.to_manager[0].seq);
  EXPECT_EQ(bench.agent->events_lost(), 1u);
}

}  // namespace
}  // namespace lq::net
