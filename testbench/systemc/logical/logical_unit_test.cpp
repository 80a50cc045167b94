// SPDX-License-Identifier: Apache-2.0
// The logical unit on a 2x2 torus of transport engines (docs/spec/log.md):
// loads, stores and atomics to local and remote global addresses, checked
// against the cards' memories; a unit per node shared by its requesters;
// atomicity under contention from every node; same-home ordering and none
// across homes; the errors LOG-1.3 names; paged accesses through the page
// table.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/logical_fabric.h"
#include "systemc/logical/requester.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::logical {
namespace {

using testing::Answer;
using testing::Requester;

constexpr unsigned kNodes = 4;

// A 2x2 torus with a requester on every node's unit.
struct Bench {
  std::unique_ptr<cluster::LogicalFabric> fabric;
  std::vector<std::unique_ptr<Requester>> requesters;

  explicit Bench(unsigned requesters_per_node = 1,
                 const cluster::LogicalFabricConfig& config = {}) {
    fabric = cluster::BuildTorusFabric("2x2", config);
    for (unsigned n = 0; n < kNodes; ++n) {
      for (unsigned r = 0; r < requesters_per_node; ++r) {
        requesters.push_back(std::make_unique<Requester>(
            ("requester" + std::to_string(n) + "_" + std::to_string(r))
                .c_str()));
        requesters.back()->socket.bind(fabric->unit(n).socket);
      }
    }
  }
  Requester& at(unsigned node, unsigned index = 0) {
    return *requesters.at(node * (requesters.size() / kNodes) + index);
  }
};

Bytes Pattern(size_t length, uint8_t seed) {
  Bytes bytes(length);
  for (size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 7);
  }
  return bytes;
}

void RunToEnd(::lq::testing::ScThread& thread) {
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
  ASSERT_TRUE(thread.finished()) << "the test thread did not finish";
}

TEST(LogicalUnit, LOG_3_2_LoadsAndStoresLocalAndRemote) {
  Bench bench;
  ::lq::testing::ScThread thread("test", [&] {
    Requester& r0 = bench.at(0);
    EXPECT_EQ(r0.Store(GlobalAddress(0, 0x1000), Pattern(256, 1)).status,
              AccessStatus::kOk);
    EXPECT_EQ(r0.Store(GlobalAddress(3, 0x2000), Pattern(200, 2)).status,
              AccessStatus::kOk);
    EXPECT_EQ(r0.Store(GlobalAddress(1, 0x3001), Pattern(1, 3)).status,
              AccessStatus::kOk)
        << "one byte at an odd address";
    Requester& r2 = bench.at(2);
    const Answer local_copy = r2.Load(GlobalAddress(0, 0x1000), 256);
    EXPECT_EQ(local_copy.status, AccessStatus::kOk);
    EXPECT_EQ(local_copy.data, Pattern(256, 1)) << "node 0's bytes from 2";
    EXPECT_EQ(r2.Load(GlobalAddress(3, 0x2000), 200).data, Pattern(200, 2));
    EXPECT_EQ(bench.at(3).Load(GlobalAddress(3, 0x2000), 200).data,
              Pattern(200, 2))
        << "node 3 reads its own memory locally";
    EXPECT_EQ(r2.Load(GlobalAddress(1, 0x3000), 2).data,
              (Bytes{0, Pattern(1, 3)[0]}));
  });
  RunToEnd(thread);
  EXPECT_EQ(bench.fabric->memory(3).Peek(0x2000, 200), Pattern(200, 2))
      << "the bytes are in the home's memory, at the home offset";
  EXPECT_EQ(bench.fabric->memory(0).Peek(0x1000, 256), Pattern(256, 1));
  EXPECT_EQ(bench.fabric->unit(0).counters().local_ops, 1u);
  EXPECT_EQ(bench.fabric->unit(0).counters().remote_stores, 2u);
  EXPECT_EQ(bench.fabric->unit(2).counters().remote_loads, 3u);
}

TEST(LogicalUnit, LOG_3_3_AtomicsRemoteAndLocal) {
  Bench bench;
  ::lq::testing::ScThread thread("test", [&] {
    Requester& r = bench.at(1);
    const uint64_t word = GlobalAddress(2, 0x100);
    bench.fabric->memory(2).Poke(0x100, Bytes{5, 0, 0, 0, 0, 0, 0, 0});
    Answer a = r.Atomic(word, AtomicRequest{AtomicOp::kFadd, 8, 10});
    EXPECT_EQ(a.status, AccessStatus::kOk);
    EXPECT_EQ(a.old, 5u);
    a = r.Atomic(word, AtomicRequest{AtomicOp::kCas, 8, 99, 15});
    EXPECT_EQ(a.old, 15u) << "CAS that matches";
    a = r.Atomic(word, AtomicRequest{AtomicOp::kCas, 8, 7, 15});
    EXPECT_EQ(a.old, 99u) << "CAS that does not";
    a = r.Atomic(word, AtomicRequest{AtomicOp::kSwap, 8, 0x1122334455667788});
    EXPECT_EQ(a.old, 99u) << "SWAP over the CmpSwap loop";
    a = r.Atomic(word + 4, AtomicRequest{AtomicOp::kFadd, 4, 1});
    EXPECT_EQ(a.old, 0x11223344u) << "4-byte FADD on the high half";
    a = r.Atomic(word, AtomicRequest{AtomicOp::kSwap, 4, 0xCAFEF00D});
    EXPECT_EQ(a.old, 0x55667788u);
    // Node 2's own atomics on its memory.
    a = bench.at(2).Atomic(word, AtomicRequest{AtomicOp::kFadd, 4, 3});
    EXPECT_EQ(a.old, 0xCAFEF00Du);
  });
  RunToEnd(thread);
  EXPECT_EQ(LoadLittleEndian(bench.fabric->memory(2).Peek(0x100, 8).data(), 8),
            0x11223345CAFEF010u);
  EXPECT_EQ(bench.fabric->unit(1).counters().remote_atomics, 6u);
}

// Every node's requesters add to one counter at node 0, by 8-byte FADD and
// by 4-byte FADD (a CmpSwap loop), node 0's own included: no update may be
// lost (LOG-3.5).
TEST(LogicalUnit, LOG_3_5_NoUpdateLostUnderContention) {
  constexpr unsigned kThreads = 2;
  constexpr unsigned kAdds = 25;
  Bench bench(kThreads);
  std::vector<std::unique_ptr<::lq::testing::ScThread>> threads;
  for (unsigned n = 0; n < kNodes; ++n) {
    for (unsigned t = 0; t < kThreads; ++t) {
      threads.push_back(std::make_unique<::lq::testing::ScThread>(
          ("adder" + std::to_string(n) + "_" + std::to_string(t)).c_str(),
          [&, n, t] {
            for (unsigned i = 0; i < kAdds; ++i) {
              EXPECT_EQ(bench.at(n, t)
                            .Atomic(GlobalAddress(0, 0x40),
                                    AtomicRequest{AtomicOp::kFadd, 8, 1})
                            .status,
                        AccessStatus::kOk);
              EXPECT_EQ(bench.at(n, t)
                            .Atomic(GlobalAddress(0, 0x4C),
                                    AtomicRequest{AtomicOp::kFadd, 4, 2})
                            .status,
                        AccessStatus::kOk);
            }
          }));
    }
  }
  sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_MS));
  for (const auto& thread : threads) {
    ASSERT_TRUE(thread->finished());
  }
  const uint64_t total = kNodes * kThreads * kAdds;
  const Bytes memory = bench.fabric->memory(0).Peek(0x40, 16);
  EXPECT_EQ(LoadLittleEndian(memory.data(), 8), total);
  EXPECT_EQ(LoadLittleEndian(memory.data() + 12, 4), 2 * total);
  uint64_t retries = 0;
  for (unsigned n = 0; n < kNodes; ++n) {
    retries += bench.fabric->unit(n).counters().cmpswap_retries;
  }
  std::printf("CmpSwap loop rounds lost to another requester: %llu\n",
              static_cast<unsigned long long>(retries));
}

// LOG-1.1: every endpoint has its own unit, and several requesters share a
// unit's one target socket: each gets its own answers.
TEST(LogicalUnit, LOG_1_1_AUnitPerEndpointServesEachOfItsRequesters) {
  Bench bench(2);
  ASSERT_EQ(bench.fabric->nodes(), kNodes);
  for (unsigned n = 0; n < kNodes; ++n) {
    EXPECT_EQ(bench.fabric->unit(n).node(), n);
  }
  Answer first, second;
  ::lq::testing::ScThread thread("thread", [&] {
    bench.at(0, 0).Store(GlobalAddress(3, 0x40), Pattern(16, 1));
    bench.at(0, 1).Store(GlobalAddress(3, 0x80), Pattern(16, 2));
    first = bench.at(0, 0).Load(GlobalAddress(3, 0x80), 16);
    second = bench.at(0, 1).Load(GlobalAddress(3, 0x40), 16);
  });
  RunToEnd(thread);
  EXPECT_EQ(first.data, Pattern(16, 2)) << "requester 0 reads requester 1's";
  EXPECT_EQ(second.data, Pattern(16, 1)) << "and requester 1 reads 0's";
}

// LOG-4.3: the unit orders nothing across homes. A local store issued just
// after a remote store, from another requester of the same unit,
// completes long before it; a fence between them (LOG-3.6) would be the
// way to order them.
TEST(LogicalUnit, LOG_4_3_DifferentHomesAreNotOrdered) {
  Bench bench(2);
  sc_core::sc_time remote_done, local_done;
  ::lq::testing::ScThread remote("remote", [&] {
    EXPECT_EQ(
        bench.at(1, 0).Store(GlobalAddress(2, 0x1000), Pattern(256, 3)).status,
        AccessStatus::kOk);
    remote_done = sc_core::sc_time_stamp();
  });
  ::lq::testing::ScThread local("local", [&] {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_NS));
    EXPECT_EQ(
        bench.at(1, 1).Store(GlobalAddress(1, 0x1000), Pattern(64, 4)).status,
        AccessStatus::kOk);
    local_done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(remote.finished() && local.finished());
  EXPECT_LT(local_done, remote_done)
      << "the later local store did not wait for the remote one";
  EXPECT_EQ(bench.fabric->memory(1).Peek(0x1000, 64), Pattern(64, 4));
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x1000, 256), Pattern(256, 3));
}

// LOG-4.1: a writer stores data then a flag to one home; a reader that
// sees the flag and then loads the data from that home sees the data.
TEST(LogicalUnit, LOG_4_1_SameHomeAccessesKeepTheirOrder) {
  constexpr uint64_t kRounds = 30;
  Bench bench;
  const uint64_t data = GlobalAddress(2, 0x8000);
  const uint64_t flag = GlobalAddress(2, 0x9000);
  ::lq::testing::ScThread writer("writer", [&] {
    for (uint64_t i = 1; i <= kRounds; ++i) {
      Bytes bytes(128, static_cast<uint8_t>(i));
      ASSERT_EQ(bench.at(1).Store(data, bytes).status, AccessStatus::kOk);
      Bytes word(8);
      StoreLittleEndian(word.data(), 8, i);
      ASSERT_EQ(bench.at(1).Store(flag, word).status, AccessStatus::kOk);
    }
  });
  unsigned seen = 0;
  ::lq::testing::ScThread reader("reader", [&] {
    uint64_t last = 0;
    while (last < kRounds) {
      const Answer f = bench.at(3).Load(flag, 8);
      const uint64_t value = LoadLittleEndian(f.data.data(), 8);
      const Answer d = bench.at(3).Load(data, 128);
      for (uint8_t byte : d.data) {
        ASSERT_GE(byte, value) << "data older than the flag that follows it";
      }
      seen += value != last ? 1 : 0;
      last = value;
    }
  });
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
  ASSERT_TRUE(writer.finished() && reader.finished());
  EXPECT_GT(seen, 1u) << "the reader saw the flag move more than once";
}

// LOG-4.1 with a CmpSwap loop: node 1 issues a 4-byte FADD (READ, then
// CmpSwap) to a word at node 2 and, a moment later from another requester,
// a store to the same word. In issue order the FADD comes first, so the
// word ends as the store left it; a store slipping in between the loop's
// READ and CmpSwap would be overwritten by the retried FADD.
TEST(LogicalUnit, LOG_4_1_LaterAccessWaitsForACmpSwapLoop) {
  Bench bench(2);
  const uint64_t word = GlobalAddress(2, 0x500);
  Answer fadd, store;
  ::lq::testing::ScThread first("first", [&] {
    fadd = bench.at(1, 0).Atomic(word, AtomicRequest{AtomicOp::kFadd, 4, 1});
  });
  ::lq::testing::ScThread second("second", [&] {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_NS));
    store = bench.at(1, 1).Store(word, Bytes{0x77, 0, 0, 0});
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(first.finished() && second.finished());
  EXPECT_EQ(fadd.status, AccessStatus::kOk);
  EXPECT_EQ(fadd.old, 0u) << "the FADD saw the word before the store";
  EXPECT_EQ(store.status, AccessStatus::kOk);
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x500, 4), (Bytes{0x77, 0, 0, 0}))
      << "performed in issue order: the FADD, then the store";
}

// LOG-3.6 with several threads on one requester: a fence completes only
// after every access accepted before it, even one held behind an earlier
// fence.
TEST(LogicalUnit, LOG_3_6_FenceWaitsForEveryEarlierAccess) {
  Bench bench;
  Requester& r = bench.at(0);
  sc_core::sc_time first_store_done, held_store_done, second_fence_done;
  ::lq::testing::ScThread store_x("store_x", [&] {
    r.Store(GlobalAddress(3, 0x100), Pattern(64, 1));
    first_store_done = sc_core::sc_time_stamp();
  });
  ::lq::testing::ScThread fence_1("fence_1", [&] {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_NS));
    EXPECT_EQ(r.Fence().status, AccessStatus::kOk);
  });
  ::lq::testing::ScThread store_a("store_a", [&] {
    sc_core::wait(sc_core::sc_time(2, sc_core::SC_NS));
    r.Store(GlobalAddress(3, 0x200), Pattern(64, 2));
    held_store_done = sc_core::sc_time_stamp();
  });
  ::lq::testing::ScThread fence_2("fence_2", [&] {
    sc_core::wait(sc_core::sc_time(3, sc_core::SC_NS));
    EXPECT_EQ(r.Fence().status, AccessStatus::kOk);
    second_fence_done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(store_x.finished() && fence_1.finished() && store_a.finished() &&
              fence_2.finished());
  EXPECT_GT(held_store_done, first_store_done)
      << "the store behind the first fence went after it";
  EXPECT_GE(second_fence_done, held_store_done)
      << "the second fence waited for the store accepted before it";
}

TEST(LogicalUnit, LOG_2_6_And_LOG_3_1_BadAccessesAreRefusedAndSendNothing) {
  Bench bench;
  ::lq::testing::ScThread thread("test", [&] {
    Requester& r = bench.at(0);
    EXPECT_EQ(r.Load(uint64_t{1} << 56, 8).status, AccessStatus::kAddressError)
        << "reserved SPACE";
    EXPECT_EQ(r.Load(GlobalAddress(4, 0), 8).status,
              AccessStatus::kAddressError)
        << "no node 4 in a 2x2 torus";
    Answer a = r.Load(GlobalAddress(1, 0), 257);
    EXPECT_EQ(a.status, AccessStatus::kBurstError) << "above log.max_burst";
    EXPECT_EQ(a.response, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(r.Load(GlobalAddress(1, 0x10000 - 4), 8).status,
              AccessStatus::kBurstError)
        << "crosses a 64 KiB page";
    EXPECT_EQ(
        r.Atomic(GlobalAddress(1, 4), AtomicRequest{AtomicOp::kFadd, 8, 1})
            .status,
        AccessStatus::kCommandError)
        << "misaligned 8-byte atomic (LOG-3.4)";
    EXPECT_EQ(
        r.Atomic(GlobalAddress(1, 0), AtomicRequest{AtomicOp::kFadd, 2, 1})
            .status,
        AccessStatus::kCommandError);
    uint8_t bytes[4] = {};
    uint8_t enables[4] = {0xFF, 0, 0xFF, 0};
    tlm::tlm_generic_payload& raw = r.raw();
    raw.set_command(tlm::TLM_WRITE_COMMAND);
    raw.set_address(GlobalAddress(1, 0));
    raw.set_data_ptr(bytes);
    raw.set_data_length(4);
    raw.set_streaming_width(4);
    raw.set_byte_enable_ptr(enables);
    raw.set_byte_enable_length(4);
    a = r.IssueRaw();
    EXPECT_EQ(a.status, AccessStatus::kByteEnableError);
    EXPECT_EQ(a.response, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    raw.set_byte_enable_ptr(nullptr);
    raw.set_streaming_width(2);
    EXPECT_EQ(r.IssueRaw().status, AccessStatus::kBurstError)
        << "streaming width";
  });
  RunToEnd(thread);
  const LogicalCounters& c = bench.fabric->unit(0).counters();
  EXPECT_EQ(c.address_errors, 2u);
  EXPECT_EQ(c.shape_errors, 6u);
  EXPECT_EQ(bench.fabric->node(0).engine->counters().packets_sent, 0u)
      << "nothing went out (LOG-2.6)";
}

// With no owner firmware to answer, faults end at log.fault_timeout
// (fault_protocol_test.cpp has the protocol).
TEST(LogicalUnit, LOG_5_4_PagedAccessesGoWhereTheirPteSays) {
  cluster::LogicalFabricConfig config;
  config.unit.fault_timeout = sc_core::sc_time(20, sc_core::SC_US);
  Bench bench(1, config);
  const AddressSpace space = [] {
    AddressSpace s;
    s.endpoints = kNodes;
    return s;
  }();
  const uint64_t ga = GlobalAddress(0, space.direct_bytes + 0x20010);
  Pte pte;
  pte.valid = pte.read = pte.write = pte.atomic = true;
  pte.home = 3;
  pte.frame = 5;
  ASSERT_TRUE(bench.fabric->unit(1).InstallPte(PageNumber(space, ga), pte));
  Pte read_only = pte;
  read_only.write = false;
  ASSERT_TRUE(
      bench.fabric->unit(2).InstallPte(PageNumber(space, ga), read_only));
  Pte outside = pte;
  outside.home = 9;
  EXPECT_FALSE(bench.fabric->unit(2).InstallPte(7, outside));
  ::lq::testing::ScThread thread("test", [&] {
    EXPECT_EQ(bench.at(1).Store(ga, Pattern(64, 9)).status, AccessStatus::kOk);
    EXPECT_EQ(bench.at(2).Load(ga, 64).data, Pattern(64, 9))
        << "node 2's read-only entry maps the same page";
    EXPECT_EQ(bench.at(2).Store(ga, Pattern(64, 1)).status,
              AccessStatus::kFaultError)
        << "no W: NO_WRITE";
    EXPECT_EQ(bench.at(0).Load(ga, 64).status, AccessStatus::kFaultError)
        << "node 0 has no entry";
  });
  RunToEnd(thread);
  EXPECT_EQ(bench.fabric->memory(3).Peek(5 * 0x10000 + 0x10, 64),
            Pattern(64, 9))
      << "frame 5 of node 3, at the offset in the page";
  const LogicalCounters& two = bench.fabric->unit(2).counters();
  EXPECT_EQ(two.faults_raised[static_cast<size_t>(FaultCause::kNoWrite)], 1u);
  EXPECT_EQ(two.fault_timeouts, 1u);
  EXPECT_EQ(two.bad_ptes, 1u);
  EXPECT_EQ(bench.fabric->unit(0).counters().fault_timeouts, 1u);
}

// LOG-6.12: a home that dies leaves accesses to it UNREACHABLE once the
// transport gives up, each completing once; accesses to other homes go on.
TEST(LogicalUnit, LOG_6_12_DeadHomeIsUnreachableOthersContinue) {
  cluster::LogicalFabricConfig config;
  config.timeout = 1;  // 8.2 us per attempt
  Bench bench(2, config);
  unsigned others_ok = 0;
  bool dead = false;
  ::lq::testing::ScThread victim("victim", [&] {
    Requester& r = bench.at(0, 0);
    EXPECT_EQ(r.Store(GlobalAddress(3, 0x100), Pattern(32, 4)).status,
              AccessStatus::kOk);
    bench.fabric->node(3).engine->interface().Fail();
    dead = true;
    const Answer lost = r.Load(GlobalAddress(3, 0x100), 32);
    EXPECT_EQ(lost.status, AccessStatus::kUnreachable);
    EXPECT_EQ(lost.response, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(r.Store(GlobalAddress(3, 0x100), Pattern(32, 5)).status,
              AccessStatus::kUnreachable)
        << "the connection is gone";
  });
  ::lq::testing::ScThread other("other", [&] {
    while (!dead) {
      sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
    }
    for (unsigned i = 0; i < 20; ++i) {
      const Answer a = bench.at(0, 1).Load(GlobalAddress(1, 0x200), 16);
      others_ok += a.status == AccessStatus::kOk ? 1 : 0;
      sc_core::wait(sc_core::sc_time(5, sc_core::SC_US));
    }
  });
  sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
  ASSERT_TRUE(victim.finished() && other.finished());
  EXPECT_EQ(others_ok, 20u) << "other homes are unaffected";
  EXPECT_EQ(bench.fabric->unit(0).counters().unreachable, 2u)
      << "each access completed once";
}

// LOG-6.11: the unit reports every statistic the clause names, under
// <node>.logical., and they move with the accesses that they count.
TEST(LogicalUnit, LOG_6_11_TheUnitCountsWhatTheClauseNames) {
  Bench bench;
  ::lq::testing::ScThread thread("test", [&] {
    bench.at(0).Store(GlobalAddress(0, 0x100), Pattern(8, 1));
    bench.at(0).Load(GlobalAddress(1, 0x100), 8);
    bench.at(0).Store(GlobalAddress(2, 0x100), Pattern(8, 2));
  });
  RunToEnd(thread);
  std::map<std::string, uint64_t> stats;
  const std::string prefix = std::string(bench.fabric->unit(0).name()) + ".";
  for (const Stat& stat : bench.fabric->unit(0).Stats()) {
    ASSERT_EQ(stat.name.compare(0, prefix.size(), prefix), 0) << stat.name;
    stats[stat.name.substr(prefix.size())] = stat.value;
  }
  for (const char* name : {"local_ops",
                           "remote_loads",
                           "remote_stores",
                           "remote_atomics",
                           "cmpswap_retries",
                           "address_errors",
                           "shape_errors",
                           "faults_raised.not_mapped",
                           "faults_raised.no_read",
                           "faults_raised.no_write",
                           "faults_raised.no_atomic",
                           "faults_raised.migrating",
                           "faults_served",
                           "fault_rejects",
                           "fault_timeouts",
                           "busy_responses",
                           "late_fault_responses",
                           "held_slot_waits",
                           "fault_latency_ns.sum",
                           "fault_latency_ns.count",
                           "invalidations",
                           "copies",
                           "migrations",
                           "bad_messages",
                           "bad_ptes",
                           "unreachable"}) {
    EXPECT_EQ(stats.count(name), 1u) << name;
  }
  EXPECT_EQ(stats["local_ops"], 1u);
  EXPECT_EQ(stats["remote_loads"], 1u);
  EXPECT_EQ(stats["remote_stores"], 1u);
}

}  // namespace
}  // namespace lq::logical
