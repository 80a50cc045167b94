// SPDX-License-Identifier: Apache-2.0
// The cross-node page-fault protocol (docs/spec/log.md section 6) on a 2x2
// torus of logical units, with a stand-in for each owner's fault handler:
// first touch, holding accesses behind a fault, held-slot waits, BUSY,
// the fault record, every answer, the bounds of LOG-6.7, a dead owner and
// messages that do not parse.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/logical_fabric.h"
#include "systemc/logical/requester.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/logical/fault_test_support.h"
#include "testbench/systemc/logical/owner_firmware.h"

namespace lq::logical {
namespace {

using ::lq::testing::ScThread;
using testing::Answer;
using testing::AnswerTo;
using testing::BindRequesters;
using testing::FullRights;
using testing::NotMapped;
using testing::OwnerFirmware;
using testing::PagedIndex;
using testing::Requester;
using testing::RunUntilDone;

constexpr unsigned kNodes = 4;
constexpr uint64_t kPage = 64 * 1024;

AddressSpace Space() {
  AddressSpace space;
  space.endpoints = kNodes;
  return space;
}

// The GA of page `page` of `owner`'s paged region.
uint64_t PagedGa(uint16_t owner, uint64_t page, uint64_t offset = 0) {
  return GlobalAddress(owner, Space().direct_bytes + page * kPage + offset);
}

FaultResponse Map(const FaultRecord& record, uint64_t pte,
                  FaultStatus status = FaultStatus::kMap) {
  return AnswerTo(record, Space(), status, pte);
}

// Owner firmware that maps page p of any owner to frame 100 + p of `home`.
OwnerFirmware::Decide MapTo(uint16_t home, FaultStatus status) {
  return [home, status](const FaultRecord& record) {
    const uint64_t page = PagedIndex(Space(), record.request.ga);
    return std::optional<FaultResponse>(Map(
        record, FullRights(home, static_cast<uint32_t>(100 + page)).Encode(),
        status));
  };
}

// A 2x2 torus, `per_node` requesters on every unit, an owner firmware on
// every node deciding with `decide`.
struct Bench {
  std::unique_ptr<cluster::LogicalFabric> fabric;
  std::vector<std::unique_ptr<Requester>> requesters;
  std::vector<std::unique_ptr<OwnerFirmware>> owners;
  unsigned per_node;

  Bench(OwnerFirmware::Decide decide,
        const cluster::LogicalFabricConfig& config = {},
        unsigned requesters_per_node = 1,
        sc_core::sc_time service = sc_core::sc_time(1, sc_core::SC_US))
      : per_node(requesters_per_node) {
    fabric = cluster::BuildTorusFabric("2x2", config);
    requesters = BindRequesters(*fabric, kNodes, per_node);
    for (unsigned n = 0; n < kNodes; ++n) {
      owners.push_back(
          std::make_unique<OwnerFirmware>(("owner" + std::to_string(n)).c_str(),
                                          fabric->unit(n), decide, service));
    }
  }
  Requester& at(unsigned node, unsigned index = 0) {
    return *requesters.at(node * per_node + index);
  }
  const LogicalCounters& counters(unsigned node) {
    return fabric->unit(node).counters();
  }
};

Bytes Pattern(size_t length, uint8_t seed) {
  Bytes bytes(length);
  for (size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 3);
  }
  return bytes;
}

// LOG-5.7, LOG-5.8, LOG-6.5: the first store to a page of node 0 from node
// 1 faults to node 0, whose firmware allocates a frame on node 2; the
// store is retried and lands there; later accesses go straight to it.
TEST(FaultProtocol, LOG_5_8_And_LOG_6_5_FirstTouchGoesToTheOwnerAndCompletes) {
  Bench bench(MapTo(2, FaultStatus::kAllocated));
  sc_core::sc_time faulted_store;
  ScThread thread("test", [&] {
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    EXPECT_EQ(bench.at(1).Store(PagedGa(0, 3, 0x40), Pattern(64, 1)).status,
              AccessStatus::kOk);
    faulted_store = sc_core::sc_time_stamp() - start;
    const Answer again = bench.at(1).Load(PagedGa(0, 3, 0x40), 64);
    EXPECT_EQ(again.status, AccessStatus::kOk);
    EXPECT_EQ(again.data, Pattern(64, 1));
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.fabric->memory(2).Peek(103 * kPage + 0x40, 64),
            Pattern(64, 1))
      << "frame 103 of node 2";
  EXPECT_EQ(NotMapped(bench.counters(1)), 1u) << "one fault, then a hit";
  EXPECT_EQ(bench.counters(0).faults_served, 1u);
  EXPECT_EQ(bench.counters(1).fault_latency_count, 1u);
  EXPECT_GT(bench.counters(1).fault_latency_ns_sum, 1000u)
      << "the 1 us handler is inside the fault's latency";
  EXPECT_GE(faulted_store, sc_core::sc_time(1, sc_core::SC_US));
  ASSERT_EQ(bench.owners[0]->records().size(), 1u);
  EXPECT_EQ(bench.owners[0]->records()[0].request.requester, 1);
}

// LOG-6.1: a fault to its own page goes into its own queue, not the network.
TEST(FaultProtocol, LOG_6_1_OwnerFaultsWithoutTheNetwork) {
  Bench bench(MapTo(0, FaultStatus::kAllocated));
  ScThread thread("test", [&] {
    EXPECT_EQ(bench.at(0).Store(PagedGa(0, 1), Pattern(8, 2)).status,
              AccessStatus::kOk);
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.fabric->memory(0).Peek(101 * kPage, 8), Pattern(8, 2));
  EXPECT_EQ(bench.fabric->node(0).engine->counters().packets_sent, 0u);
}

// LOG-6.1: accesses of the same node to a page being faulted wait behind
// the first without asking again, and complete after it in issue order;
// an access to another page goes on meanwhile.
TEST(FaultProtocol,
     LOG_6_1_And_LOG_6_6_LaterAccessesToThePageWaitBehindTheFirst) {
  cluster::LogicalFabricConfig config;
  Bench bench(MapTo(3, FaultStatus::kAllocated), config, 3,
              sc_core::sc_time(20, sc_core::SC_US));
  std::vector<std::string> order;
  ScThread first("first", [&] {
    EXPECT_EQ(bench.at(1, 0).Store(PagedGa(0, 5), Pattern(16, 7)).status,
              AccessStatus::kOk);
    order.push_back("first");
  });
  ScThread behind("behind", [&] {
    sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
    const Answer a = bench.at(1, 1).Load(PagedGa(0, 5), 16);
    EXPECT_EQ(a.data, Pattern(16, 7)) << "it sees the first store";
    order.push_back("behind");
  });
  ScThread other("other", [&] {
    sc_core::wait(sc_core::sc_time(200, sc_core::SC_NS));
    EXPECT_EQ(bench.at(1, 2).Load(GlobalAddress(2, 0x100), 8).status,
              AccessStatus::kOk);
    order.push_back("other");
  });
  RunUntilDone({&first, &behind, &other});
  EXPECT_EQ(order, (std::vector<std::string>{"other", "first", "behind"}));
  EXPECT_EQ(bench.owners[0]->records().size(), 1u) << "one FAULT_REQ";
  EXPECT_EQ(NotMapped(bench.counters(1)), 1u);
}

// LOG-6.1: with every held slot taken a faulting access waits for one.
TEST(FaultProtocol, LOG_6_1_NoFreeSlotMeansTheFaultWaits) {
  cluster::LogicalFabricConfig config;
  config.unit.held_slots = 1;
  Bench bench(MapTo(2, FaultStatus::kAllocated), config, 2,
              sc_core::sc_time(10, sc_core::SC_US));
  ScThread a("a", [&] {
    EXPECT_EQ(bench.at(1, 0).Store(PagedGa(0, 1), Pattern(8, 1)).status,
              AccessStatus::kOk);
  });
  ScThread b("b", [&] {
    EXPECT_EQ(bench.at(1, 1).Store(PagedGa(0, 2), Pattern(8, 2)).status,
              AccessStatus::kOk);
  });
  RunUntilDone({&a, &b});
  EXPECT_EQ(bench.counters(1).held_slot_waits, 1u);
  EXPECT_EQ(bench.owners[0]->records().size(), 2u);
  const auto& records = bench.owners[0]->records();
  EXPECT_NE(records[0].request.fault_id, records[1].request.fault_id)
      << "the only slot, named afresh for each fault";
}

// LOG-6.2: a full fault queue answers BUSY at once; the requester asks
// again after log.busy_retry and completes.
TEST(FaultProtocol, LOG_6_2_FullQueueAnswersBusyAndTheRequesterRetries) {
  cluster::LogicalFabricConfig config;
  config.unit.fault_queue_entries = 1;
  config.unit.busy_retry = sc_core::sc_time(5, sc_core::SC_US);
  Bench bench(MapTo(0, FaultStatus::kAllocated), config, 1,
              sc_core::sc_time(20, sc_core::SC_US));
  std::vector<std::unique_ptr<ScThread>> threads;
  for (unsigned n = 1; n < kNodes; ++n) {
    threads.push_back(std::make_unique<ScThread>(
        ("requester" + std::to_string(n)).c_str(), [&, n] {
          EXPECT_EQ(bench.at(n).Store(PagedGa(0, n), Pattern(8, n)).status,
                    AccessStatus::kOk);
        }));
  }
  RunUntilDone({threads[0].get(), threads[1].get(), threads[2].get()});
  EXPECT_GE(bench.counters(0).busy_responses, 2u)
      << "two of three found the queue full";
  EXPECT_EQ(bench.counters(0).faults_served, 3u);
  for (uint16_t n = 1; n < kNodes; ++n) {
    EXPECT_EQ(bench.fabric->memory(0).Peek((100 + n) * kPage, 8),
              Pattern(8, n));
  }
}

// LOG-6.3: the record names the access, its cause, requester and slot; the
// owner numbers its records and stamps their arrival.
TEST(FaultProtocol, LOG_6_3_TheRecordDescribesTheFault) {
  Bench bench(MapTo(1, FaultStatus::kAllocated));
  ScThread thread("test", [&] {
    bench.at(2).Store(PagedGa(3, 7, 0x18), Pattern(24, 1));
    bench.at(2).Atomic(PagedGa(3, 8, 0x20),
                       AtomicRequest{AtomicOp::kFadd, 8, 1});
  });
  RunUntilDone({&thread});
  const auto& records = bench.owners[3]->records();
  ASSERT_EQ(records.size(), 2u);
  const auto words = FaultRecordWords(records[0]);
  EXPECT_EQ(uint64_t{words[1]} << 32 | words[0], PagedGa(3, 7, 0x18));
  EXPECT_EQ(words[2] & 0xFFFF, 2u) << "REQUESTER";
  EXPECT_EQ(words[3], 24u << 16 | 1u << 8 | 1u) << "SIZE, NOT_MAPPED, store";
  EXPECT_GT(uint64_t{words[5]} << 32 | words[4], 0u) << "arrival time";
  EXPECT_EQ(records[1].request.access, AccessKind::kAtomic);
  EXPECT_EQ(records[1].request.size, 8);
  EXPECT_EQ(records[1].seq, records[0].seq + 1);
}

// LOG-6.5: each REJECT reason's status, counted as fault_rejects.
TEST(FaultProtocol, LOG_6_5_RejectReasonsGiveTheirStatuses_fail) {
  Bench bench([](const FaultRecord& record) {
    FaultResponse response = Map(record, 0, FaultStatus::kReject);
    const uint64_t page = PagedIndex(Space(), record.request.ga);
    response.reason = static_cast<RejectReason>(page);
    return std::optional<FaultResponse>(response);
  });
  std::vector<AccessStatus> statuses;
  ScThread thread("test", [&] {
    for (uint64_t reason = 1; reason <= 4; ++reason) {
      statuses.push_back(bench.at(1).Load(PagedGa(2, reason), 8).status);
    }
  });
  RunUntilDone({&thread});
  EXPECT_EQ(statuses,
            (std::vector<AccessStatus>{
                AccessStatus::kAddressError, AccessStatus::kCommandError,
                AccessStatus::kFaultError, AccessStatus::kFaultError}));
  EXPECT_EQ(bench.counters(1).fault_rejects, 4u);
}

// LOG-6.5, LOG-5.3: a MAP whose PTE may not be installed (no such home)
// completes the access with FAULT_ERROR and counts bad_ptes.
TEST(FaultProtocol, LOG_6_5_AnswerWithABadPteIsAFaultError_fail) {
  Bench bench(MapTo(9, FaultStatus::kMap));
  AccessStatus status = AccessStatus::kOk;
  ScThread thread("test",
                  [&] { status = bench.at(1).Load(PagedGa(0, 1), 8).status; });
  RunUntilDone({&thread});
  EXPECT_EQ(status, AccessStatus::kFaultError);
  EXPECT_EQ(bench.counters(1).bad_ptes, 1u);
}

// LOG-6.7: no answer within log.fault_timeout is a FAULT_ERROR; the answer
// that comes later is discarded and counted, and installs nothing.
TEST(FaultProtocol, LOG_6_7_TimeoutThenTheLateAnswerIsDiscarded_fail) {
  cluster::LogicalFabricConfig config;
  config.unit.fault_timeout = sc_core::sc_time(50, sc_core::SC_US);
  config.unit.held_slots = 1;  // the late answer finds its slot reused
  Bench bench(MapTo(2, FaultStatus::kAllocated), config, 1,
              sc_core::sc_time(80, sc_core::SC_US));
  AccessStatus first = AccessStatus::kOk;
  AccessStatus second = AccessStatus::kOk;
  sc_core::sc_time took;
  ScThread thread("test", [&] {
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    first = bench.at(1).Load(PagedGa(0, 4), 8).status;
    took = sc_core::sc_time_stamp() - start;
    // Slot 0 again, for page 5, while page 4's answer is on its way.
    second = bench.at(1).Load(PagedGa(0, 5), 8).status;
    sc_core::wait(sc_core::sc_time(200, sc_core::SC_US));  // both answered
    bench.at(1).Load(PagedGa(0, 4), 8);
  });
  RunUntilDone({&thread}, sc_core::sc_time(1, sc_core::SC_MS));
  EXPECT_EQ(first, AccessStatus::kFaultError);
  EXPECT_EQ(second, AccessStatus::kFaultError)
      << "page 4's answer did not serve page 5's fault in the same slot";
  EXPECT_GE(took, sc_core::sc_time(50, sc_core::SC_US));
  EXPECT_LT(took, sc_core::sc_time(60, sc_core::SC_US));
  const LogicalCounters& c = bench.counters(1);
  EXPECT_EQ(c.fault_timeouts, 3u);
  EXPECT_EQ(c.late_fault_responses, 3u) << "every answer came after 80 us";
  EXPECT_EQ(NotMapped(c), 3u)
      << "late answers install nothing: the third access faults again";
}

// LOG-6.7: a late answer for the same page, arriving while the slot it
// named serves the next access held behind, installs nothing and decides
// nothing: the slot's FAULT_ID is not the one it was asked with.
TEST(FaultProtocol, LOG_6_7_LateAnswerDoesNotServeTheNextFaultInItsSlot_fail) {
  cluster::LogicalFabricConfig config;
  config.unit.fault_timeout = sc_core::sc_time(50, sc_core::SC_US);
  config.unit.held_slots = 1;
  Bench bench(
      [](const FaultRecord& record) {
        FaultResponse answer = Map(record, 0, FaultStatus::kReject);
        answer.reason = RejectReason::kPermission;  // COMMAND_ERROR
        return std::optional<FaultResponse>(answer);
      },
      config, 2, sc_core::sc_time(80, sc_core::SC_US));
  AccessStatus first = AccessStatus::kOk;
  AccessStatus second = AccessStatus::kOk;
  ScThread a("a", [&] {
    first = bench.at(1, 0).Store(PagedGa(0, 3), Pattern(8, 1)).status;
  });
  ScThread b("b", [&] {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    second = bench.at(1, 1).Load(PagedGa(0, 3), 8).status;  // held behind
  });
  RunUntilDone({&a, &b}, sc_core::sc_time(1, sc_core::SC_MS));
  EXPECT_EQ(first, AccessStatus::kFaultError) << "timed out";
  EXPECT_EQ(second, AccessStatus::kFaultError)
      << "timed out too: the REJECT for the first came while the second "
         "waited in the same slot, and must not complete it";
  EXPECT_EQ(bench.counters(1).fault_rejects, 0u);
  EXPECT_EQ(bench.counters(1).late_fault_responses, 2u);
}

// LOG-6.7: an answer that does not grant the access makes it fault again;
// beyond log.fault_retries faults it completes with FAULT_ERROR.
TEST(FaultProtocol, LOG_6_7_MoreFaultsThanRetriesIsAFaultError_fail) {
  Bench bench([](const FaultRecord& record) {
    Pte read_only;
    read_only.valid = read_only.read = true;
    read_only.home = 2;
    read_only.frame = 1;
    return std::optional<FaultResponse>(Map(record, read_only.Encode()));
  });
  AccessStatus status = AccessStatus::kOk;
  ScThread thread("test", [&] {
    status = bench.at(1).Store(PagedGa(0, 1), Pattern(8, 1)).status;
  });
  RunUntilDone({&thread});
  EXPECT_EQ(status, AccessStatus::kFaultError);
  const LogicalCounters& c = bench.counters(1);
  EXPECT_EQ(NotMapped(c), 1u);
  EXPECT_EQ(c.faults_raised[static_cast<size_t>(FaultCause::kNoWrite)], 4u);
  EXPECT_EQ(bench.owners[0]->records().size(), 4u)
      << "log.fault_retries FAULT_REQs, then no more";
}

// LOG-6.7, LOG-6.12: a fault whose owner has died completes UNREACHABLE
// once the transport gives up; faults to other owners go on.
TEST(FaultProtocol, LOG_6_12_DeadOwnerIsUnreachableOthersContinue) {
  cluster::LogicalFabricConfig config;
  config.timeout = 1;  // 8.2 us per attempt
  Bench bench(MapTo(1, FaultStatus::kAllocated), config, 2);
  AccessStatus lost = AccessStatus::kOk;
  AccessStatus fine = AccessStatus::kFaultError;
  ScThread victim("victim", [&] {
    bench.fabric->node(3).engine->interface().Fail();
    lost = bench.at(0, 0).Load(PagedGa(3, 1), 8).status;
  });
  ScThread other("other", [&] {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    fine = bench.at(0, 1).Load(PagedGa(2, 1), 8).status;
  });
  RunUntilDone({&victim, &other});
  EXPECT_EQ(lost, AccessStatus::kUnreachable);
  EXPECT_EQ(fine, AccessStatus::kOk);
  EXPECT_EQ(bench.counters(0).unreachable, 1u);
}

// LOG-6.10: a message that does not parse is discarded and counted; the
// connection goes on carrying faults.
TEST(FaultProtocol, LOG_6_10_BadMessagesAreDiscardedAndCounted_fail) {
  Bench bench(MapTo(2, FaultStatus::kAllocated));
  transport::TransportEngine& engine = *bench.fabric->node(1).engine;
  const uint32_t qpn = bench.fabric->unit(1).connection_qpn(0).value();
  bench.fabric->memory(1).Poke(0x8000, Bytes{9, 0, 0, 0, 0, 0, 0, 0});
  AccessStatus status = AccessStatus::kFaultError;
  ScThread thread("test", [&] {
    transport::SendWr wr;
    wr.wr_id = uint64_t{1} << 40;  // not one of the unit's
    wr.length = 8;
    ASSERT_TRUE(
        engine.PostSend(qpn, wr, LogicalUnit::kDirectBase + 0x8000).ok());
    sc_core::wait(sc_core::sc_time(5, sc_core::SC_US));
    status = bench.at(1).Load(PagedGa(0, 1), 8).status;
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.fabric->unit(0).bad_messages(), 1u) << "TYPE 9";
  EXPECT_EQ(status, AccessStatus::kOk);
}

}  // namespace
}  // namespace lq::logical
