// SPDX-License-Identifier: Apache-2.0
// Transport engines on a ring of four routers (docs/spec/trn.md): queue
// pairs set up as TRN-5.6's agent does, then RDMA WRITE, SEND, WRITE with
// immediate data, RDMA READ, fetch-and-add and compare-and-swap move real
// bytes between nodes' memories as RoCEv2 packets carried by the network
// layer. Memory contents are compared end to end; completions, the state
// rules of TRN-5.2, a flush on ERROR and a discard on RESET are checked;
// and every frame the
// engines sent, written as a pcap, must decode in tshark (TRN-1.8).
#include "systemc/transport/transport_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/transport/tshark_check.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(TransportEngine, TRN_5_6_TRN_6_2_and_TRN_1_8_RealBytesCrossTheFabric) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& e0 = *nodes[0].engine;
  TransportEngine& e1 = *nodes[1].engine;
  TransportEngine& e2 = *nodes[2].engine;
  TransportEngine& e3 = *nodes[3].engine;

  const Bytes written = Pattern(10000, 1), sent = Pattern(3000, 2),
              immediate = Pattern(700, 3);
  std::copy(written.begin(), written.end(),
            nodes[0].memory->bytes.begin() + 0x1000);
  std::copy(sent.begin(), sent.end(), nodes[0].memory->bytes.begin() + 0x4000);
  std::copy(immediate.begin(), immediate.end(),
            nodes[1].memory->bytes.begin() + 0x100);
  const Bytes remote = Pattern(5000, 4);
  std::copy(remote.begin(), remote.end(),
            nodes[2].memory->bytes.begin() + 0x50000);
  StoreLittleEndian(nodes[2].memory->bytes.data() + 0x70000, 8, 40);

  // Every frame on the wire, for the capture check at the end.
  std::vector<std::pair<uint64_t, Bytes>> frames;
  for (EngineNode& node : nodes) {
    node.engine->SetFrameTap([&frames](const sc_time& at, const Bytes& frame) {
      frames.emplace_back(at.value(), frame);
    });
  }

  std::vector<EngineCompletion> at0, at1, at2, at3;
  testing::ScThread workload("workload", [&] {
    const uint32_t q0 = e0.CreateQp(), q2 = e2.CreateQp();
    const uint32_t q1 = e1.CreateQp(), q3 = e3.CreateQp();
    EXPECT_EQ(q0, 2u) << "TRN-5.4: QPNs start at 2";
    EXPECT_FALSE(e0.PostSend(q0, SendWr{}, 0).ok()) << "TRN-5.2: not in RTS";
    EXPECT_FALSE(e0.PostReceive(q0, RecvWr{}, 0).ok()) << "nor in RESET";
    EXPECT_FALSE(e0.PostSend(99, SendWr{}, 0).ok()) << "no such QP";
    ASSERT_TRUE(InitQps(e0, q0, e2, q2));
    ASSERT_TRUE(e2.PostReceive(q2, {21, 4096}, 0x20000).ok())
        << "TRN-5.2: receive WRs may be posted from INIT on";
    ASSERT_TRUE(ReadyQps(e0, q0, e2, q2));
    ASSERT_TRUE(InitQps(e1, q1, e3, q3));
    ASSERT_TRUE(ReadyQps(e1, q1, e3, q3));
    ASSERT_TRUE(e3.PostReceive(q3, {31, 0}, 0x30000).ok());
    SendWr write;
    write.wr_id = 1;
    write.kind = SendKind::kWrite;
    write.length = 10000;
    write.remote_address = 0x8000;
    write.rkey = nodes[2].rkey;
    ASSERT_TRUE(e0.PostSend(q0, write, 0x1000).ok());
    SendWr send;
    send.wr_id = 2;
    send.length = 3000;
    ASSERT_TRUE(e0.PostSend(q0, send, 0x4000).ok());
    SendWr write_imm = write;
    write_imm.wr_id = 3;
    write_imm.length = 700;
    write_imm.remote_address = 0x500;
    write_imm.rkey = nodes[3].rkey;
    write_imm.immediate = 0xC0FFEE;
    ASSERT_TRUE(e1.PostSend(q1, write_imm, 0x100).ok());
    SendWr read;
    read.wr_id = 4;
    read.kind = SendKind::kRead;
    read.length = 5000;
    read.remote_address = 0x50000;
    read.rkey = nodes[2].rkey;
    ASSERT_TRUE(e0.PostSend(q0, read, 0x60000).ok());
    SendWr add;
    add.wr_id = 5;
    add.kind = SendKind::kFetchAdd;
    add.remote_address = 0x70000;
    add.rkey = nodes[2].rkey;
    add.swap_add = 2;
    ASSERT_TRUE(e0.PostSend(q0, add, 0x70000).ok());
    SendWr swap = add;
    swap.wr_id = 6;
    swap.kind = SendKind::kCompareSwap;
    swap.compare = 42;
    swap.swap_add = 7;
    ASSERT_TRUE(e0.PostSend(q0, swap, 0x70008).ok());

    for (int t = 0; t < 100 && (at0.size() < 5 || at2.size() < 1 ||
                                at1.size() < 1 || at3.size() < 1);
         ++t) {
      sc_core::wait(sc_time(1, SC_US));
      for (auto& c : e0.PollCompletions()) at0.push_back(c);
      for (auto& c : e1.PollCompletions()) at1.push_back(c);
      for (auto& c : e2.PollCompletions()) at2.push_back(c);
      for (auto& c : e3.PollCompletions()) at3.push_back(c);
    }

    // TRN-5.2: a QP moved to ERROR flushes what is posted.
    ASSERT_TRUE(e2.PostReceive(q2, {22, 64}, 0x40000).ok());
    QpModify error;
    error.to = QpState::kError;
    ASSERT_TRUE(e2.ModifyQp(q2, error).ok());
    const auto flushed = e2.PollCompletions();
    ASSERT_EQ(flushed.size(), 1u);
    EXPECT_EQ(flushed[0].completion.wr_id, 22u);
    EXPECT_EQ(flushed[0].completion.status, CompletionStatus::kFlushErr);
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_EQ(at0.size(), 5u);
  const uint64_t order[] = {1, 2, 4, 5, 6};  // WR 3 is node 1's
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(at0[i].completion.wr_id, order[i]) << "posting order";
  }
  for (const auto& c : at0) {
    EXPECT_EQ(c.completion.status, CompletionStatus::kSuccess);
    EXPECT_FALSE(c.receive);
  }
  ASSERT_EQ(at2.size(), 1u);
  EXPECT_TRUE(at2[0].receive);
  EXPECT_EQ(at2[0].completion.wr_id, 21u);
  EXPECT_EQ(at2[0].completion.byte_length, 3000u);
  ASSERT_EQ(at3.size(), 1u);
  EXPECT_EQ(at3[0].completion.immediate, 0xC0FFEEu);
  ASSERT_EQ(at1.size(), 1u);
  EXPECT_EQ(at1[0].completion.status, CompletionStatus::kSuccess);

  const Bytes& m2 = nodes[2].memory->bytes;
  EXPECT_EQ(Bytes(m2.begin() + 0x8000, m2.begin() + 0x8000 + 10000), written)
      << "RDMA WRITE landed whole";
  EXPECT_EQ(Bytes(m2.begin() + 0x20000, m2.begin() + 0x20000 + 3000), sent)
      << "SEND landed in the receive buffer";
  const Bytes& m3 = nodes[3].memory->bytes;
  EXPECT_EQ(Bytes(m3.begin() + 0x500, m3.begin() + 0x500 + 700), immediate);
  const Bytes& m0 = nodes[0].memory->bytes;
  EXPECT_EQ(Bytes(m0.begin() + 0x60000, m0.begin() + 0x60000 + 5000), remote)
      << "RDMA READ brought the remote bytes";
  EXPECT_EQ(LoadLittleEndian(m0.data() + 0x70000, 8), 40u)
      << "fetch-and-add returned the original";
  EXPECT_EQ(LoadLittleEndian(m0.data() + 0x70008, 8), 42u);
  EXPECT_EQ(LoadLittleEndian(m2.data() + 0x70000, 8), 7u)
      << "40 + 2 = 42, then compare-and-swap 42 -> 7";
  EXPECT_EQ(e0.counters().packets_sent, 10u + 3u + 1u + 2u)
      << "PMTU 1024 (TRN-6.2); a READ is one request";
  EXPECT_EQ(e2.counters().packets_sent, 5u + 2u + 3u)
      << "5 READ responses, 2 ATOMIC ACKNOWLEDGEs, and ACKs for the "
         "WRITE's AckReqs (packets 8 and 10) and the SEND's last packet";
  EXPECT_EQ(e0.counters().retransmits, 0u)
      << "NET-8.8: a destination's packets keep one VC, so none overtakes";
  for (const EngineNode& node : nodes) {
    EXPECT_EQ(node.engine->counters().bad_packets, 0u);
    EXPECT_EQ(node.engine->counters().stray_packets, 0u);
  }
  ExpectTsharkDecodes(
      std::move(frames),
      {roce::Opcode::kSendFirst, roce::Opcode::kSendLast,
       roce::Opcode::kWriteFirst, roce::Opcode::kWriteMiddle,
       roce::Opcode::kWriteLast, roce::Opcode::kWriteOnlyWithImmediate,
       roce::Opcode::kReadRequest, roce::Opcode::kReadResponseFirst,
       roce::Opcode::kReadResponseLast, roce::Opcode::kCompareSwap,
       roce::Opcode::kFetchAdd, roce::Opcode::kAtomicAcknowledge,
       roce::Opcode::kAcknowledge});
}

TEST(TransportEngine, TRN_5_2_ResetDiscardsWorkRequestsWithoutCompletions) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& e0 = *nodes[0].engine;
  TransportEngine& e1 = *nodes[1].engine;
  std::vector<EngineCompletion> at0, at1;
  QpPair qps;
  testing::ScThread workload("workload", [&] {
    const auto connected = ConnectQps(nodes, 0, 1);
    ASSERT_TRUE(connected);
    qps = *connected;
    ASSERT_TRUE(e1.PostReceive(qps.b, {11, 64}, 0x100).ok());
    ASSERT_TRUE(e1.PostReceive(qps.b, {12, 64}, 0x200).ok());
    SendWr send;
    send.wr_id = 1;
    send.length = 64;
    ASSERT_TRUE(e0.PostSend(qps.a, send, 0).ok());
    QpModify reset;
    reset.to = QpState::kReset;
    ASSERT_TRUE(e0.ModifyQp(qps.a, reset).ok());  // before the SEND leaves
    ASSERT_TRUE(e1.ModifyQp(qps.b, reset).ok());
    sc_core::wait(sc_time(20, SC_US));
    at0 = e0.PollCompletions();
    at1 = e1.PollCompletions();
    EXPECT_TRUE(e0.DestroyQp(qps.a).ok()) << "nothing left outstanding";
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  EXPECT_TRUE(at0.empty()) << "no completion for a discarded WR";
  EXPECT_TRUE(at1.empty());
  EXPECT_EQ(e0.counters().work_discarded, 1u);
  EXPECT_EQ(e1.counters().work_discarded, 2u);
  for (const TransportEngine* e : {&e0, &e1}) {
    const EngineCounters& c = e->counters();
    EXPECT_EQ(c.work_posted,
              c.work_completed + c.work_failed + c.work_discarded);
  }
  EXPECT_EQ(e1.qp_state(qps.b), QpState::kReset);
}

// A 64-byte RDMA WRITE to address 0 of the region `rkey`.
SendWr SmallWrite(uint64_t wr_id, uint32_t rkey) {
  SendWr write;
  write.wr_id = wr_id;
  write.kind = SendKind::kWrite;
  write.length = 64;
  write.rkey = rkey;
  return write;
}

TEST(TransportEngine, TRN_5_2_APostDuringTheEnginesDmaIsNotForgotten) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& e0 = *nodes[0].engine;
  std::vector<uint64_t> sent_ps;
  e0.SetFrameTap([&sent_ps](const sc_time& at, const Bytes&) {
    sent_ps.push_back(static_cast<uint64_t>(at.value()));
  });
  uint64_t second_post_ps = 0;
  testing::ScThread workload("workload", [&] {
    const auto first = ConnectQps(nodes, 0, 2);  // the lower QPN
    const auto second = ConnectQps(nodes, 0, 2);
    ASSERT_TRUE(first && second);
    SendWr write = SmallWrite(1, nodes[2].rkey);
    ASSERT_TRUE(e0.PostSend(second->a, write, 0).ok());
    // The engine reads the WRITE's bytes (a 10 ns DMA); meanwhile a post on
    // the QP it has already looked at in this pass.
    sc_core::wait(sc_time(5, sc_core::SC_NS));
    second_post_ps = static_cast<uint64_t>(sc_core::sc_time_stamp().value());
    write.wr_id = 2;
    ASSERT_TRUE(e0.PostSend(first->a, write, 0x100).ok());
    sc_core::wait(sc_time(20, SC_US));
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_GE(sent_ps.size(), 2u);
  EXPECT_LE(sent_ps[1], second_post_ps + 20'000)
      << "the second WRITE left after its own DMA, not when the first one's "
         "ACK woke the engine";
}

TEST(TransportEngine, TRN_5_2_AWorkRequestIdStillOutstandingIsRefused) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& e0 = *nodes[0].engine;
  TransportEngine& e1 = *nodes[1].engine;
  std::vector<EngineCompletion> at0;
  testing::ScThread workload("workload", [&] {
    const auto qps = ConnectQps(nodes, 0, 1);
    ASSERT_TRUE(qps);
    ASSERT_TRUE(e1.PostReceive(qps->b, {5, 64}, 0x100).ok());
    EXPECT_FALSE(e1.PostReceive(qps->b, {5, 64}, 0x200).ok())
        << "receive WR 5 is outstanding";
    const SendWr write = SmallWrite(9, nodes[1].rkey);
    ASSERT_TRUE(e0.PostSend(qps->a, write, 0).ok());
    EXPECT_FALSE(e0.PostSend(qps->a, write, 0x40).ok())
        << "send WR 9 is outstanding";
    sc_core::wait(sc_time(10, SC_US));
    at0 = e0.PollCompletions();
    EXPECT_TRUE(e0.PostSend(qps->a, write, 0x40).ok())
        << "once complete, its ID may be used again";
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  ASSERT_EQ(at0.size(), 1u);
  EXPECT_EQ(at0[0].completion.status, CompletionStatus::kSuccess);
  EXPECT_EQ(e0.counters().work_posted, 2u) << "a refused post is not posted";
}

TEST(TransportEngine, TRN_6_15_ALocalBufferTheEngineCannotReachFailsItsWr) {
  constexpr size_t kMemory = 64 * 1024;
  std::vector<EngineNode> nodes =
      BuildTorus("4", net::DeliveryFaults{}, kMemory);
  TransportEngine& e0 = *nodes[0].engine;
  nodes[1].memory->bytes = Pattern(kMemory, 5);
  const Bytes before1 = nodes[1].memory->bytes;
  std::vector<EngineCompletion> write_qp, read_qp;
  QpPair writes, reads;
  testing::ScThread workload("workload", [&] {
    const auto w = ConnectQps(nodes, 0, 1);
    const auto r = ConnectQps(nodes, 0, 1);
    ASSERT_TRUE(w && r);
    writes = *w;
    reads = *r;
    // A WRITE from beyond node 0's memory, then one that would be fine.
    SendWr write = SmallWrite(1, nodes[1].rkey);
    ASSERT_TRUE(e0.PostSend(writes.a, write, kMemory + 0x1000).ok());
    write.wr_id = 2;
    ASSERT_TRUE(e0.PostSend(writes.a, write, 0).ok());
    // A READ whose data has nowhere to go at node 0.
    SendWr read;
    read.wr_id = 3;
    read.kind = SendKind::kRead;
    read.length = 256;
    read.rkey = nodes[1].rkey;
    ASSERT_TRUE(e0.PostSend(reads.a, read, kMemory - 16).ok());
    sc_core::wait(sc_time(20, SC_US));
    for (const EngineCompletion& c : e0.PollCompletions()) {
      (c.qpn == writes.a ? write_qp : read_qp).push_back(c);
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_EQ(write_qp.size(), 2u);
  EXPECT_EQ(write_qp[0].completion.wr_id, 1u);
  EXPECT_EQ(write_qp[0].completion.status, CompletionStatus::kLocProtErr)
      << CompletionStatusName(write_qp[0].completion.status);
  EXPECT_EQ(write_qp[1].completion.status, CompletionStatus::kFlushErr)
      << "the QP went to ERROR: what follows is flushed";
  EXPECT_EQ(e0.qp_state(writes.a), QpState::kError);
  ASSERT_EQ(read_qp.size(), 1u);
  EXPECT_EQ(read_qp[0].completion.status, CompletionStatus::kLocProtErr)
      << CompletionStatusName(read_qp[0].completion.status);
  EXPECT_EQ(e0.qp_state(reads.a), QpState::kError);
  EXPECT_EQ(nodes[1].memory->bytes, before1)
      << "nothing of the failed WRITE reached node 1";
}

// A QP in another partition: node 1's QP has P_Key 0x8002, node 0's the
// default. Node 1 must drop node 0's WRITE and count it; node 0, never
// ACKed, exhausts its retries.
TEST(TransportEngine, TRN_2_3_APacketOfAnotherPartitionIsDropped) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  TransportEngine& e0 = *nodes[0].engine;
  TransportEngine& e1 = *nodes[1].engine;
  std::fill_n(nodes[1].memory->bytes.begin(), 64, 0xAB);
  std::vector<EngineCompletion> at0;
  testing::ScThread workload("workload", [&] {
    const QpPair qps{e0.CreateQp(), e1.CreateQp()};
    QpModify init;
    init.to = QpState::kInit;
    ASSERT_TRUE(e0.ModifyQp(qps.a, init).ok());
    init.pkey = 0x8002;
    ASSERT_TRUE(e1.ModifyQp(qps.b, init).ok());
    ASSERT_TRUE(ReadyQps(e0, qps.a, e1, qps.b, 1024, std::nullopt, 1));
    ASSERT_TRUE(e0.PostSend(qps.a, SmallWrite(1, nodes[1].rkey), 0).ok());
    sc_core::wait(sc_time(200, SC_US));
    at0 = e0.PollCompletions();
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  EXPECT_GT(e1.counters().stray_packets, 0u);
  EXPECT_EQ(e1.counters().packets_sent, 0u) << "no ACK, no NAK";
  EXPECT_EQ(nodes[1].memory->bytes[0], 0xAB) << "the WRITE was executed";
  ASSERT_EQ(at0.size(), 1u);
  EXPECT_EQ(at0[0].completion.status, CompletionStatus::kRetryExcErr);
}

}  // namespace
}  // namespace lq::transport
