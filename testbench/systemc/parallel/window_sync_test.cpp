// SPDX-License-Identifier: Apache-2.0
// WindowSync over two ranks (run by mpirun -np 2; decision 0050): a ball
// passed between the ranks arrives exactly when it is due, the windows in
// which neither rank has anything to do are skipped, a message due inside
// the current window is refused, a run its workload ends stops, on every
// rank, at the end of the window in which the last rank finished, and a
// cut cable carries a PHY's flits and lane changes to the far rank.
// And the RankWorld exchange and the node-order gather beneath it.
#include "systemc/parallel/window_sync.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <systemc>
#include <vector>

#include "systemc/parallel/cut_cable.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"

namespace lq::parallel {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kBall = 1;
constexpr unsigned kLastHop = 5;

// Each hop is sent 10 ns plus 100 ns a hop ahead, so that the gaps
// between hops grow well beyond the 10 ns lookahead.
class Player : public sc_core::sc_module {
 public:
  Player(const sc_core::sc_module_name& name, WindowSync& sync)
      : sc_module(name), sync_(sync), other_(1 - sync.world().rank()) {
    sync.Listen(kBall, [this](ByteView payload, const sc_time& due) {
      hop_ = payload[0];
      arrive_.notify(due - sc_core::sc_time_stamp());
    });
    SC_HAS_PROCESS(Player);
    SC_METHOD(OnArrival);
    sensitive << arrive_;
    dont_initialize();
  }

  std::vector<double> arrivals_ns;
  bool refused_early = false;

 private:
  void start_of_simulation() override {
    if (sync_.world().rank() == 0) {
      Throw(0, sc_time(10, SC_NS));
    }
  }
  void OnArrival() {
    const sc_time now = sc_core::sc_time_stamp();
    arrivals_ns.push_back(now.to_seconds() * 1e9);
    try {
      Throw(99, now);  // due now: inside the window
    } catch (const std::logic_error&) {
      refused_early = true;
    }
    if (hop_ < kLastHop) {
      Throw(hop_ + 1, now + sc_time(10 + 100.0 * hop_, SC_NS));
    }
  }
  void Throw(unsigned hop, const sc_time& due) {
    const uint8_t payload[] = {static_cast<uint8_t>(hop)};
    sync_.Send(other_, kBall, due, ByteView(payload, 1));
  }

  WindowSync& sync_;
  unsigned other_;
  unsigned hop_ = 0;
  sc_core::sc_event arrive_;
};

TEST(WindowSync, ABallBetweenTwoRanksArrivesWhenDueAndIdleWindowsAreSkipped) {
  const RankWorld& world = RankWorld::Get();
  if (world.size() != 2) {
    GTEST_SKIP() << "run by mpirun -np 2";
  }
  WindowSync sync(world, sc_time(10, SC_NS));
  Player player("player", sync);
  EXPECT_FALSE(sync.Run(sc_core::sc_max_time()));
  // Sent at 0 (due 10), 10 (20), 20 (130), 130 (340), 340 (650), 650 (1060).
  const std::vector<double> expected = world.rank() == 0
                                           ? std::vector<double>{20, 340, 1060}
                                           : std::vector<double>{10, 130, 650};
  EXPECT_EQ(player.arrivals_ns, expected);
  EXPECT_TRUE(player.refused_early);
  EXPECT_DOUBLE_EQ(sync.LatestTime().to_seconds() * 1e9, 1060);
  // 1 060 ns in 10 ns windows: most were skipped, not run.
  EXPECT_GT(sync.counts().skipped, 80u);
  EXPECT_LT(sync.counts().windows, 20u);
  EXPECT_EQ(sync.counts().messages_sent, 3u);
  // A rank with nothing to do in a window does not start the kernel for
  // it (SystemC would warn: W571, no activity for sc_start).
  EXPECT_EQ(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING), 0);
}

// Busy every 3 ns for ever; its share is done from `done_at` on.
class Finisher : public sc_core::sc_module {
 public:
  Finisher(const sc_core::sc_module_name& name, const sc_time& done_at)
      : sc_module(name), done_at_(done_at) {
    SC_HAS_PROCESS(Finisher);
    SC_METHOD(Tick);
  }
  bool done = false;

 private:
  void Tick() {
    done = done || sc_core::sc_time_stamp() >= done_at_;
    next_trigger(3, SC_NS);
  }
  sc_time done_at_;
};

TEST(WindowSync, ARunEndsAtTheEndOfTheWindowInWhichTheLastRankFinished) {
  const RankWorld& world = RankWorld::Get();
  if (world.size() != 2) {
    GTEST_SKIP() << "run by mpirun -np 2";
  }
  WindowSync sync(world, sc_time(10, SC_NS));
  Finisher finisher("finisher", sc_time(world.rank() == 0 ? 25 : 47, SC_NS));
  EXPECT_FALSE(
      sync.Run(sc_core::sc_max_time(), [&finisher] { return finisher.done; }));
  // Rank 1 finished at 48 ns (its first tick from 47 on), in [40, 50).
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(50, SC_NS));
  EXPECT_EQ(sync.counts().windows, 5u);
}

// Busy every 3 ns until `until`, then idle.
class Ticker : public sc_core::sc_module {
 public:
  Ticker(const sc_core::sc_module_name& name, const sc_time& until)
      : sc_module(name), until_(until) {
    SC_HAS_PROCESS(Ticker);
    SC_METHOD(Tick);
  }

 private:
  void Tick() {
    if (sc_core::sc_time_stamp() + sc_time(3, SC_NS) <= until_) {
      next_trigger(3, SC_NS);
    }
  }
  sc_time until_;
};

TEST(WindowSync, AWorkloadsRunWithNothingLeftEndsWhereItsLastWindowEnded) {
  WindowSync sync(RankWorld::Get(), sc_time(10, SC_NS));
  Ticker ticker("ticker", sc_time(33, SC_NS));
  EXPECT_FALSE(sync.Run(sc_time(1, sc_core::SC_US), [] { return false; }));
  // The last tick at 33 ns, in [30, 40): not run on to the end at 1 us.
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(40, SC_NS));
}

// A PHY's end of a cable: rank 0's puts a wire flit and a lane change
// on it at 3 ns; rank 1's records what arrives, and when it is due.
class FakePhy : public sc_core::sc_module, private phy::CableIf {
 public:
  phy::CableSocket cable;
  struct Arrival {
    bool lanes = false;
    phy::WireFlit flit;
    uint32_t failed = 0;
    sc_time due;
  };
  std::vector<Arrival> arrivals;

  FakePhy(const sc_core::sc_module_name& name, bool sends)
      : sc_module(name), cable("cable"), sends_(sends) {
    cable.in.bind(static_cast<phy::CableIf&>(*this));
    SC_HAS_PROCESS(FakePhy);
    SC_METHOD(Send);
  }

 private:
  void Send() {
    if (!sends_ || sc_core::sc_time_stamp() < sc_time(3, SC_NS)) {
      if (sends_) {
        next_trigger(3, SC_NS);
      }
      return;
    }
    phy::WireFlit flit;
    flit.bytes = {1, 2, 3, 250};
    flit.encoded = true;
    flit.training = true;
    flit.lane = 5;
    flit.carries_slot = true;
    cable.out->Carry(std::move(flit), sc_time(15, SC_NS));
    cable.out->FailedLanes(0xF0, sc_time(12, SC_NS));
  }
  void Carry(phy::WireFlit flit, const sc_time& delay) override {
    arrivals.push_back(
        {false, std::move(flit), 0, sc_core::sc_time_stamp() + delay});
  }
  void FailedLanes(uint32_t failed, const sc_time& delay) override {
    arrivals.push_back({true, {}, failed, sc_core::sc_time_stamp() + delay});
  }
  bool sends_;
};

TEST(CutCable, CarriesFlitsAndLaneChangesToTheFarRankWhenDue) {
  const RankWorld& world = RankWorld::Get();
  if (world.size() != 2) {
    GTEST_SKIP() << "run by mpirun -np 2";
  }
  const topo::PortRef ends[2] = {{0, 1}, {1, 3}};
  const unsigned me = world.rank();
  WindowSync sync(world, sc_time(10, SC_NS));
  CutCable cut("cut", sync, ends[me], ends[1 - me], 1 - me);
  FakePhy phy("phy", me == 0);
  Connect(phy.cable, cut.cable);
  EXPECT_FALSE(sync.Run(sc_core::sc_max_time()));
  if (me == 0) {
    EXPECT_TRUE(phy.arrivals.empty());
    return;
  }
  // In the order sent, each due when its sender said.
  ASSERT_EQ(phy.arrivals.size(), 2u);
  const FakePhy::Arrival& flit = phy.arrivals[0];
  EXPECT_FALSE(flit.lanes);
  EXPECT_EQ(flit.due, sc_time(18, SC_NS));
  EXPECT_EQ(flit.flit.bytes, (Bytes{1, 2, 3, 250}));
  EXPECT_TRUE(flit.flit.encoded);
  EXPECT_FALSE(flit.flit.noise);
  EXPECT_TRUE(flit.flit.training);
  EXPECT_EQ(flit.flit.lane, 5u);
  EXPECT_TRUE(flit.flit.carries_slot);
  const FakePhy::Arrival& lanes = phy.arrivals[1];
  EXPECT_TRUE(lanes.lanes);
  EXPECT_EQ(lanes.failed, 0xF0u);
  EXPECT_EQ(lanes.due, sc_time(15, SC_NS));
}

TEST(RankWorld, ExchangeDeliversBySenderAndAgreesOnTheLeast) {
  const RankWorld& world = RankWorld::Get();
  if (world.size() != 2) {
    GTEST_SKIP() << "run by mpirun -np 2";
  }
  const auto me = static_cast<uint8_t>(world.rank());
  std::vector<Bytes> to = {{me, 0}, {me, 1}};
  std::vector<uint64_t> least = {me + 5u, 100u - me};
  const std::vector<Bytes> from = world.Exchange(to, least);
  EXPECT_EQ(from, (std::vector<Bytes>{{0, me}, {1, me}}));
  EXPECT_EQ(least, (std::vector<uint64_t>{5, 99}));
  // Nothing to send anywhere: no bytes, but still an agreement.
  std::vector<uint64_t> quiet = {me + 1u};
  EXPECT_EQ(world.Exchange({{}, {}}, quiet), (std::vector<Bytes>(2)));
  EXPECT_EQ(quiet, (std::vector<uint64_t>{1}));
}

TEST(GatherByNode, Rank0GetsEveryNodesFiguresInNodeOrder) {
  const RankWorld& world = RankWorld::Get();
  if (world.size() != 2) {
    GTEST_SKIP() << "run by mpirun -np 2";
  }
  // Nodes 0..4, the odd ones on rank 1; node 3 packs nothing.
  const std::vector<Bytes> by_node = GatherByNode(
      world, 5, [&world](unsigned n) { return n % 2 == world.rank(); },
      [&world](unsigned n, Bytes& out) {
        if (n != 3) {
          out = {static_cast<uint8_t>(10 * n + world.rank())};
        }
      });
  if (world.root()) {
    EXPECT_EQ(by_node, (std::vector<Bytes>{{0}, {11}, {20}, {}, {40}}));
  } else {
    EXPECT_TRUE(by_node.empty());
  }
}

}  // namespace
}  // namespace lq::parallel

// mpirun starts each rank here: join the world, run the tests, leave it.
int sc_main(int argc, char* argv[]) {
  lq::parallel::RankWorld& world = lq::parallel::RankWorld::Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  world.Finish();
  return status;
}
