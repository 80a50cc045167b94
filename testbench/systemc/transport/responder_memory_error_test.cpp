// SPDX-License-Identifier: Apache-2.0
// A responder whose memory refuses a SEND's bytes (TRN-6.13): the request
// is NAKed as a remote operational error and both QPs go to ERROR. The
// receive WR the bytes were for must end in an error completion — whether
// the refused packet was a message's only one or one in its middle — and
// never in success; the other receive WRs are flushed; every work request
// completes exactly once.
#include <gtest/gtest.h>

#include <map>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr size_t kMemoryBytes = 64 * 1024;

struct Case {
  const char* what;
  uint32_t length;      // of the SEND
  uint64_t receive_at;  // its receive buffer at the responder
};

TEST(ResponderMemoryError, TRN_6_13_RefusedReceiveBufferEndsTheWrInError) {
  // An ONLY packet wholly outside memory; a 4-packet message (PMTU 1024)
  // whose third packet crosses memory's end.
  const Case cases[] = {{"only", 512, kMemoryBytes + 4096},
                        {"middle", 4096, kMemoryBytes - 2048}};
  std::vector<EngineNode> nodes = BuildTorus("4", {}, kMemoryBytes);
  std::map<unsigned, std::vector<EngineCompletion>> completions;
  std::vector<uint32_t> senders, receivers;
  testing::ScThread workload("workload", [&] {
    TransportEngine& a = *nodes[0].engine;
    TransportEngine& b = *nodes[1].engine;
    for (const Case& c : cases) {
      const auto connected = ConnectQps(nodes, 0, 1);
      ASSERT_TRUE(connected);
      const uint32_t qa = connected->a;
      const uint32_t qb = connected->b;
      senders.push_back(qa);
      receivers.push_back(qb);
      ASSERT_TRUE(b.PostReceive(qb, {1, c.length}, c.receive_at).ok());
      ASSERT_TRUE(b.PostReceive(qb, {2, c.length}, 0).ok());  // flushed
      SendWr send;
      send.wr_id = 7;
      send.kind = SendKind::kSend;
      send.length = c.length;
      ASSERT_TRUE(a.PostSend(qa, send, 0).ok());
    }
    sc_core::wait(sc_time(200, SC_US));
    completions[0] = a.PollCompletions();
    completions[1] = b.PollCompletions();
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  for (size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE(cases[i].what);
    std::map<uint64_t, CompletionStatus> received, sent;
    for (const EngineCompletion& c : completions[1]) {
      if (c.qpn == receivers[i]) {
        EXPECT_TRUE(
            received.emplace(c.completion.wr_id, c.completion.status).second)
            << "receive WR " << c.completion.wr_id << " completed twice";
      }
    }
    for (const EngineCompletion& c : completions[0]) {
      if (c.qpn == senders[i]) {
        sent.emplace(c.completion.wr_id, c.completion.status);
      }
    }
    ASSERT_EQ(received.count(1), 1u);
    EXPECT_EQ(received[1], CompletionStatus::kLocQpOpErr)
        << CompletionStatusName(received[1]);
    ASSERT_EQ(received.count(2), 1u);
    EXPECT_EQ(received[2], CompletionStatus::kFlushErr);
    ASSERT_EQ(sent.count(7), 1u);
    EXPECT_EQ(sent[7], CompletionStatus::kRemOpErr);
    EXPECT_EQ(nodes[0].engine->qp_state(senders[i]), QpState::kError);
    EXPECT_EQ(nodes[1].engine->qp_state(receivers[i]), QpState::kError);
  }
  for (unsigned n : {0u, 1u}) {
    const EngineCounters& counters = nodes[n].engine->counters();
    EXPECT_EQ(counters.work_posted,
              counters.work_completed + counters.work_failed);
  }
}

}  // namespace
}  // namespace lq::transport
