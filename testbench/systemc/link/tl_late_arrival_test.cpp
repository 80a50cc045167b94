// SPDX-License-Identifier: Apache-2.0
// SystemC test of DLL-4.11's order rule: a TL link controller takes what
// arrives by a cycle before it chooses that cycle's flit, whichever of its
// processes the kernel runs first. Two identical pairs share one simulation:
// one cabled directly, whose PHYs hand each flit to the far PHY when it is sent
// (as in one process), and one through a cable that hands flits and lane
// changes over only when they arrive, as late as a cable cut between MPI ranks
// may (decision 0050). The kernel then runs the second pair's processes of one
// instant in another order; the two pairs must still send the same flits
// and deliver the same slots at the same times.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/phy/link_profile.h"
#include "systemc/link/tl_link_controller.h"
#include "systemc/phy/cable.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 1500;

// A cable that holds what each end puts on it until a picosecond before
// it arrives at the far PHY: as late as a cable cut between ranks may hand
// it over (a window may end just then).
class LateCable : public sc_core::sc_module {
 public:
  phy::CableSocket a, b;

  explicit LateCable(const sc_core::sc_module_name& name)
      : sc_module(name), a("a"), b("b"), ends_{{{*this, 0}, {*this, 1}}} {
    a.in.bind(ends_[0]);
    b.in.bind(ends_[1]);
    SC_HAS_PROCESS(LateCable);
    SC_METHOD(HandOver);
    sensitive << next_;
    dont_initialize();
  }

 private:
  struct Held {
    unsigned from = 0;
    bool lanes = false;
    phy::WireFlit flit;
    uint32_t failed = 0;
    sc_time due;
  };
  class End : public phy::CableIf {
   public:
    End(LateCable& cable, unsigned side) : cable_(cable), side_(side) {}
    void Carry(phy::WireFlit flit, const sc_time& delay) override {
      cable_.Hold({side_, false, std::move(flit), 0, Due(delay)});
    }
    void FailedLanes(uint32_t failed, const sc_time& delay) override {
      cable_.Hold({side_, true, {}, failed, Due(delay)});
    }

   private:
    static sc_time Due(const sc_time& delay) {
      return sc_core::sc_time_stamp() + delay;
    }
    LateCable& cable_;
    unsigned side_;
  };

  void Hold(Held held) {
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time hand_over =
        std::max(now, held.due - sc_time(1, sc_core::SC_PS));
    held_.emplace(hand_over, std::move(held));
    next_.notify(held_.begin()->first - now);
  }
  void HandOver() {
    const sc_time now = sc_core::sc_time_stamp();
    while (!held_.empty() && held_.begin()->first <= now) {
      Held& held = held_.begin()->second;
      phy::CableSocket& to = held.from == 0 ? b : a;
      if (held.lanes) {
        to.out->FailedLanes(held.failed, held.due - now);
      } else {
        to.out->Carry(std::move(held.flit), held.due - now);
      }
      held_.erase(held_.begin());
    }
    if (!held_.empty()) {
      next_.notify(held_.begin()->first - now);
    }
  }

  std::array<End, 2> ends_;
  std::multimap<sc_time, Held> held_;  // by hand-over, in send order
  sc_core::sc_event next_;
};

// What a controller did that the model decides (its activations are what
// the simulation cost, and may differ).
std::vector<Stat> ModelStats(const StatList& stats) {
  std::vector<Stat> model;
  for (const Stat& stat : stats) {
    if (stat.name.find("activations") == std::string::npos) {
      model.push_back({stat.name.substr(stat.name.find('.') + 1), stat.value});
    }
  }
  return model;
}

TEST(TlLinkController, DLL_4_11_ReceiverActsBeforeTransmitterInACycle) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  phy.errors.ber = 1e-5;  // Some flits are lost and replayed.
  // What reaches the PHY is checked in the same cycle, and the late cable
  // hands it over just before that cycle, when the flit it must shape is
  // already due to be chosen.
  phy.rx_pipeline_ps = 0;
  link::TlLinkControllerConfig config;
  config.latency.rx_check_cycles = 0;
  config.start_trained = true;  // DLL-6.12
  config.tx_slots_per_vc = kBenchSlotsPerVc;
  const auto traffic = SymmetricTraffic(kSlots, phy.profile.payload_bytes);
  LinkPairBench<link::TlLinkController> direct(phy, config, traffic, "direct_");
  LinkPairBench<link::TlLinkController> late(phy, config, traffic, "late_",
                                             false);
  LateCable cable("cable");
  Connect(late.phys[0]->cable, cable.a);
  Connect(cable.b, late.phys[1]->cable);
  for (auto* bench : {&direct, &late}) {
    for (auto& endpoint : bench->endpoints) {
      endpoint->ExpectSlots(kSlots);
    }
  }
  ScThread driver("driver", [&] {
    direct.WaitForTraffic();
    late.WaitForTraffic();
    sc_core::wait(5, SC_US);  // ACKs and credits settle
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(500, SC_US));
  ASSERT_TRUE(driver.finished());

  uint64_t replays = 0;
  for (unsigned side = 0; side < kBenchSides; ++side) {
    const SlotReport& one = direct.endpoints[side]->report();
    const SlotReport& other = late.endpoints[side]->report();
    EXPECT_EQ(one.delivered, kSlots);
    EXPECT_EQ(one.latency_ns, other.latency_ns) << "side " << side;
    const auto stats = ModelStats(direct.controllers[side]->Stats());
    const auto late_stats = ModelStats(late.controllers[side]->Stats());
    ASSERT_EQ(stats.size(), late_stats.size());
    for (size_t i = 0; i < stats.size(); ++i) {
      EXPECT_EQ(stats[i].name, late_stats[i].name);
      EXPECT_EQ(stats[i].value, late_stats[i].value)
          << "side " << side << ": " << stats[i].name;
    }
    replays += StatValue(direct.controllers[side]->Stats(), "replays").value();
  }
  EXPECT_GT(replays, 0u) << "the wire's errors made the links replay";
}

}  // namespace
}  // namespace lq::testing
