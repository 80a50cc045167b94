// SPDX-License-Identifier: Apache-2.0
// Invalidation and migration (docs/spec/log.md LOG-6.8, LOG-6.9) on a 2x2
// torus of logical units: acknowledgements, what they wait for, resends, a
// dead sharer, and a stale-data checker that records every write and checks
// every read while the owner migrates the page again and again.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <set>
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
using testing::Requester;
using testing::RunUntilDone;

constexpr unsigned kNodes = 4;
constexpr uint64_t kPage = 4096;

cluster::LogicalFabricConfig SmallPages() {
  cluster::LogicalFabricConfig config;
  config.unit.space.page_bytes = kPage;
  // With no owner firmware in most tests, an unanswered fault ends soon.
  config.unit.fault_timeout = sc_core::sc_time(10, sc_core::SC_US);
  return config;
}

// The GA of page `page` of node 0's paged region.
uint64_t PagedGa(uint64_t page, uint64_t offset = 0) {
  return GlobalAddress(0, AddressSpace{}.direct_bytes + page * kPage + offset);
}

// A 2x2 torus with `per_node` requesters on every unit.
struct Bench {
  std::unique_ptr<cluster::LogicalFabric> fabric;
  std::vector<std::unique_ptr<Requester>> requesters;
  unsigned per_node;

  explicit Bench(const cluster::LogicalFabricConfig& config = SmallPages(),
                 unsigned requesters_per_node = 1)
      : per_node(requesters_per_node) {
    fabric = cluster::BuildTorusFabric("2x2", config);
    requesters = BindRequesters(*fabric, kNodes, per_node);
  }
  Requester& at(unsigned node, unsigned index = 0) {
    return *requesters.at(node * per_node + index);
  }
  LogicalUnit& unit(unsigned node) { return fabric->unit(node); }
  static uint64_t Page(uint64_t page) { return PagedGa(page) / kPage; }
};

// Waits for the next mailbox entry of `unit` and takes it.
MailboxEntry TakeMail(LogicalUnit& unit) {
  while (unit.mailbox_size() == 0) {
    sc_core::wait(unit.mailbox_event());
  }
  MailboxEntry entry = *unit.mailbox_head();
  unit.PopMailbox();
  return entry;
}

// LOG-6.8: the sharer removes the entries at once and acknowledges; a
// sharer with no entry acknowledges too; the next access faults.
TEST(Invalidation, LOG_6_8_EntriesGoAndTheSharerAcknowledges) {
  Bench bench;
  ASSERT_TRUE(bench.unit(1).InstallPte(bench.Page(1), FullRights(3, 7)));
  ASSERT_TRUE(bench.unit(1).InstallPte(bench.Page(2), FullRights(3, 8)));
  std::vector<MailboxEntry> mail;
  AccessStatus before = AccessStatus::kFaultError;
  AccessStatus after = AccessStatus::kOk;
  ScThread thread("test", [&] {
    before = bench.at(1).Load(PagedGa(1), 8).status;
    const uint16_t id = bench.unit(0).Invalidate(1, PagedGa(1), 2).value();
    bench.unit(0).Invalidate(2, PagedGa(1), 2);  // holds no entry
    mail.push_back(TakeMail(bench.unit(0)));
    mail.push_back(TakeMail(bench.unit(0)));
    const MailboxEntry& from_one = mail[0].from == 1 ? mail[0] : mail[1];
    EXPECT_EQ(std::get<InvalAck>(from_one.message.value()).inval_id, id);
    after = bench.at(1).Load(PagedGa(2), 8).status;
  });
  RunUntilDone({&thread});
  EXPECT_EQ(before, AccessStatus::kOk);
  ASSERT_EQ(mail.size(), 2u);
  EXPECT_EQ(std::set<uint16_t>({mail[0].from, mail[1].from}),
            (std::set<uint16_t>{1, 2}));
  EXPECT_FALSE(mail[0].peer_lost || mail[1].peer_lost);
  EXPECT_EQ(bench.unit(1).counters().invalidations, 1u);
  // Both pages are gone: an access faults (and, unanswered, times out).
  EXPECT_EQ(NotMapped(bench.unit(1).counters()), 1u);
  EXPECT_EQ(after, AccessStatus::kFaultError);
}

// LOG-6.8: only a page's owner revokes it; an INVAL_REQ from another node
// is discarded and counted, and the entry stays.
TEST(Invalidation, LOG_6_8_OnlyTheOwnerInvalidates_fail) {
  Bench bench;
  ASSERT_TRUE(bench.unit(1).InstallPte(bench.Page(1), FullRights(3, 7)));
  // INVAL_REQ for node 0's page 1, sent by node 2.
  const Bytes message = EncodeLogMessage(InvalRequest{9, PagedGa(1), 1});
  bench.fabric->memory(2).Poke(0x100, message);
  AccessStatus after = AccessStatus::kFaultError;
  ScThread thread("test", [&] {
    transport::SendWr wr;
    wr.wr_id = uint64_t{1} << 40;
    wr.length = static_cast<uint32_t>(message.size());
    const uint32_t qpn = bench.unit(2).connection_qpn(1).value();
    ASSERT_TRUE(bench.fabric->node(2)
                    .engine->PostSend(qpn, wr, LogicalUnit::kDirectBase + 0x100)
                    .ok());
    sc_core::wait(sc_core::sc_time(5, sc_core::SC_US));
    after = bench.at(1).Load(PagedGa(1), 8).status;
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.unit(1).bad_messages(), 1u);
  EXPECT_EQ(bench.unit(1).counters().invalidations, 0u);
  EXPECT_EQ(after, AccessStatus::kOk) << "the entry is still there";
}

// LOG-6.8: the acknowledgement waits for an access already translated with
// a removed entry.
TEST(Invalidation, LOG_6_8_AcknowledgementWaitsForAccessesInFlight_fail) {
  Bench bench;
  ASSERT_TRUE(bench.unit(0).InstallPte(bench.Page(1), FullRights(3, 7)));
  sc_core::sc_time load_done;
  sc_core::sc_time acked;
  ScThread load("load", [&] {
    EXPECT_EQ(bench.at(0).Load(PagedGa(1), 256).status, AccessStatus::kOk);
    load_done = sc_core::sc_time_stamp();
  });
  ScThread owner("owner", [&] {
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_NS));  // load translated
    bench.unit(0).Invalidate(0, PagedGa(1), 1);  // node 0 is a sharer too
    TakeMail(bench.unit(0));
    acked = sc_core::sc_time_stamp();
  });
  RunUntilDone({&load, &owner});
  EXPECT_GT(load_done, sc_core::sc_time(50, sc_core::SC_NS))
      << "the load went to node 3";
  // The unit finished the load, then the answer took its pipeline back.
  EXPECT_GE(acked + LogicalUnitConfig{}.pipeline, load_done);
}

// LOG-6.8: an unacknowledged INVAL_REQ is sent again; the owner's firmware
// still hears once. A sharer whose connection fails is reported instead.
TEST(Invalidation, LOG_6_8_ResentUntilAcknowledgedAndADeadSharerReported) {
  cluster::LogicalFabricConfig config = SmallPages();
  config.unit.inval_retry = sc_core::sc_time(20, sc_core::SC_NS);
  config.timeout = 1;  // 8.2 us per transport attempt
  Bench bench(config);
  std::vector<MailboxEntry> mail;
  ScThread thread("test", [&] {
    bench.unit(0).Invalidate(3, PagedGa(1), 1);
    mail.push_back(TakeMail(bench.unit(0)));
    sc_core::wait(sc_core::sc_time(5, sc_core::SC_US));
    EXPECT_EQ(bench.unit(0).mailbox_size(), 0u) << "one acknowledgement";
    bench.fabric->node(2).engine->interface().Fail();
    bench.unit(0).Invalidate(2, PagedGa(1), 1);
    mail.push_back(TakeMail(bench.unit(0)));
    mail.push_back(TakeMail(bench.unit(0)));
    sc_core::wait(sc_core::sc_time(200, sc_core::SC_US));
  });
  RunUntilDone({&thread});
  ASSERT_EQ(mail.size(), 3u);
  EXPECT_FALSE(mail[0].peer_lost);
  EXPECT_GE(bench.unit(3).counters().invalidations, 2u)
      << "the request came more than once";
  EXPECT_TRUE(mail[1].peer_lost && mail[1].message.has_value())
      << "the invalidation, reported lost";
  EXPECT_EQ(mail[1].from, 2);
  EXPECT_TRUE(mail[2].peer_lost && !mail[2].message.has_value())
      << "LOG-6.12: the connection to node 2 failed";
  EXPECT_EQ(mail[2].from, 2);
  EXPECT_EQ(bench.unit(0).mailbox_size(), 0u) << "reported once";
}

// LOG-6.8, LOG-6.9 and issue 8's checker: nodes 2 and 3 write their own
// word of a page of node 0 with rising values while nodes 1 to 3 read
// both; node 0's firmware answers faults and every 30 us migrates the page
// to another home (invalidate every sharer, wait for the acknowledgements,
// copy the frame, then answer held faults). Every read must return a value
// no older than the last write completed before it began, and no newer
// than the last one begun before it ended.
TEST(Invalidation, LOG_4_5_LOG_5_9_And_LOG_6_9_MigrationNeverReturnsStaleData) {
  constexpr unsigned kWrites = 150;
  cluster::LogicalFabricConfig config = SmallPages();
  config.unit.fault_timeout = sc_core::sc_time(10, sc_core::SC_MS);
  Bench bench(config, 2);
  LogicalUnit& owner_unit = bench.unit(0);
  const uint64_t page_ga = PagedGa(1);
  uint16_t home = 1;
  uint32_t frame = 40;
  bool migrating = false;
  bool writers_done = false;
  unsigned migrations = 0;
  std::set<uint16_t> sharers;
  sc_core::sc_event migrated;
  std::array<uint64_t, 2> completed{};  // per word: last write completed
  std::array<uint64_t, 2> begun{};      // per word: last write begun
  unsigned reads = 0;
  unsigned stale = 0;

  ScThread faults("faults", [&] {
    for (;;) {
      while (owner_unit.fault_queue_size() == 0 || migrating) {
        sc_core::wait(owner_unit.fault_queued_event() | migrated);
      }
      const FaultRecord record = *owner_unit.fault_head();
      owner_unit.PopFault();
      const FaultResponse answer = AnswerTo(
          record, config.unit.space,
          migrations == 0 ? FaultStatus::kAllocated : FaultStatus::kMigrated,
          FullRights(home, frame).Encode());
      sharers.insert(record.request.requester);
      owner_unit.AnswerFault(record.request.requester, answer);
    }
  });
  ScThread migrator("migrator", [&] {
    while (!writers_done) {
      sc_core::wait(sc_core::sc_time(30, sc_core::SC_US));
      migrating = true;
      const std::set<uint16_t> invalidated = sharers;
      for (const uint16_t sharer : invalidated) {
        owner_unit.Invalidate(sharer, page_ga, 1);
      }
      for (size_t acks = 0; acks < invalidated.size(); ++acks) {
        EXPECT_FALSE(TakeMail(owner_unit).peer_lost);
      }
      sharers.clear();
      const uint16_t to = static_cast<uint16_t>(home % 3 + 1);  // 1, 2, 3
      const uint32_t to_frame = frame + 1;
      for (uint64_t at = 0; at < kPage; at += 256) {
        const Answer chunk =
            bench.at(0).Load(GlobalAddress(home, frame * kPage + at), 256);
        ASSERT_EQ(chunk.status, AccessStatus::kOk);
        ASSERT_EQ(
            bench.at(0)
                .Store(GlobalAddress(to, to_frame * kPage + at), chunk.data)
                .status,
            AccessStatus::kOk);
      }
      home = to;
      frame = to_frame;
      ++migrations;
      migrating = false;
      migrated.notify(sc_core::SC_ZERO_TIME);
    }
  });
  std::vector<std::unique_ptr<ScThread>> threads;
  for (unsigned word = 0; word < 2; ++word) {
    threads.push_back(std::make_unique<ScThread>(
        ("writer" + std::to_string(word)).c_str(), [&, word] {
          Requester& r = bench.at(2 + word, 0);
          for (uint64_t value = 1; value <= kWrites; ++value) {
            Bytes bytes(8);
            StoreLittleEndian(bytes.data(), 8, value);
            begun[word] = value;
            ASSERT_EQ(r.Store(page_ga + 8 * word, bytes).status,
                      AccessStatus::kOk);
            completed[word] = value;
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
          }
        }));
  }
  for (unsigned node = 1; node < kNodes; ++node) {
    threads.push_back(std::make_unique<ScThread>(
        ("reader" + std::to_string(node)).c_str(), [&, node] {
          Requester& r = bench.at(node, node == 1 ? 0 : 1);
          while (completed[0] < kWrites || completed[1] < kWrites) {
            const std::array<uint64_t, 2> low = completed;
            const Answer a = r.Load(page_ga, 16);
            ASSERT_EQ(a.status, AccessStatus::kOk);
            ++reads;
            for (unsigned word = 0; word < 2; ++word) {
              const uint64_t seen =
                  LoadLittleEndian(a.data.data() + 8 * word, 8);
              if (seen < low[word] || seen > begun[word]) {
                ++stale;
              }
            }
          }
        }));
  }
  ScThread end("end", [&] {
    while (completed[0] < kWrites || completed[1] < kWrites) {
      sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    }
    writers_done = true;
  });
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
  for (const auto& thread : threads) {
    ASSERT_TRUE(thread->finished()) << thread->name();
  }
  EXPECT_EQ(stale, 0u) << "of " << reads << " reads";
  EXPECT_GE(migrations, 5u);
  EXPECT_GT(reads, 100u);
  const Bytes last = bench.fabric->memory(home).Peek(frame * kPage, 16);
  EXPECT_EQ(LoadLittleEndian(last.data(), 8), kWrites);
  EXPECT_EQ(LoadLittleEndian(last.data() + 8, 8), kWrites)
      << "the last writes are in the page's final frame";
}

}  // namespace
}  // namespace lq::logical
