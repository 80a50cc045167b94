// SPDX-License-Identifier: Apache-2.0
// Cross-node page faults served by firmware (docs/spec/log.md section 6,
// issue 8): a 2x2 torus of boards with transport engines and logical
// units boots the link bring-up firmware, which trains the links, switches
// in the routes and then serves, on each card, the faults on its paged
// region (firmware/images/page_service.c) from the unit's interrupt: the
// region is a buffer pooled over all four cards, page i homed on card
// (owner + i) mod 4 (LOG-5.5). Node 1 stores to page 6 of node 0: node 0's
// firmware asks node 2's for a frame (FRAME_ALLOC_REQ/RSP through the
// mailboxes) and answers ALLOCATED with it; nodes 2 and 3 load the page
// back (MAP); node 0 touches page 4, homed on itself; and node 3 touches a
// page beyond what node 0 hands out (REJECT RANGE).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "systemc/logical/requester.h"
#include "testbench/systemc/common/firmware_image.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::cluster {
namespace {

using logical::AccessStatus;
using logical::testing::Requester;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kNodes = 4;
constexpr uint64_t kPage = 64 * 1024;
constexpr uint64_t kDirect = uint64_t{16} << 30;
// page_service's first pool frame: the pool is the top 4 GiB of the 16 GiB
// direct region (LOG-5.6).
constexpr uint64_t kFirstPoolFrame = kDirect - (uint64_t{4} << 30);

uint64_t PagedGa(uint16_t owner, uint64_t page, uint64_t offset = 0) {
  return logical::GlobalAddress(owner, kDirect + page * kPage + offset);
}

// NOT_MAPPED faults node `n`'s unit raised as requester.
uint64_t NotMapped(Cluster& cluster, unsigned n) {
  return cluster.node(n)
      .logical()
      ->counters()
      .faults_raised[static_cast<size_t>(logical::FaultCause::kNotMapped)];
}

Bytes Pattern(size_t length, uint8_t seed) {
  Bytes bytes(length);
  for (size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + 5 * i);
  }
  return bytes;
}

// A 2x2 torus of boards with logical units running the bring-up
// firmware, and a requester on every unit.
struct Bench {
  std::vector<std::string> console;
  unsigned serving = 0;  // firmware asleep in its watch loop, serving
  std::unique_ptr<Cluster> cluster;
  std::vector<std::unique_ptr<Requester>> requesters;

  explicit Bench(uint8_t qp_timeout = transport::QpAttributes{}.timeout) {
    ClusterConfig config;
    config.port = testing::ScaledPcie6Port();
    config.network.transport = transport::TransportEngineConfig{};
    config.network.logical = logical::LogicalUnitConfig{};
    config.network.logical_timeout = qp_timeout;
    config.on_console_line = [this](const std::string& node,
                                    const std::string& line) {
      console.push_back(node + ": " + line);
      // The last line before the firmware sleeps in its watch loop.
      serving += line.rfind("link bring-up: watching", 0) == 0 ? 1 : 0;
    };
    cluster = std::make_unique<Cluster>(
        "cluster", config,
        topo::CreateTopology("torus", {{"dims", "2x2"}}).value());
    const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
    EXPECT_TRUE(image.ok() && cluster->Load(*image).ok());
    for (unsigned n = 0; n < kNodes; ++n) {
      requesters.push_back(std::make_unique<Requester>(
          ("requester" + std::to_string(n)).c_str()));
      requesters.back()->socket.bind(cluster->node(n).logical()->socket);
    }
  }
  // In a test thread: until every firmware serves faults.
  bool WaitServing() {
    for (int t = 0; t < 1000 && serving < kNodes; ++t) {
      sc_core::wait(sc_time(10, SC_US));
    }
    return serving == kNodes;
  }
  std::string Transcript() const {
    std::string transcript;
    for (const std::string& line : console) {
      transcript += line + "\n";
    }
    return transcript;
  }
  // Node `n`'s CPU statistic `what` (instructions, cycles).
  uint64_t Cpu(unsigned n, const std::string& what) {
    for (const Stat& stat : cluster->node(n).board().cpu().Stats()) {
      if (stat.name.size() > what.size() &&
          stat.name.compare(stat.name.size() - what.size(), what.size(),
                            what) == 0) {
        return stat.value;
      }
    }
    ADD_FAILURE() << "no CPU statistic " << what;
    return 0;
  }
  bool Printed(const std::string& line) const {
    return std::find(console.begin(), console.end(), line) != console.end();
  }
};

TEST(ClusterLogicalTest,
     LOG_5_5_LOG_5_7_And_LOG_6_4_FirmwarePoolsPagesAndServesFaults) {
  Bench bench;
  Cluster& cluster = *bench.cluster;
  std::vector<std::unique_ptr<Requester>>& requesters = bench.requesters;
  std::vector<AccessStatus> statuses;
  Bytes loaded;
  sc_time first_touch;
  sc_time mapped;          // node 2's load: a fault answered MAP
  bool again_ok = false;   // node 2's second load of the page
  uint64_t refaults = 1;   // and the faults it raised
  uint64_t work0[2] = {};  // instructions and cycles over the first touch
  uint64_t work2[2] = {};
  testing::ScThread work("work", [&] {
    ASSERT_TRUE(bench.WaitServing()) << "every firmware serves faults";
    const sc_time start = sc_core::sc_time_stamp();
    work0[0] = bench.Cpu(0, ".instructions");
    work0[1] = bench.Cpu(0, ".cycles");
    work2[0] = bench.Cpu(2, ".instructions");
    work2[1] = bench.Cpu(2, ".cycles");
    statuses.push_back(
        requesters[1]->Store(PagedGa(0, 6, 0x80), Pattern(64, 1)).status);
    first_touch = sc_core::sc_time_stamp() - start;
    work0[0] = bench.Cpu(0, ".instructions") - work0[0];
    work0[1] = bench.Cpu(0, ".cycles") - work0[1];
    work2[0] = bench.Cpu(2, ".instructions") - work2[0];
    work2[1] = bench.Cpu(2, ".cycles") - work2[1];
    for (const unsigned reader : {2u, 3u}) {
      const sc_time issued = sc_core::sc_time_stamp();
      const logical::testing::Answer load =
          requesters[reader]->Load(PagedGa(0, 6, 0x80), 64);
      if (reader == 2) {
        mapped = sc_core::sc_time_stamp() - issued;
      }
      statuses.push_back(load.status);
      loaded.insert(loaded.end(), load.data.begin(), load.data.end());
    }
    // LOG-5.7: node 2 holds the page's entry now; its next access goes
    // straight to the home without a fault.
    const uint64_t faulted = NotMapped(cluster, 2);
    again_ok =
        requesters[2]->Load(PagedGa(0, 6, 0x90), 8).status == AccessStatus::kOk;
    refaults = NotMapped(cluster, 2) - faulted;
    statuses.push_back(
        requesters[0]->Store(PagedGa(0, 4), Pattern(8, 2)).status);
    statuses.push_back(requesters[3]->Load(PagedGa(0, 5000), 8).status);
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));

  const std::string transcript = bench.Transcript();
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(statuses,
            (std::vector<AccessStatus>{AccessStatus::kOk, AccessStatus::kOk,
                                       AccessStatus::kOk, AccessStatus::kOk,
                                       AccessStatus::kAddressError}));
  Bytes twice = Pattern(64, 1);
  twice.insert(twice.end(), twice.begin(), twice.end());
  EXPECT_EQ(loaded, twice) << "nodes 2 and 3 read node 1's store";
  EXPECT_TRUE(again_ok);
  EXPECT_EQ(refaults, 0u) << "LOG-5.7: one fault per page and node";
  // Page 6 took node 2's first pool frame, page 4 node 0's.
  EXPECT_EQ(cluster.node(2).card_memory()->Peek(kFirstPoolFrame + 0x80, 64),
            Pattern(64, 1));
  EXPECT_EQ(cluster.node(0).card_memory()->Peek(kFirstPoolFrame, 8),
            Pattern(8, 2));
  EXPECT_EQ(cluster.finished_nodes(), kNodes) << transcript;
  EXPECT_EQ(cluster.worst_status(), 0) << transcript;
  for (const char* line :
       {"node0: page service: 5 faults served, 2 pages allocated, 0 frames "
        "lent, 1 rejected, 0 pages moved (0 abandoned), 0 frames freed, 0 "
        "commands refused",
        "node2: page service: 0 faults served, 0 pages allocated, 1 frames "
        "lent, 0 rejected, 0 pages moved (0 abandoned), 0 frames freed, 0 "
        "commands refused"}) {
    EXPECT_TRUE(bench.Printed(line)) << line << "\n" << transcript;
  }
  EXPECT_GT(first_touch, sc_time(1, SC_US)) << "firmware took its time";
  std::printf(
      "first-touch store from node 1, served by node 0's firmware with a "
      "frame from node 2: %.0f ns (node 0's MCU: %llu instructions in %llu "
      "cycles, node 2's: %llu in %llu); load from node 2 answered MAP: "
      "%.0f ns\n",
      first_touch.to_seconds() * 1e9, static_cast<unsigned long long>(work0[0]),
      static_cast<unsigned long long>(work0[1]),
      static_cast<unsigned long long>(work2[0]),
      static_cast<unsigned long long>(work2[1]), mapped.to_seconds() * 1e9);
}

// LOG-6.12 in firmware: node 2, the pool member of page 6 of node 0, has
// died. Node 1's first touch makes node 0's firmware ask node 2 for a
// frame; when the transport gives up on that connection, node 0's unit
// reports it in the mailbox and the firmware answers REJECT NO_MEMORY (the
// page never had data to lose) at once, instead of leaving the fault to
// time out (log.fault_timeout, 10 ms).
TEST(ClusterLogicalTest, LOG_6_12_DeadPoolMemberGivesNoFrame) {
  Bench bench(1);  // 8.2 us per transport attempt
  Cluster& cluster = *bench.cluster;
  AccessStatus status = AccessStatus::kOk;
  sc_time took;
  testing::ScThread work("work", [&] {
    ASSERT_TRUE(bench.WaitServing());
    cluster.node(2).transport()->interface().Fail();
    const sc_time start = sc_core::sc_time_stamp();
    status = bench.requesters[1]->Store(PagedGa(0, 6), Pattern(8, 1)).status;
    took = sc_core::sc_time_stamp() - start;
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));
  const std::string transcript = bench.Transcript();
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(status, AccessStatus::kFaultError) << "NO_MEMORY";
  EXPECT_LT(took, sc_time(1, sc_core::SC_MS))
      << "answered by the firmware, not ended by the fault timeout";
  EXPECT_EQ(cluster.node(1).logical()->counters().fault_rejects, 1u);
  EXPECT_TRUE(bench.Printed(
      "node0: page service: 1 faults served, 0 pages allocated, 0 frames "
      "lent, 1 rejected, 0 pages moved (0 abandoned), 0 frames freed, 0 "
      "commands refused"))
      << transcript;
}

// LOG-6.9 in firmware: node 0's page 6 gets its frame on node 2 at node 1's
// first touch. Node 0's own store soon after leaves it there (the page has
// not stayed put for the hold time, 100 us); node 3's store later moves it
// to node 3. Node 0's firmware gets a frame from node 3, invalidates the
// three sharers, has its unit copy the frame (MIGRATE), answers node 3
// MIGRATED and gives node 2 its frame back. Every node then reads what was
// written before and after the move.
TEST(ClusterLogicalTest, LOG_6_9_FirmwareMovesAPageToItsWriter) {
  Bench bench;
  Cluster& cluster = *bench.cluster;
  std::vector<std::unique_ptr<Requester>>& requesters = bench.requesters;
  std::vector<AccessStatus> statuses;
  uint64_t moved_early = 0;
  sc_time moving_store;
  Bytes at80, at100, at200;
  testing::ScThread work("work", [&] {
    ASSERT_TRUE(bench.WaitServing());
    statuses.push_back(
        requesters[1]->Store(PagedGa(0, 6, 0x80), Pattern(64, 1)).status);
    statuses.push_back(
        requesters[0]->Store(PagedGa(0, 6, 0x200), Pattern(8, 5)).status);
    statuses.push_back(requesters[2]->Load(PagedGa(0, 6, 0x80), 8).status);
    moved_early = cluster.node(0).logical()->counters().migrations;
    sc_core::wait(sc_time(150, SC_US));
    const sc_time start = sc_core::sc_time_stamp();
    statuses.push_back(
        requesters[3]->Store(PagedGa(0, 6, 0x100), Pattern(8, 9)).status);
    moving_store = sc_core::sc_time_stamp() - start;
    logical::testing::Answer load =
        requesters[1]->Load(PagedGa(0, 6, 0x80), 64);
    statuses.push_back(load.status);
    at80 = load.data;
    load = requesters[2]->Load(PagedGa(0, 6, 0x200), 8);
    statuses.push_back(load.status);
    at200 = load.data;
    load = requesters[0]->Load(PagedGa(0, 6, 0x100), 8);
    statuses.push_back(load.status);
    at100 = load.data;
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));

  const std::string transcript = bench.Transcript();
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(statuses, std::vector<AccessStatus>(7, AccessStatus::kOk));
  EXPECT_EQ(moved_early, 0u) << "within the hold time the page stays";
  EXPECT_EQ(cluster.node(0).logical()->counters().migrations, 1u);
  EXPECT_EQ(at80, Pattern(64, 1));
  EXPECT_EQ(at200, Pattern(8, 5));
  EXPECT_EQ(at100, Pattern(8, 9));
  // The page now lives in node 3's first pool frame.
  logical::CardMemory& home = *cluster.node(3).card_memory();
  EXPECT_EQ(home.Peek(kFirstPoolFrame + 0x80, 64), Pattern(64, 1));
  EXPECT_EQ(home.Peek(kFirstPoolFrame + 0x100, 8), Pattern(8, 9));
  EXPECT_EQ(home.Peek(kFirstPoolFrame + 0x200, 8), Pattern(8, 5));
  EXPECT_EQ(cluster.node(1).logical()->counters().invalidations, 1u);
  EXPECT_EQ(cluster.node(2).logical()->counters().invalidations, 1u);
  EXPECT_EQ(cluster.worst_status(), 0) << transcript;
  for (const char* line :
       {"node0: page service: 7 faults served, 1 pages allocated, 0 frames "
        "lent, 0 rejected, 1 pages moved (0 abandoned), 0 frames freed, 0 "
        "commands refused",
        "node2: page service: 0 faults served, 0 pages allocated, 1 frames "
        "lent, 0 rejected, 0 pages moved (0 abandoned), 1 frames freed, 0 "
        "commands refused",
        "node3: page service: 0 faults served, 0 pages allocated, 1 frames "
        "lent, 0 rejected, 0 pages moved (0 abandoned), 0 frames freed, 0 "
        "commands refused"}) {
    EXPECT_TRUE(bench.Printed(line)) << line << "\n" << transcript;
  }
  std::printf(
      "a store that moves a 64 KiB page with three sharers to its writer: "
      "%.0f ns\n",
      moving_store.to_seconds() * 1e9);
}

// LOG-5.6 in firmware: pool frames are the top 4 GiB of each direct
// region, zero when first lent, and never lent twice. Page 6 of node 0
// takes node 2's first pool frame, then moves to node 3 (as in LOG-6.9),
// and node 2 gets that frame back with the page's bytes still in it. Page
// 2 of node 0, also homed on node 2, then takes node 2's second frame, not
// the freed one, and reads zero where nothing was written.
TEST(ClusterLogicalTest, LOG_5_6_PoolFramesAreFreshAndNeverLentTwice) {
  Bench bench;
  Cluster& cluster = *bench.cluster;
  std::vector<std::unique_ptr<Requester>>& requesters = bench.requesters;
  std::vector<AccessStatus> statuses;
  Bytes unwritten;
  testing::ScThread work("work", [&] {
    ASSERT_TRUE(bench.WaitServing());
    statuses.push_back(
        requesters[1]->Store(PagedGa(0, 6, 0x80), Pattern(64, 1)).status);
    sc_core::wait(sc_time(150, SC_US));  // past the hold time
    statuses.push_back(
        requesters[3]->Store(PagedGa(0, 6, 0x100), Pattern(8, 9)).status);
    statuses.push_back(
        requesters[1]->Store(PagedGa(0, 2, 0x40), Pattern(8, 7)).status);
    const logical::testing::Answer load =
        requesters[2]->Load(PagedGa(0, 2, 0x1000), 64);
    statuses.push_back(load.status);
    unwritten = load.data;
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));

  const std::string transcript = bench.Transcript();
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(statuses, std::vector<AccessStatus>(4, AccessStatus::kOk));
  EXPECT_EQ(cluster.node(0).logical()->counters().migrations, 1u);
  EXPECT_EQ(unwritten, Bytes(64, 0)) << "a frame is zero when first lent";
  logical::CardMemory& lender = *cluster.node(2).card_memory();
  EXPECT_EQ(lender.Peek(kFirstPoolFrame + 0x80, 64), Pattern(64, 1))
      << "the freed frame keeps page 6's old bytes: nobody zeroed it, and "
         "it was not lent again";
  EXPECT_EQ(lender.Peek(kFirstPoolFrame + kPage + 0x40, 8), Pattern(8, 7))
      << "page 2 took the second frame";
  EXPECT_TRUE(bench.Printed(
      "node2: page service: 0 faults served, 0 pages allocated, 2 frames "
      "lent, 0 rejected, 0 pages moved (0 abandoned), 1 frames freed, 0 "
      "commands refused"))
      << transcript;
}

// LOG-6.12 during a move (LOG-6.9): page 6 of node 0 lives on node 2,
// which dies before node 3's store would move the page to node 3. The
// copy from node 2 fails when the transport gives up on it, and the unit
// reports node 2's connection lost in the same instant. The firmware must
// take that news first: the held store is REJECT HOME_LOST (its data is
// gone), not MAPped to the dead node to fail again there.
TEST(ClusterLogicalTest, LOG_6_12_AMoveFromADeadHomeIsHomeLost) {
  Bench bench(1);  // 8.2 us per transport attempt
  Cluster& cluster = *bench.cluster;
  AccessStatus first = AccessStatus::kFaultError;
  AccessStatus moving = AccessStatus::kOk;
  testing::ScThread work("work", [&] {
    ASSERT_TRUE(bench.WaitServing());
    first = bench.requesters[1]->Store(PagedGa(0, 6), Pattern(8, 1)).status;
    sc_core::wait(sc_time(150, SC_US));
    cluster.node(2).transport()->interface().Fail();
    moving = bench.requesters[3]->Store(PagedGa(0, 6), Pattern(8, 2)).status;
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));
  const std::string transcript = bench.Transcript();
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(first, AccessStatus::kOk);
  EXPECT_EQ(moving, AccessStatus::kFaultError)
      << "REJECT HOME_LOST, not UNREACHABLE";
  EXPECT_EQ(cluster.node(3).logical()->counters().fault_rejects, 1u);
  EXPECT_EQ(cluster.node(0).logical()->counters().migrations, 0u);
}

}  // namespace
}  // namespace lq::cluster
