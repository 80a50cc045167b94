// SPDX-License-Identifier: Apache-2.0
// The RC protocol between a requester and a responder over a lossy wire
// (docs/spec/trn.md sections 6 and 7): PSNs, segmentation, ACK coalescing,
// duplicates, one NAK per sequence error, go-back-N, the local ACK timeout,
// retry and RNR counters, fatal NAKs, and a lossy soak in which every work
// request completes exactly once and every byte is placed exactly once.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "models/roce/psn.h"
#include "testbench/models/transport/loopback.h"

namespace lq::transport {
namespace {

using roce::AethType;
using roce::NakCode;

QpAttributes Side(uint32_t pmtu = 1024) {
  QpAttributes a;
  a.pmtu = pmtu;
  a.remote_node = 1;
  a.remote_qpn = 2;
  return a;
}

SendWr Send(uint64_t id, uint32_t length) {
  SendWr wr;
  wr.wr_id = id;
  wr.length = length;
  return wr;
}

SendWr Write(uint64_t id, uint32_t length, uint64_t address) {
  SendWr wr = Send(id, length);
  wr.kind = SendKind::kWrite;
  wr.remote_address = address;
  wr.rkey = 0x55;
  return wr;
}

SendWr Read(uint64_t id, uint32_t length, uint64_t address) {
  SendWr wr = Write(id, length, address);
  wr.kind = SendKind::kRead;
  return wr;
}

SendWr FetchAdd(uint64_t id, uint64_t address, uint64_t add) {
  SendWr wr = Write(id, 8, address);
  wr.kind = SendKind::kFetchAdd;
  wr.swap_add = add;
  return wr;
}

size_t Count(const std::vector<Reply>& replies, AethType type) {
  size_t n = 0;
  for (const Reply& r : replies) {
    n += r.aeth.type() == type ? 1 : 0;
  }
  return n;
}

TEST(RcProtocol, TRN_6_4_and_TRN_6_12_PsnsWrapAndCompletionsKeepOrder) {
  QpAttributes requester = Side(4096), responder = Side(4096);
  requester.sq_psn = responder.rq_psn = 0xFFFFFE;  // wraps inside WR 1
  Loopback wire(requester, responder);
  for (uint64_t id = 1; id <= 3; ++id) {
    wire.responder.PostReceive({100 + id, 10000});
  }
  wire.requester.Post(Send(1, 10000));  // 3 packets
  wire.requester.Post(Send(2, 100));
  wire.requester.Post(Send(3, 0));  // still one packet
  wire.Run(1000000);
  ASSERT_EQ(wire.sent.size(), 5u);
  const uint32_t want[] = {0xFFFFFE, 0xFFFFFF, 0, 1, 2};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(wire.sent[i].second.psn, want[i]) << "packet " << i;
  }
  ASSERT_EQ(wire.send_completions.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(wire.send_completions[i].wr_id, i + 1) << "posting order";
    EXPECT_EQ(wire.send_completions[i].status, CompletionStatus::kSuccess);
  }
  ASSERT_EQ(wire.receive_completions.size(), 3u);
  EXPECT_EQ(wire.receive_completions[0].byte_length, 10000u);
  EXPECT_EQ(wire.receive_completions[2].byte_length, 0u);
  EXPECT_EQ(wire.responder.msn(), 3u) << "TRN-6.10: three messages";
  EXPECT_EQ(wire.requester.retransmits(), 0u);
}

TEST(RcProtocol, TRN_6_9_AcksCoalesceUntilAckReq) {
  RequesterConfig rarely;
  rarely.ack_req_every = 100;
  Loopback wire(Side(256), Side(256), rarely, ResponderConfig{16});
  wire.requester.Post(Write(1, 40 * 256, 0x1000));
  wire.Run(1000000);
  ASSERT_EQ(wire.replies.size(), 3u) << "after 16 and 32 packets, and AckReq";
  EXPECT_EQ(wire.replies[0].psn, 15u) << "PSN = ePSN - 1";
  EXPECT_EQ(wire.replies[1].psn, 31u);
  EXPECT_EQ(wire.replies[2].psn, 39u);
  EXPECT_EQ(wire.placements.size(), 40u);
  EXPECT_EQ(wire.placements[39].address, 0x1000u + 39 * 256);
}

TEST(RcProtocol, TRN_7_2_and_TRN_7_3_OneLossIsOneNakAndAGoBack) {
  Loopback wire(Side(), Side());
  bool lost = false;
  wire.drop_request = [&](const RequestPacket& p) {
    if (p.psn == 5 && !lost) {
      return lost = true;
    }
    return false;
  };
  wire.requester.Post(Write(1, 20 * 1024, 0));
  wire.Run(1000000);
  EXPECT_EQ(Count(wire.replies, AethType::kNak), 1u)
      << "one NAK, then silence until PSN 5 comes again";
  EXPECT_EQ(wire.replies.front().psn, 5u) << "the NAK names ePSN";
  EXPECT_EQ(wire.responder.out_of_sequence(), 14u) << "PSNs 6..19 first time";
  EXPECT_EQ(wire.requester.retransmits(), 15u) << "5..19 again, in order";
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kSuccess);
  std::set<uint64_t> placed;
  for (const Placement& p : wire.placements) {
    EXPECT_TRUE(placed.insert(p.address).second) << "placed twice";
  }
  EXPECT_EQ(placed.size(), 20u);
}

TEST(RcProtocol, TRN_7_4_TimeoutResendsAfterItsPeriod) {
  QpAttributes requester = Side();
  requester.timeout = 3;  // 4.096 us x 8
  Loopback wire(requester, Side());
  wire.responder.PostReceive({9, 100});
  int sends = 0;
  wire.drop_request = [&](const RequestPacket&) { return ++sends == 1; };
  wire.requester.Post(Send(1, 100));
  wire.Run(1000000);
  ASSERT_EQ(wire.sent.size(), 2u) << "nothing follows it: only the timer";
  EXPECT_EQ(wire.sent[1].first - wire.sent[0].first, 32768u);
  EXPECT_TRUE(wire.sent[1].second.retransmit);
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kSuccess);
}

TEST(RcProtocol, TRN_6_11_LostAcksMakeDuplicatesThatAreNotExecuted) {
  QpAttributes requester = Side();
  requester.timeout = 1;
  Loopback wire(requester, Side());
  wire.responder.PostReceive({9, 5000});
  int acks = 0;
  wire.drop_reply = [&](const Back&) { return ++acks <= 2; };
  wire.requester.Post(Send(1, 5000));  // 5 packets, AckReq on the last
  wire.Run(10000000);
  EXPECT_GE(wire.responder.duplicates(), 5u) << "the whole message again";
  EXPECT_EQ(wire.placements.size(), 5u) << "each packet placed once";
  EXPECT_EQ(wire.receive_completions.size(), 1u) << "the receive WR once";
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kSuccess);
}

TEST(RcProtocol, TRN_7_5_and_TRN_7_9_RetryExhaustionFailsEachWrOnce) {
  QpAttributes requester = Side();
  requester.retry_cnt = 2;
  requester.timeout = 1;
  Loopback wire(requester, Side());
  wire.drop_request = [](const RequestPacket&) { return true; };
  wire.requester.Post(Send(1, 100));
  wire.requester.Post(Send(2, 100));
  wire.Run(10000000);
  size_t first_psn_sends = 0;
  for (const auto& [at, p] : wire.sent) {
    first_psn_sends += p.psn == 0 ? 1 : 0;
  }
  EXPECT_EQ(first_psn_sends, 3u) << "the original and retry_cnt retries";
  ASSERT_EQ(wire.send_completions.size(), 2u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kRetryExcErr);
  EXPECT_EQ(wire.send_completions[1].status, CompletionStatus::kFlushErr);
  EXPECT_TRUE(wire.requester.failed());
  wire.requester.Post(Send(3, 100));
  const auto late = wire.requester.TakeCompletions();
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].status, CompletionStatus::kFlushErr) << "TRN-5.2";
}

TEST(RcProtocol, TRN_7_6_RnrNakWaitsTheCodedDelayThenResends) {
  QpAttributes responder = Side();
  responder.min_rnr_timer = 2;  // 0.02 ms
  Loopback wire(Side(), responder);
  wire.requester.Post(Send(1, 100));
  wire.Run(5000);
  ASSERT_EQ(Count(wire.replies, AethType::kRnrNak), 1u);
  EXPECT_EQ(wire.replies[0].psn, 0u);
  EXPECT_EQ(wire.responder.expected_psn(), 0u) << "ePSN unchanged";
  wire.responder.PostReceive({9, 100});
  wire.Run(1000000);
  ASSERT_EQ(wire.sent.size(), 2u);
  EXPECT_GE(wire.sent[1].first, 2000u + 20000u)
      << "resent no sooner than the RNR NAK's arrival plus 0.02 ms";
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kSuccess);
}

TEST(RcProtocol, TRN_7_7_RnrRetryExhaustion) {
  QpAttributes requester = Side();
  requester.rnr_retry = 1;
  Loopback wire(requester, Side());
  wire.requester.Post(Send(1, 100));
  wire.Run(100000000);
  EXPECT_EQ(Count(wire.replies, AethType::kRnrNak), 2u);
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kRnrRetryExcErr);
}

TEST(RcProtocol, TRN_7_8_RemoteAccessErrorIsFatal) {
  QpAttributes responder = Side();
  responder.remote_write = false;
  Loopback wire(Side(), responder);
  wire.requester.Post(Write(1, 100, 0));
  wire.requester.Post(Write(2, 100, 0));
  wire.Run(1000000);
  EXPECT_TRUE(wire.responder_fatal);
  EXPECT_TRUE(wire.placements.empty()) << "refused requests are not executed";
  ASSERT_EQ(wire.send_completions.size(), 2u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kRemAccessErr);
  EXPECT_EQ(wire.send_completions[1].status, CompletionStatus::kFlushErr);
}

TEST(RcProtocol, TRN_7_8_ReadWithoutReadAccessIsRefused) {
  QpAttributes responder = Side();
  responder.remote_read = false;
  Loopback wire(Side(), responder);
  wire.requester.Post(Read(1, 100, 0));
  wire.Run(1000000);
  EXPECT_TRUE(wire.responder_fatal);
  EXPECT_TRUE(wire.landed.empty());
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kRemAccessErr);
}

TEST(RcProtocol, TRN_6_13_MalformedRequestsAreRefused) {
  struct Case {
    const char* what;
    roce::Opcode opcode;
    uint32_t length;
  };
  const Case cases[] = {
      {"MIDDLE without FIRST", roce::Opcode::kSendMiddle, 1024},
      {"ONLY longer than PMTU", roce::Opcode::kSendOnly, 1025},
      {"FIRST shorter than PMTU", roce::Opcode::kSendFirst, 1000},
      {"longer than the receive WR", roce::Opcode::kSendOnly, 600},
  };
  for (const Case& c : cases) {
    Responder responder(Side(), ResponderConfig{});
    responder.PostReceive({1, 512});
    RequestHeader request;
    request.opcode = c.opcode;
    request.length = c.length;
    const ResponderStep step = responder.OnRequest(request);
    ASSERT_TRUE(step.reply) << c.what;
    EXPECT_EQ(step.reply->aeth.type(), AethType::kNak) << c.what;
    EXPECT_EQ(step.reply->aeth.value(),
              static_cast<uint8_t>(NakCode::kInvalidRequest))
        << c.what;
    EXPECT_TRUE(step.fatal) << c.what;
    EXPECT_FALSE(step.place) << c.what;
  }
}

TEST(RcProtocol, TRN_6_4_and_TRN_6_12_ReadsTakeAPsnPerResponse) {
  Loopback wire(Side(), Side());
  wire.requester.Post(Write(1, 2000, 0));  // PSNs 0, 1
  wire.requester.Post(Read(2, 3000, 0));   // PSNs 2, 3, 4: one request
  wire.requester.Post(Write(3, 100, 0));   // PSN 5
  wire.Run(1000000);
  ASSERT_EQ(wire.sent.size(), 4u);
  EXPECT_EQ(wire.sent[2].second.opcode, roce::Opcode::kReadRequest);
  EXPECT_EQ(wire.sent[2].second.psn, 2u);
  EXPECT_EQ(wire.sent[2].second.reth->dma_length, 3000u);
  EXPECT_EQ(wire.sent[3].second.psn, 5u) << "the READ took three PSNs";
  ASSERT_EQ(wire.landed.size(), 3u);
  EXPECT_EQ(wire.landed[0].offset, 0u);
  EXPECT_EQ(wire.landed[2].offset, 2048u);
  EXPECT_EQ(wire.landed[2].length, 952u);
  ASSERT_EQ(wire.send_completions.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(wire.send_completions[i].wr_id, i + 1) << "posting order";
    EXPECT_EQ(wire.send_completions[i].status, CompletionStatus::kSuccess);
  }
}

TEST(RcProtocol, TRN_6_12_ALostReadResponseAsksForTheWholeReadAgain) {
  QpAttributes requester = Side();
  requester.timeout = 2;
  Loopback wire(requester, Side());
  bool lost = false;
  wire.drop_reply = [&](const Back& back) {
    if (back.opcode == roce::Opcode::kReadResponseMiddle && !lost) {
      return lost = true;
    }
    return false;
  };
  wire.requester.Post(Read(1, 4096, 0));  // PSNs 0..3
  wire.Run(10000000);
  size_t requests = 0;
  for (const auto& [at, p] : wire.sent) {
    requests += p.opcode == roce::Opcode::kReadRequest ? 1 : 0;
  }
  EXPECT_EQ(requests, 2u) << "re-requested whole after the gap";
  EXPECT_EQ(wire.responder.duplicates(), 1u) << "a duplicate READ, re-read";
  std::set<uint32_t> offsets;
  for (const Landed& l : wire.landed) {
    EXPECT_TRUE(offsets.insert(l.offset).second) << "landed twice";
  }
  EXPECT_EQ(offsets.size(), 4u);
  ASSERT_EQ(wire.send_completions.size(), 1u);
  EXPECT_EQ(wire.send_completions[0].status, CompletionStatus::kSuccess);
}

TEST(RcProtocol, TRN_6_11_DuplicateAtomicsAreReplayedNotRepeated) {
  QpAttributes requester = Side();
  requester.timeout = 1;
  Loopback wire(requester, Side());
  int acks = 0;
  wire.drop_reply = [&](const Back& back) {
    // The first and third answers are lost: the later ones arrive out of
    // order, so the atomics are asked again and answered from saved values.
    return back.opcode == roce::Opcode::kAtomicAcknowledge &&
           (++acks == 1 || acks == 3);
  };
  for (uint64_t id = 1; id <= 3; ++id) {
    wire.requester.Post(FetchAdd(id, 0x40, 5));
  }
  SendWr swap = FetchAdd(4, 0x40, 100);
  swap.kind = SendKind::kCompareSwap;
  swap.compare = 15;
  wire.requester.Post(swap);
  wire.Run(10000000);
  EXPECT_EQ(wire.atomics_performed, 4u) << "each performed once";
  EXPECT_GE(wire.responder.duplicates(), 1u);
  EXPECT_EQ(wire.words[0x40], 100u) << "0 +5 +5 +5 = 15, then swapped";
  std::map<uint64_t, uint64_t> originals;
  for (const Landed& l : wire.landed) {
    originals[l.wr_id] = l.original;
  }
  EXPECT_EQ(originals[1], 0u);
  EXPECT_EQ(originals[2], 5u);
  EXPECT_EQ(originals[3], 10u);
  EXPECT_EQ(originals[4], 15u);
  ASSERT_EQ(wire.send_completions.size(), 4u);
  for (const Completion& c : wire.send_completions) {
    EXPECT_EQ(c.status, CompletionStatus::kSuccess);
  }
}

TEST(RcProtocol, TRN_6_5_MaxRdAtomicBoundsOutstandingReads) {
  QpAttributes requester = Side();
  requester.max_rd_atomic = 2;
  Loopback wire(requester, Side());
  for (uint64_t id = 0; id < 5; ++id) {
    wire.requester.Post(Read(id, 100, 0));
  }
  wire.Run(500);  // before any response is back
  EXPECT_EQ(wire.sent.size(), 2u);
  wire.Run(1000000);
  EXPECT_EQ(wire.sent.size(), 5u);
  EXPECT_EQ(wire.send_completions.size(), 5u);
}

TEST(RcProtocol, TRN_6_12_AnAckPastAnUnansweredReadIsAnImplicitNak) {
  Requester requester(Side(), RequesterConfig{});
  requester.Post(Read(1, 100, 0));   // PSN 0
  requester.Post(Write(2, 100, 0));  // PSN 1
  ASSERT_TRUE(requester.Next(0));
  ASSERT_TRUE(requester.Next(0));
  requester.OnAcknowledge(1, roce::Aeth::Ack(1), 10);
  const auto again = requester.Next(10);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->opcode, roce::Opcode::kReadRequest);
  EXPECT_EQ(again->psn, 0u);
  EXPECT_TRUE(again->retransmit);
  EXPECT_TRUE(requester.TakeCompletions().empty())
      << "nothing completes past the unanswered READ";
}

// Losses both ways, seeded, over SENDs, WRITEs, READs and fetch-and-adds:
// every work request completes exactly once, in order, successfully; every
// byte is placed once and every atomic performed once.
TEST(RcProtocol, TRN_7_3_and_TRN_7_9_LossySoakCompletesEverythingOnce) {
  QpAttributes requester = Side(512);
  requester.timeout = 2;
  Loopback wire(requester, Side(512));
  std::mt19937 random(42);
  std::bernoulli_distribution lose(0.1);
  wire.drop_request = [&](const RequestPacket&) { return lose(random); };
  wire.drop_reply = [&](const Back&) { return lose(random); };
  std::map<uint64_t, uint32_t> lengths;
  for (uint64_t id = 0; id < 200; ++id) {
    const uint32_t length = static_cast<uint32_t>(random() % 4000);
    lengths[id] = length;
    if (id % 4 == 0) {
      wire.responder.PostReceive({id, length});
      wire.requester.Post(Send(id, length));
    } else if (id % 4 == 1) {
      wire.requester.Post(Write(id, length, id << 20));
    } else if (id % 4 == 2) {
      wire.requester.Post(Read(id, length, id << 20));
    } else {
      lengths[id] = 0;  // no bytes: one add of 1 to a shared counter
      wire.requester.Post(FetchAdd(id, 0x80, 1));
    }
  }
  wire.Run(UINT64_MAX - 1);
  ASSERT_EQ(wire.send_completions.size(), 200u);
  for (uint64_t id = 0; id < 200; ++id) {
    EXPECT_EQ(wire.send_completions[id].wr_id, id);
    EXPECT_EQ(wire.send_completions[id].status, CompletionStatus::kSuccess);
  }
  std::set<std::tuple<bool, uint64_t, uint64_t>> placed;
  std::map<uint64_t, uint64_t> bytes;
  for (const Placement& p : wire.placements) {
    const uint64_t id = p.to_receive_wr ? p.wr_id : p.address >> 20;
    const uint64_t at = p.to_receive_wr ? p.offset : p.address;
    EXPECT_TRUE(placed.insert({p.to_receive_wr, id, at}).second)
        << "placed twice";
    bytes[id] += p.length;
  }
  std::set<std::pair<uint64_t, uint32_t>> read;
  for (const Landed& l : wire.landed) {
    EXPECT_TRUE(read.insert({l.wr_id, l.offset}).second) << "landed twice";
    bytes[l.wr_id] += l.length;
  }
  for (const auto& [id, length] : lengths) {
    EXPECT_EQ(bytes[id], length) << "message " << id;
  }
  EXPECT_EQ(wire.receive_completions.size(), 50u);
  EXPECT_EQ(wire.words[0x80], 50u) << "every fetch-and-add once";
  EXPECT_EQ(wire.atomics_performed, 50u);
  EXPECT_GT(wire.requester.retransmits(), 0u);
  EXPECT_FALSE(wire.requester.failed());
}

}  // namespace
}  // namespace lq::transport
