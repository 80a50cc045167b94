// SPDX-License-Identifier: Apache-2.0
// LogMessenger on its own (docs/spec/log.md LOG-6.10): two transport
// engines on a ring, one RC connection, a messenger on each with its
// buffers as the engines' DMA space. Messages arrive whole, with the node
// they came from, more of them than receives are posted; what does not
// parse is counted and dropped; a node with no connection is refused; a
// connection that fails is reported as that peer lost.
#include "systemc/logical/log_messenger.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "systemc/transport/engine_fabric.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::logical {
namespace {

constexpr uint64_t kBase = uint64_t{1} << 62;
constexpr unsigned kReceives = 2;

// One node's messenger, serving its engine's DMA and completions; below
// the messenger's window lie `raw`'s bytes, for SENDs the test makes by
// hand.
class Endpoint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Endpoint> dma;
  LogMessenger messenger;
  std::vector<std::pair<uint16_t, LogMessage>> received;
  std::vector<uint16_t> lost;
  Bytes raw = Bytes(64, 0);
  uint64_t others = 0;  // completions that were not the messenger's

  Endpoint(const sc_core::sc_module_name& name,
           transport::TransportEngine& engine)
      : sc_module(name),
        dma("dma"),
        messenger(
            engine, kBase, kReceives,
            [this](uint16_t from, const LogMessage& m) {
              received.emplace_back(from, m);
            },
            [this](uint16_t peer) { lost.push_back(peer); }),
        engine_(engine) {
    dma.register_b_transport(this, &Endpoint::Dma);
    SC_HAS_PROCESS(Endpoint);
    SC_METHOD(OnCompletions);
    sensitive << engine.completion_event();
    dont_initialize();
  }

 private:
  void Dma(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    if (messenger.Dma(trans)) {
      return;
    }
    const uint64_t at = trans.get_address();
    const uint64_t length = trans.get_data_length();
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (trans.is_read() && at + length <= raw.size()) {
      std::copy_n(raw.begin() + at, length, trans.get_data_ptr());
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }
  }
  void OnCompletions() {
    for (const transport::EngineCompletion& c : engine_.PollCompletions()) {
      others += messenger.Take(c) ? 0 : 1;
    }
  }
  transport::TransportEngine& engine_;
};

// Two cards on ideal links, each engine's memory an Endpoint.
struct Bench {
  std::unique_ptr<cluster::Cluster> cards;
  std::unique_ptr<Endpoint> a;
  std::unique_ptr<Endpoint> b;
  uint32_t qpn_a = 0;
  uint32_t qpn_b = 0;

  Bench() {
    const auto topology =
        topo::CreateTopology("torus", {{"dims", "2"}}).value();
    cluster::ClusterConfig config;
    config.boards = false;
    config.routing = topo::CreateRouting("dor", topology, {}).value();
    config.port.ideal = true;
    config.network.transport = transport::TransportEngineConfig{};
    cards = std::make_unique<cluster::Cluster>("cards", config, topology);
    transport::TransportEngine& engine_a = *cards->node(0).transport();
    transport::TransportEngine& engine_b = *cards->node(1).transport();
    a = std::make_unique<Endpoint>("a", engine_a);
    b = std::make_unique<Endpoint>("b", engine_b);
    engine_a.memory.bind(a->dma);
    engine_b.memory.bind(b->dma);
    const auto pair = transport::ConnectQps(engine_a, engine_b, 1024,
                                            std::nullopt, 1);  // 8.2 us
    qpn_a = pair->a;
    qpn_b = pair->b;
    EXPECT_TRUE(a->messenger.AddPeer(1, qpn_a));
    EXPECT_TRUE(b->messenger.AddPeer(0, qpn_b));
  }
};

TEST(LogMessenger, LOG_6_10_MessagesArriveWholeWithTheirSender) {
  Bench bench;
  const std::vector<LogMessage> sent = {
      FaultRequest{AccessKind::kStore, FaultCause::kNotMapped, 0, 7,
                   0x0000010400000040, 64},
      FrameAllocRequest{3}, FrameAllocResponse{true, 3, 0x30000},
      InvalAck{9, 0x0000010400000000}, FrameFree{12}};
  ::lq::testing::ScThread thread("test", [&] {
    for (const LogMessage& message : sent) {  // more than kReceives
      EXPECT_TRUE(bench.a->messenger.Send(1, message));
    }
    EXPECT_FALSE(bench.a->messenger.Send(5, FrameFree{1}))
        << "no connection to node 5";
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_MS));
  });
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  ASSERT_TRUE(thread.finished());
  ASSERT_EQ(bench.b->received.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(bench.b->received[i].first, 0) << "from node 0";
    EXPECT_EQ(EncodeLogMessage(bench.b->received[i].second),
              EncodeLogMessage(sent[i]))
        << "message " << i << ", in order";
  }
  EXPECT_EQ(bench.a->messenger.sent(), sent.size());
  EXPECT_EQ(bench.b->messenger.received(), sent.size());
  EXPECT_EQ(bench.b->messenger.bad_messages(), 0u);
  EXPECT_EQ(bench.a->others + bench.b->others, 0u);
  EXPECT_TRUE(bench.a->lost.empty() && bench.b->lost.empty());
}

TEST(LogMessenger, LOG_6_10_WhatDoesNotParseIsCountedAndDropped_fail) {
  Bench bench;
  Bytes bad = EncodeLogMessage(FrameAllocRequest{1});
  bad[2] = 0xFF;  // a reserved byte
  std::copy(bad.begin(), bad.end(), bench.a->raw.begin());
  ::lq::testing::ScThread thread("test", [&] {
    transport::SendWr wr;
    wr.wr_id = 1;  // not one of the messenger's work requests
    wr.length = static_cast<uint32_t>(bad.size());
    ASSERT_TRUE(
        bench.cards->node(0).transport()->PostSend(bench.qpn_a, wr, 0).ok());
    EXPECT_TRUE(bench.a->messenger.Send(1, FrameAllocRequest{2}));
    sc_core::wait(sc_core::sc_time(100, sc_core::SC_US));
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(thread.finished());
  EXPECT_EQ(bench.b->messenger.bad_messages(), 1u);
  ASSERT_EQ(bench.b->received.size(), 1u) << "the good one still arrives";
  EXPECT_EQ(std::get<FrameAllocRequest>(bench.b->received[0].second).request_id,
            2);
  EXPECT_EQ(bench.a->others, 1u) << "the raw SEND's completion is not its";
}

TEST(LogMessenger, LOG_6_12_AFailedConnectionIsReportedAsThePeerLost) {
  Bench bench;
  ::lq::testing::ScThread thread("test", [&] {
    bench.cards->node(1).transport()->interface().Fail();
    EXPECT_TRUE(bench.a->messenger.Send(1, FrameFree{4}))
        << "posted: the loss shows later";
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_MS));
  });
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  ASSERT_TRUE(thread.finished());
  ASSERT_FALSE(bench.a->lost.empty()) << "the transport gave up";
  for (const uint16_t peer : bench.a->lost) {
    EXPECT_EQ(peer, 1);
  }
  EXPECT_TRUE(bench.b->received.empty());
}

}  // namespace
}  // namespace lq::logical
