// SPDX-License-Identifier: Apache-2.0
// A READ whose answer waits (TRN-6.11): node 1's QP paces at 1 Gb/s
// (DCQCN's RC at start, TRN-10.1), so after its 4 KiB WRITE to node 0 its
// answer to node 0's READ waits about 33 us, while node 0's ACK timer
// (code 2: 16.4 us) sends the READ again twice. The answer must go once,
// not once per copy of the request, and the READ completes with the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <systemc>
#include <vector>

#include "models/roce/packet.h"
#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr size_t kMemoryBytes = 64 * 1024;
constexpr uint32_t kReadBytes = 64;
constexpr uint64_t kReadFrom = 0x8000;  // at node 1
constexpr uint64_t kReadTo = 0x4000;    // at node 0
constexpr uint8_t kTimeout16us = 2;     // 4.096 us x 2^2

TEST(DuplicateRead, TRN_6_11_AReadSentAgainWhileItsAnswerWaitsIsAnsweredOnce) {
  TorusOptions options;
  options.memory_bytes = kMemoryBytes;
  options.engine.congestion = "dcqcn";
  options.engine.congestion_params.line_rate_bps = 1e9;
  std::vector<EngineNode> nodes = BuildTorus("4", options);
  nodes[1].memory->bytes = Pattern(kMemoryBytes, 3);
  unsigned read_requests = 0;
  unsigned read_responses = 0;
  nodes[0].engine->SetFrameTap([&](const sc_time&, const Bytes& frame) {
    const auto packet = roce::ParsePacket(frame);
    ASSERT_TRUE(packet.ok());
    read_requests += packet.value().bth.opcode ==
                     static_cast<uint8_t>(roce::Opcode::kReadRequest);
  });
  nodes[1].engine->SetFrameTap([&](const sc_time&, const Bytes& frame) {
    const auto packet = roce::ParsePacket(frame);
    ASSERT_TRUE(packet.ok());
    read_responses += packet.value().bth.opcode ==
                      static_cast<uint8_t>(roce::Opcode::kReadResponseOnly);
  });
  std::vector<EngineCompletion> completions;
  testing::ScThread workload("workload", [&] {
    const auto qps = ConnectQps(nodes, 0, 1, 4096, std::nullopt, kTimeout16us);
    ASSERT_TRUE(qps);
    SendWr write;
    write.wr_id = 1;
    write.kind = SendKind::kWrite;
    write.length = 4096;
    write.rkey = nodes[0].rkey;
    ASSERT_TRUE(nodes[1].engine->PostSend(qps->b, write, 0).ok());
    sc_core::wait(sc_time(1, SC_US));  // the WRITE is out: pacing runs
    SendWr read;
    read.wr_id = 2;
    read.kind = SendKind::kRead;
    read.length = kReadBytes;
    read.remote_address = kReadFrom;
    read.rkey = nodes[1].rkey;
    ASSERT_TRUE(nodes[0].engine->PostSend(qps->a, read, kReadTo).ok());
    sc_core::wait(sc_time(100, SC_US));
    completions = nodes[0].engine->PollCompletions();
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  EXPECT_GE(read_requests, 2u) << "the ACK timer sent the READ again";
  EXPECT_EQ(read_responses, 1u) << "one answer for all the copies";
  ASSERT_EQ(completions.size(), 1u);
  EXPECT_EQ(completions[0].completion.status, CompletionStatus::kSuccess)
      << CompletionStatusName(completions[0].completion.status);
  const Bytes& to = nodes[0].memory->bytes;
  const Bytes& from = nodes[1].memory->bytes;
  EXPECT_TRUE(std::equal(to.begin() + kReadTo,
                         to.begin() + kReadTo + kReadBytes,
                         from.begin() + kReadFrom));
  EXPECT_EQ(nodes[0].engine->counters().work_failed, 0u);
}

}  // namespace
}  // namespace lq::transport
