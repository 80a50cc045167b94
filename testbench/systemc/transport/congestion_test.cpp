// SPDX-License-Identifier: Apache-2.0
// An incast on a lossless 4x4 torus of transport engines (PFC and ECN
// marking at every router): six nodes RDMA-WRITE 512 KiB each into regions
// of node 0's memory at once, three on DCQCN QPs and three on LQCC QPs
// (TRN-5.8: chosen per QP). Checked, clause by clause:
// - TRN-8.5, TRN-8.7, TRN-8.10: routers send XOFF and XON; pauses are
//   honoured and their time is counted;
// - TRN-8.1, TRN-8.9: nothing is dropped, no input ever holds more than
//   XOFF plus the headroom, every write completes and memory matches;
// - TRN-9.2, TRN-9.5: routers mark; node 0 sends CNPs to the DCQCN QPs, at
//   most one per QP per 50 us, and they reach the senders;
// - TRN-11.3: node 0 sends the LQCC QPs no CNP but sets BECN on ACKs;
// - TRN-1.8: the frames, CNPs among them, decode in tshark.
#include <gtest/gtest.h>

#include <map>
#include <systemc>
#include <utility>
#include <vector>

#include "models/roce/addressing.h"
#include "models/roce/packet.h"
#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/transport/tshark_check.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kSenders[] = {1, 2, 4, 5, 8, 10};
constexpr uint32_t kFlowBytes = 512 * 1024;
constexpr uint64_t kCnpIntervalPs = DcqcnParams{}.cnp_interval_ps;

const char* ControlOf(size_t sender_index) {
  return sender_index < 3 ? "dcqcn" : "lqcc";
}

// What node 0 sent to one sender's QP.
struct Feedback {
  std::vector<uint64_t> cnp_ps;
  uint64_t becn_acks = 0;
};

TEST(Congestion,
     TRN_8_5_TRN_8_7_TRN_8_9_TRN_9_5_and_TRN_11_3_IncastIsLosslessAndFedBack) {
  constexpr size_t kMemory = std::size(kSenders) * kFlowBytes;
  // LQCC's step profile marks every QP's packets (TRN-11.2).
  std::vector<EngineNode> nodes =
      BuildTorus("4x4", LosslessTorusOptions("none", "lqcc", kMemory));
  for (size_t i = 0; i < std::size(kSenders); ++i) {
    nodes[kSenders[i]].memory->bytes =
        Pattern(kMemory, static_cast<uint8_t>(7 * i + 1));
  }
  std::vector<std::pair<uint64_t, Bytes>> frames;
  // By the sender's IPv4 address and QPN (every sender's QP is QPN 2).
  std::map<std::pair<uint32_t, uint32_t>, Feedback> feedback;
  for (EngineNode& node : nodes) {
    const bool receiver = &node == &nodes[0];
    node.engine->SetFrameTap([&, receiver](const sc_time& at,
                                           const Bytes& frame) {
      const uint64_t at_ps = at.value() / sc_time(1, sc_core::SC_PS).value();
      frames.emplace_back(at_ps, frame);
      const auto packet = roce::ParsePacket(frame);
      ASSERT_TRUE(packet.ok());
      const auto opcode = static_cast<roce::Opcode>(packet->bth.opcode);
      if (receiver && opcode == roce::Opcode::kCnp) {
        feedback[{packet->ip.dst, packet->bth.dest_qp}].cnp_ps.push_back(at_ps);
      }
      if (receiver && opcode == roce::Opcode::kAcknowledge &&
          packet->bth.becn) {
        ++feedback[{packet->ip.dst, packet->bth.dest_qp}].becn_acks;
      }
    });
  }

  std::vector<uint32_t> qps(std::size(kSenders));
  std::vector<EngineCompletion> completions;
  testing::ScThread workload("workload", [&] {
    for (size_t i = 0; i < std::size(kSenders); ++i) {
      const auto connected =
          ConnectQps(nodes, kSenders[i], 0, kLosslessPmtu, ControlOf(i));
      ASSERT_TRUE(connected);
      qps[i] = connected->a;
    }
    for (size_t i = 0; i < std::size(kSenders); ++i) {
      SendWr write;
      write.wr_id = i;
      write.kind = SendKind::kWrite;
      write.length = kFlowBytes;
      write.remote_address = i * kFlowBytes;
      write.rkey = nodes[0].rkey;
      ASSERT_TRUE(nodes[kSenders[i]]
                      .engine->PostSend(qps[i], write, i * kFlowBytes)
                      .ok());
    }
    for (int t = 0; t < 1000 && completions.size() < std::size(kSenders); ++t) {
      sc_core::wait(sc_time(1, SC_US));
      for (const unsigned s : kSenders) {
        for (const EngineCompletion& c : nodes[s].engine->PollCompletions()) {
          completions.push_back(c);
        }
      }
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  // TRN-8.1, TRN-8.9: lossless, within the buffers, bytes intact.
  ASSERT_EQ(completions.size(), std::size(kSenders));
  for (const EngineCompletion& c : completions) {
    EXPECT_EQ(c.completion.status, CompletionStatus::kSuccess);
  }
  const uint64_t buffer = LosslessBufferBytes(PfcParams{});
  FlowControlCounters total;
  uint64_t paused_ps = 0;
  for (const EngineNode& node : nodes) {
    EXPECT_EQ(node.router->counters().Dropped(), 0u);
    EXPECT_EQ(node.engine->counters().bad_packets, 0u);
    EXPECT_EQ(node.engine->counters().retransmits, 0u) << "nothing was lost";
    const FlowControlCounters& flow = node.flow->counters();
    EXPECT_LE(flow.peak_held_bytes, buffer)
        << node.router->name() << ": the headroom held (TRN-8.9)";
    total.xoff_frames += flow.xoff_frames;
    total.xon_frames += flow.xon_frames;
    total.bad_frames += flow.bad_frames;
    total.ecn_marked += flow.ecn_marked;
    total.peak_held_bytes =
        std::max(total.peak_held_bytes, flow.peak_held_bytes);
    for (unsigned p = 0; p < node.router->port_count(); ++p) {
      paused_ps += node.flow->paused_ps(p, kDataPriority);
    }
  }
  for (size_t i = 0; i < std::size(kSenders); ++i) {
    const Bytes& src = nodes[kSenders[i]].memory->bytes;
    const Bytes& dst = nodes[0].memory->bytes;
    EXPECT_TRUE(std::equal(src.begin() + i * kFlowBytes,
                           src.begin() + (i + 1) * kFlowBytes,
                           dst.begin() + i * kFlowBytes))
        << "sender " << kSenders[i] << "'s bytes";
  }

  // TRN-8.5, TRN-8.7, TRN-8.10: the incast pauses its upstream ports.
  EXPECT_GT(total.xoff_frames, 0u);
  EXPECT_GT(total.xon_frames, 0u);
  EXPECT_EQ(total.bad_frames, 0u);
  EXPECT_GT(paused_ps, 0u);
  EXPECT_GT(total.peak_held_bytes, PfcParams{}.xoff_bytes)
      << "inputs went past XOFF: the headroom was needed";

  // TRN-9.2, TRN-9.5, TRN-11.3: marks and their feedback, by control.
  EXPECT_GT(total.ecn_marked, 0u);
  for (size_t i = 0; i < std::size(kSenders); ++i) {
    SCOPED_TRACE(ControlOf(i));
    const Feedback& f = feedback[{roce::NodeIpv4(kSenders[i]), qps[i]}];
    const EngineCounters& sender = nodes[kSenders[i]].engine->counters();
    if (i < 3) {
      EXPECT_FALSE(f.cnp_ps.empty()) << "a DCQCN QP gets CNPs";
      EXPECT_EQ(sender.cnps_received, f.cnp_ps.size());
      for (size_t k = 1; k < f.cnp_ps.size(); ++k) {
        EXPECT_GE(f.cnp_ps[k] - f.cnp_ps[k - 1], kCnpIntervalPs);
      }
    } else {
      EXPECT_TRUE(f.cnp_ps.empty()) << "no CNPs for LQCC requests";
      EXPECT_GT(f.becn_acks, 0u) << "marks ride back as BECN";
    }
  }
  ExpectTsharkDecodes(std::move(frames),
                      {roce::Opcode::kWriteFirst, roce::Opcode::kWriteMiddle,
                       roce::Opcode::kWriteLast, roce::Opcode::kAcknowledge,
                       roce::Opcode::kCnp});
}

}  // namespace
}  // namespace lq::transport

namespace lq::transport {
namespace {

// TRN-10.1: a DCQCN QP paces its requests and its READ responses alike at
// RC, from the start at the line rate R: one packet of s bytes per 8·s/RC.
// R is set to 10 Gb/s so that pacing, not the links, spaces the packets.
TEST(Congestion, TRN_10_1_DcqcnPacesRequestsAndReadResponses) {
  constexpr double kRate = 10e9;
  TorusOptions options;
  options.engine.congestion = "dcqcn";
  options.engine.congestion_params.line_rate_bps = kRate;
  std::vector<EngineNode> nodes = BuildTorus("4", options);
  // Frames of one opcode family as each node sent them: (time, bytes).
  std::map<std::pair<unsigned, bool>, std::vector<std::pair<uint64_t, size_t>>>
      sent;  // (node, READ response?)
  for (unsigned n : {0u, 1u}) {
    nodes[n].engine->SetFrameTap(
        [&sent, n](const sc_time& at, const Bytes& frame) {
          const auto packet = roce::ParsePacket(frame);
          ASSERT_TRUE(packet.ok());
          const auto opcode = static_cast<roce::Opcode>(packet->bth.opcode);
          const bool response = opcode == roce::Opcode::kReadResponseFirst ||
                                opcode == roce::Opcode::kReadResponseMiddle ||
                                opcode == roce::Opcode::kReadResponseLast;
          const bool write = opcode == roce::Opcode::kWriteFirst ||
                             opcode == roce::Opcode::kWriteMiddle ||
                             opcode == roce::Opcode::kWriteLast;
          if (response || write) {
            sent[{n, response}].emplace_back(
                at.value() / sc_time(1, sc_core::SC_PS).value(), frame.size());
          }
        });
  }
  std::vector<EngineCompletion> completions;
  testing::ScThread workload("workload", [&] {
    TransportEngine& a = *nodes[0].engine;
    const auto connected = ConnectQps(nodes, 0, 1);
    ASSERT_TRUE(connected);
    const uint32_t qa = connected->a;
    SendWr write;
    write.wr_id = 1;
    write.kind = SendKind::kWrite;
    write.length = 8 * 1024;
    write.remote_address = 0x10000;
    write.rkey = nodes[1].rkey;
    SendWr read = write;
    read.wr_id = 2;
    read.kind = SendKind::kRead;
    ASSERT_TRUE(a.PostSend(qa, write, 0).ok());
    ASSERT_TRUE(a.PostSend(qa, read, 0x20000).ok());
    sc_core::wait(sc_time(100, SC_US));
    completions = a.PollCompletions();
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_EQ(completions.size(), 2u);
  for (const EngineCompletion& c : completions) {
    EXPECT_EQ(c.completion.status, CompletionStatus::kSuccess);
  }
  for (const auto& [key, frames] : sent) {
    SCOPED_TRACE(key.second ? "READ responses" : "WRITE packets");
    ASSERT_EQ(frames.size(), 8u) << "8 packets of 1 KiB";
    for (size_t k = 1; k < frames.size(); ++k) {
      const double gap_ps = 8.0 * frames[k - 1].second / kRate * 1e12;
      EXPECT_GE(frames[k].first - frames[k - 1].first, gap_ps)
          << "packet " << k << " left before its predecessor's time";
      EXPECT_LT(frames[k].first - frames[k - 1].first, gap_ps + 100'000)
          << "and not much later";
    }
  }
}

}  // namespace
}  // namespace lq::transport
