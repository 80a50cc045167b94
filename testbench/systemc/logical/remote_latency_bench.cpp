// SPDX-License-Identifier: Apache-2.0
// End-to-end latency of the logical layer's accesses (issue 8, "the figure
// that answers the seed's claim"): on a torus of logical units with routers
// at the pcie6 links' flit rate (the transport study's fabric), node 0's
// workload engine issues one access at a time — loads, then stores, then
// 8-byte atomics — to itself, to a neighbour one hop away and to the node
// farthest from it, and the table gives each access's latency from issue
// to completion as the requester sees it. Then loads that each take a
// page fault (LOG-6): every one touches a new page of a 1-hop or the
// farthest owner, whose fault handler allocates it on the owner after
// --handler-ns (a stand-in: no firmware runs). The per-layer breakdown is
// issue 8's next step.
//
//   remote_latency_bench [--dims 4x8x8] [--accesses 200] [--size 64]
//                        [--handler-ns 0]
//
// --quick (CTest) runs 2x2x2 and fails unless every access completes and
// a remote load takes longer than a local one and grows with the hops.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/phy/link_profile.h"
#include "models/topology/path.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/app/run_report.h"
#include "systemc/cluster/logical_fabric.h"
#include "systemc/logical/requester.h"
#include "systemc/logical/workload_engine.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/logical/owner_firmware.h"

namespace lq::logical {
namespace {

struct Options {
  std::string dims = "4x8x8";
  uint64_t accesses = 200;
  uint32_t size = 64;
  double handler_ns = 0;
  bool quick = false;
};

struct Target {
  const char* name;
  uint16_t home;
  unsigned hops;
};

int Run(const Options& options) {
  const auto topology =
      topo::CreateTopology("torus", {{"dims", options.dims}}).value();
  const std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {}).value();
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  cluster::LogicalFabricConfig config;
  config.fabric.router.clock_ns =
      static_cast<double>(phy::FlitTimePs(profile, profile.max_lanes)) / 1000;
  config.fabric.engine.interface.clock_ns = config.fabric.router.clock_ns;
  const auto wall = std::chrono::steady_clock::now();
  cluster::LogicalFabric fabric(topology, routing, config);
  const double build_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
          .count();

  // The node whose route from node 0 is longest, and one neighbour: hops
  // as the routing function takes them (topo::TracePath).
  const topo::FarthestEndpoint farthest =
      topo::FindFarthestEndpoint(*routing, 0).value();
  const auto far = static_cast<uint16_t>(farthest.node);
  const auto far_hops = static_cast<unsigned>(farthest.hops);
  const uint16_t near = static_cast<uint16_t>(topology->Neighbour(0, 0)->node);
  const std::vector<Target> targets = {
      {"local", 0, 0}, {"1 hop", near, 1}, {"farthest", far, far_hops}};
  struct Mix {
    const char* name;
    double loads, stores;
    AccessClass local, remote;
  };
  const Mix mixes[] = {
      {"load", 1, 0, AccessClass::kLocalLoad, AccessClass::kRemoteLoad},
      {"store", 0, 1, AccessClass::kLocalStore, AccessClass::kRemoteStore},
      {"atomic", 0, 0, AccessClass::kLocalAtomic, AccessClass::kRemoteAtomic}};
  // One engine per (mix, target), each starting when the one before it
  // has finished, so that only one access is ever in flight.
  std::vector<std::unique_ptr<WorkloadEngine>> engines;
  for (const Mix& mix : mixes) {
    for (const Target& target : targets) {
      WorkloadConfig w;
      w.node = 0;
      w.endpoints = fabric.nodes();
      w.accesses = options.accesses;
      w.size = options.size;
      w.loads = mix.loads;
      w.stores = mix.stores;
      w.locality = target.home == 0 ? 1 : 0;
      w.homes = {target.home};
      if (!engines.empty()) {
        w.start_after = &engines.back()->done();
      }
      engines.push_back(std::make_unique<WorkloadEngine>(
          (std::string("engine_") + mix.name + "_" +
           std::to_string(target.home) + "_" + std::to_string(engines.size()))
              .c_str(),
          w));
      engines.back()->socket.bind(fabric.unit(0).socket);
    }
  }
  // Faulting loads: node 0 touches page i of the owner's paged region,
  // which the owner allocates on itself (frame i).
  std::vector<std::unique_ptr<testing::OwnerFirmware>> owners;
  for (const Target& target : targets) {
    if (target.home == 0) {
      continue;
    }
    owners.push_back(std::make_unique<testing::OwnerFirmware>(
        ("owner" + std::to_string(target.home)).c_str(),
        fabric.unit(target.home),
        [&config](const FaultRecord& record) {
          const auto owner =
              static_cast<uint16_t>(record.request.ga >> kOffsetBits);
          const auto frame = static_cast<uint32_t>(
              testing::PagedIndex(config.unit.space, record.request.ga));
          return std::optional<FaultResponse>(testing::AnswerTo(
              record, config.unit.space, FaultStatus::kAllocated,
              testing::FullRights(owner, frame).Encode()));
        },
        sc_core::sc_time(options.handler_ns, sc_core::SC_NS)));
  }
  testing::Requester faulter("faulter");
  faulter.socket.bind(fabric.unit(0).socket);
  std::vector<std::vector<double>> fault_ns(targets.size());
  bool faults_ok = true;
  ::lq::testing::ScThread fault_thread("fault_thread", [&] {
    sc_core::wait(engines.back()->done());
    for (size_t t = 1; t < targets.size(); ++t) {
      for (uint64_t i = 0; i < options.accesses; ++i) {
        const uint64_t ga = GlobalAddress(
            targets[t].home,
            config.unit.space.direct_bytes + i * config.unit.space.page_bytes);
        const sc_core::sc_time start = sc_core::sc_time_stamp();
        faults_ok =
            faulter.Load(ga, options.size).status == AccessStatus::kOk &&
            faults_ok;
        fault_ns[t].push_back((sc_core::sc_time_stamp() - start).to_seconds() *
                              1e9);
      }
    }
  });
  sc_core::sc_start();
  const double run_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
          .count() -
      build_s;

  std::printf(
      "remote access latency on %s (%u nodes), %u-byte loads and "
      "stores, one access at a time\n",
      options.dims.c_str(), fabric.nodes(), options.size);
  std::printf("%-7s %-9s %4s %9s %9s %9s\n", "access", "home", "hops",
              "mean ns", "p50 ns", "p99 ns");
  bool ok = true;
  size_t e = 0;
  std::vector<double> load_means;
  for (const Mix& mix : mixes) {
    for (const Target& target : targets) {
      const WorkloadEngine& engine = *engines[e++];
      const AccessClass c = target.home == 0 ? mix.local : mix.remote;
      const app::LatencySummary s = app::Summarise(engine.latencies_ns(c));
      std::printf("%-7s %-9s %4u %9.1f %9.1f %9.1f\n", mix.name, target.name,
                  target.hops, s.mean, s.p50, s.p99);
      ok = ok && engine.finished() && engine.errors() == 0 &&
           engine.latencies_ns(c).size() == options.accesses;
      if (std::strcmp(mix.name, "load") == 0) {
        load_means.push_back(s.mean);
      }
    }
  }
  for (size_t t = 1; t < targets.size(); ++t) {
    const app::LatencySummary s = app::Summarise(fault_ns[t]);
    std::printf("%-7s %-9s %4u %9.1f %9.1f %9.1f\n", "fault", targets[t].name,
                targets[t].hops, s.mean, s.p50, s.p99);
    ok = ok && fault_ns[t].size() == options.accesses && s.p50 > load_means[t];
  }
  const LogicalCounters& counters = fabric.unit(0).counters();
  ok = ok && faults_ok &&
       counters.faults_raised[static_cast<size_t>(FaultCause::kNotMapped)] ==
           2 * options.accesses;
  std::printf(
      "fault: a load to a new page, allocated on its owner by a handler "
      "that takes %.0f ns (a stand-in, not firmware)\n",
      options.handler_ns);
  std::printf("built in %.2f s, ran in %.2f s wall, %.1f us simulated\n",
              build_s, run_s, sc_core::sc_time_stamp().to_seconds() * 1e6);
  if (options.quick) {
    ok = ok && load_means[0] < load_means[1] && load_means[1] < load_means[2];
  }
  if (!ok) {
    std::fprintf(stderr, "remote_latency_bench: FAILED\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lq::logical

int sc_main(int argc, char** argv) {
  lq::logical::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dims" && i + 1 < argc) {
      options.dims = argv[++i];
    } else if (arg == "--accesses" && i + 1 < argc) {
      options.accesses = std::stoull(argv[++i]);
    } else if (arg == "--size" && i + 1 < argc) {
      options.size = static_cast<uint32_t>(std::stoul(argv[++i]));
    } else if (arg == "--handler-ns" && i + 1 < argc) {
      options.handler_ns = std::stod(argv[++i]);
    } else if (arg == "--quick") {
      options.quick = true;
      options.dims = "2x2x2";
      options.accesses = 50;
    } else {
      std::fprintf(stderr,
                   "usage: remote_latency_bench [--dims 4x8x8] "
                   "[--accesses 200] [--size 64] [--handler-ns 0] "
                   "[--quick]\n");
      return 2;
    }
  }
  return lq::logical::Run(options);
}
