// SPDX-License-Identifier: Apache-2.0
// Remote access rights (TRN-6.13, TRN-6.14): node 1 registers a read-only
// region and a region it then deregisters. Node 0's requests that the
// regions do not allow — a WRITE into the read-only region, a READ past
// its end, a fetch-and-add under the stale key, and a READ on a QP whose
// access flags forbid remote reads — are each NAKed as remote access
// errors: the work request completes with REM_ACCESS_ERR, both QPs go to
// ERROR, and memory is untouched. A READ inside the read-only region
// succeeds.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kReadOnly = 0x10000;  // 4 KiB at node 1
constexpr uint64_t kStale = 0x20000;     // 4 KiB at node 1, deregistered

struct Case {
  const char* what;
  SendKind kind;
  uint64_t remote_address;
  uint32_t length;
  bool stale_key;
  bool forbid_reads;  // node 1's QP: remote_read off (TRN-5.5)
  CompletionStatus expected;
};

TEST(TransportAccess, TRN_6_13_and_TRN_6_14_RequestsOutsideTheirRightsFail) {
  const Case cases[] = {
      {"write to read-only", SendKind::kWrite, kReadOnly, 64, false, false,
       CompletionStatus::kRemAccessErr},
      {"read past the end", SendKind::kRead, kReadOnly + 4000, 200, false,
       false, CompletionStatus::kRemAccessErr},
      {"atomic, stale key", SendKind::kFetchAdd, kStale, 8, true, false,
       CompletionStatus::kRemAccessErr},
      {"read, reads off", SendKind::kRead, kReadOnly, 64, false, true,
       CompletionStatus::kRemAccessErr},
      {"read inside", SendKind::kRead, kReadOnly, 4096, false, false,
       CompletionStatus::kSuccess},
  };
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& a = *nodes[0].engine;
  TransportEngine& b = *nodes[1].engine;
  nodes[1].memory->bytes = Pattern(nodes[1].memory->bytes.size(), 9);
  const Bytes before = nodes[1].memory->bytes;
  const uint32_t read_only = b.RegisterMemory({kReadOnly, 4096, kRemoteRead});
  const uint32_t stale = b.RegisterMemory({kStale, 4096, kRemoteAll});
  ASSERT_TRUE(b.DeregisterMemory(stale));

  std::vector<uint32_t> requesters, responders;
  std::map<uint32_t, CompletionStatus> outcome;  // by requester QPN
  testing::ScThread workload("workload", [&] {
    for (const Case& c : cases) {
      const uint32_t qa = a.CreateQp();
      const uint32_t qb = b.CreateQp();
      QpModify init;
      init.to = QpState::kInit;
      ASSERT_TRUE(a.ModifyQp(qa, init).ok());
      init.remote_read = !c.forbid_reads;
      ASSERT_TRUE(b.ModifyQp(qb, init).ok());
      ASSERT_TRUE(ReadyQps(a, qa, b, qb));
      requesters.push_back(qa);
      responders.push_back(qb);
      SendWr wr;
      wr.wr_id = qa;
      wr.kind = c.kind;
      wr.length = c.length;
      wr.remote_address = c.remote_address;
      wr.rkey = c.stale_key ? stale : read_only;
      wr.swap_add = 1;
      ASSERT_TRUE(a.PostSend(qa, wr, 0x1000 * qa).ok());
    }
    sc_core::wait(sc_time(100, SC_US));
    for (const EngineCompletion& c : a.PollCompletions()) {
      outcome[c.qpn] = c.completion.status;
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  for (size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE(cases[i].what);
    ASSERT_EQ(outcome.count(requesters[i]), 1u) << "the WR completed";
    EXPECT_EQ(outcome[requesters[i]], cases[i].expected)
        << CompletionStatusName(outcome[requesters[i]]);
    const QpState end = cases[i].expected == CompletionStatus::kSuccess
                            ? QpState::kRts
                            : QpState::kError;
    EXPECT_EQ(a.qp_state(requesters[i]), end);
    EXPECT_EQ(b.qp_state(responders[i]), end);
  }
  EXPECT_EQ(b.counters().access_errors, 3u)
      << "the region check refused three; the QP's flags the fourth";
  EXPECT_EQ(nodes[1].memory->bytes, before) << "nothing written at node 1";
  const Bytes& got = nodes[0].memory->bytes;
  const uint64_t inside = 0x1000 * requesters.back();
  EXPECT_TRUE(std::equal(got.begin() + inside, got.begin() + inside + 4096,
                         before.begin() + kReadOnly))
      << "the allowed READ brought the region's bytes";
}

}  // namespace
}  // namespace lq::transport
