// Where the time of a remote access goes, layer by layer (issue 8, "the
// figure that answers the seed's claim"): the full stack on a torus of
// boards. Every card boots the link bring-up firmware, which trains its six
// links on the pcie6 profile (TL link controllers and PHYs, 2 m cables) and
// programs its router's routes; then node 0's workload engine issues one
// 64-byte load and one store to a neighbour one hop away and to the node
// farthest from it, one access at a time on an otherwise idle fabric, while
// a PathProbe records every boundary each packet crosses. The tables split
// each access's latency into the layers it spent it in (PathBreakdown), for
// the request's way out and the answer's way back. Then one load of each
// target takes a page fault that the owner's firmware serves (LOG-6), and
// its latency is given whole.
//
//   remote_access_bench [--dims 4x8x8] [--size 64] [--router-ns 4]
//                       [--segments]
//
// --router-ns sets each router's latency from input to output (its
// routing stage takes what the other three 1 ns stages leave).
// --segments lists every boundary each access crossed, with the time spent
// since the one before it.
// --quick (CTest) runs 2x2x2 with the training timeouts scaled down, and
// fails unless every access completes, its layers add up to the latency the
// engine measured, and the farther target costs more routers and wire.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <systemc>
#include <tuple>
#include <vector>

#include "models/topology/path.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "systemc/common/path_breakdown.h"
#include "systemc/logical/workload_engine.h"
#include "testbench/systemc/common/firmware_image.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::cluster {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

struct Options {
  std::string dims = "4x8x8";
  uint32_t size = 64;
  bool segments = false;  // every boundary of every path, in order
  // Per router, input to output; the routing stage takes what the other
  // three 1 ns stages leave (NET-8.4).
  unsigned router_ns = 4;
  bool quick = false;
};

// One access under the probe.
struct Probe {
  std::string access;  // load, store, fault
  std::string target;  // 1 hop, farthest
  uint16_t home = 0;
  unsigned hops = 0;
  std::unique_ptr<logical::WorkloadEngine> engine;
  sc_core::sc_event go;
  std::vector<PathEvent> events;
};

double Ns(uint64_t ps) { return static_cast<double>(ps) / 1000; }

double EngineNs(const Probe& probe) {
  const logical::WorkloadEngine& engine = *probe.engine;
  for (const auto c : {logical::AccessClass::kRemoteLoad,
                       logical::AccessClass::kRemoteStore}) {
    if (!engine.latencies_ns(c).empty()) {
      return engine.latencies_ns(c).front();
    }
  }
  return -1;
}

// "request/answer" from per-leg counts: the first leg, then the others.
std::string Counts(const std::vector<unsigned>& per_leg) {
  unsigned back = 0;
  for (size_t leg = 1; leg < per_leg.size(); ++leg) {
    back += per_leg[leg];
  }
  return std::to_string(per_leg.front()) + "/" + std::to_string(back);
}

void PrintBreakdown(const Probe& probe, const PathBreakdown& breakdown) {
  std::printf("\n%s, %s (node %u, hops: %u), %.1f ns\n", probe.access.c_str(),
              probe.target.c_str(), probe.home, probe.hops,
              Ns(breakdown.total_ps));
  std::printf("  %-13s %12s %12s %8s\n", "layer", "request ns", "answer ns",
              "share");
  for (size_t l = 0; l < kPathLayers; ++l) {
    const auto layer = static_cast<PathLayer>(l);
    const uint64_t there = breakdown.LayerPs(layer, 0);
    const uint64_t back = breakdown.LayerPs(layer) - there;
    std::string name = PathLayerName(layer);
    if (layer == PathLayer::kRouter) {
      name += " x" + Counts(breakdown.routers);
    } else if (layer == PathLayer::kWire) {
      name += " x" + Counts(breakdown.links);
    }
    std::printf("  %-13s %12.1f %12.1f %7.1f%%\n", name.c_str(), Ns(there),
                Ns(back),
                100.0 * static_cast<double>(there + back) /
                    static_cast<double>(breakdown.total_ps));
  }
}

void PrintSegments(const PathBreakdown& breakdown) {
  for (const PathSegment& segment : breakdown.segments) {
    std::printf("    %-7s %-10s %-28s %-14s %7.1f ns\n",
                segment.leg == 0 ? "request" : "answer",
                PathLayerName(segment.layer), segment.where.c_str(),
                PathPointName(segment.to), Ns(segment.ps));
  }
}

int Run(const Options& options) {
  const auto wall = std::chrono::steady_clock::now();
  const auto topology =
      topo::CreateTopology("torus", {{"dims", options.dims}}).value();
  const auto routing = topo::CreateRouting("dor", topology, {}).value();
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  if (!options.quick) {
    config.port.controller.ltssm_time_scale = 1;  // full-scale training
  }
  net::RouterConfig& router = config.network.router;
  router.clock_ns = 1;
  router.rc_cycles = options.router_ns - router.va_cycles - router.sa_cycles -
                     router.st_cycles;
  config.network.transport = transport::TransportEngineConfig{};
  config.network.logical = logical::LogicalUnitConfig{};
  const logical::AddressSpace space = config.network.logical->space;
  unsigned serving = 0;
  config.on_console_line = [&](const std::string&, const std::string& line) {
    serving += line.rfind("link bring-up: watching", 0) == 0 ? 1 : 0;
  };
  Cluster cluster("cluster", config, topology);
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  if (!image || !cluster.Load(*image)) {
    std::fprintf(stderr, "remote_access_bench: cannot load %s\n",
                 LQ_FIRMWARE_IMAGE);
    return 2;
  }

  // A neighbour, and the node whose route from node 0 is longest.
  const topo::FarthestEndpoint farthest =
      topo::FindFarthestEndpoint(*routing, 0).value();
  const auto far = static_cast<uint16_t>(farthest.node);
  const auto far_hops = static_cast<unsigned>(farthest.hops);
  const auto near = static_cast<uint16_t>(topology->Neighbour(0, 0)->node);
  std::vector<std::unique_ptr<Probe>> probes;
  for (const char* access : {"load", "store", "fault"}) {
    for (const auto& [target, home, hops] :
         {std::make_tuple("1 hop", near, 1u),
          std::make_tuple("farthest", far, far_hops)}) {
      auto probe = std::make_unique<Probe>();
      probe->access = access;
      probe->target = target;
      probe->home = home;
      probe->hops = hops;
      logical::WorkloadConfig w;
      w.endpoints = cluster.node_count();
      w.accesses = 1;
      w.size = options.size;
      w.loads = probe->access == "store" ? 0 : 1;
      w.stores = probe->access == "store" ? 1 : 0;
      w.homes = {home};
      // A fault: page 0 of the home's paged region, which the home's
      // firmware allocates from its own pool at first touch (LOG-5.5).
      w.base = probe->access == "fault" ? space.direct_bytes : 0;
      w.span = options.size;
      w.start_after = &probe->go;
      probe->engine = std::make_unique<logical::WorkloadEngine>(
          ("engine" + std::to_string(probes.size())).c_str(), w);
      probe->engine->socket.bind(cluster.node(0).logical()->socket);
      probes.push_back(std::move(probe));
    }
  }

  PathProbe path_probe;
  bool serving_all = false;
  double build_s = 0;
  ::lq::testing::ScThread driver("driver", [&] {
    build_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
            .count();
    for (int t = 0; t < 5000 && serving < cluster.node_count(); ++t) {
      sc_core::wait(sc_time(10, SC_US));
    }
    serving_all = serving == cluster.node_count();
    if (!serving_all) {
      return;
    }
    cluster.SetProbe(&path_probe);
    for (auto& probe : probes) {
      path_probe.Clear();
      probe->go.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(probe->engine->done());
      // Long enough for any traffic the access leaves behind to show.
      sc_core::wait(sc_time(50, SC_US));
      probe->events = path_probe.events();
    }
    cluster.SetProbe(nullptr);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
          .count();

  std::printf(
      "remote access latency, layer by layer, on a %s torus of boards "
      "(%u cards, pcie6 links, %u ns routers, %u-byte accesses from node "
      "0's workload engine)\n",
      options.dims.c_str(), cluster.node_count(), options.router_ns,
      options.size);
  if (!serving_all) {
    std::fprintf(stderr,
                 "remote_access_bench: FAILED: %u of %u firmwares serving\n",
                 serving, cluster.node_count());
    return 1;
  }
  bool ok = true;
  std::vector<PathBreakdown> loads;
  for (const auto& probe : probes) {
    const double engine_ns = EngineNs(*probe);
    if (engine_ns < 0 || probe->engine->errors() != 0) {
      std::fprintf(stderr, "remote_access_bench: %s to %s failed\n",
                   probe->access.c_str(), probe->target.c_str());
      ok = false;
      continue;
    }
    if (probe->access == "fault") {
      std::printf("\nfault, %s (node %u, hops: %u): %.1f ns\n",
                  probe->target.c_str(), probe->home, probe->hops, engine_ns);
      continue;
    }
    const Result<PathBreakdown> breakdown = BreakDown(probe->events);
    if (!breakdown) {
      std::fprintf(stderr, "remote_access_bench: %s to %s: %s\n",
                   probe->access.c_str(), probe->target.c_str(),
                   breakdown.error().reason.c_str());
      ok = false;
      continue;
    }
    PrintBreakdown(*probe, *breakdown);
    if (options.segments) {
      PrintSegments(*breakdown);
    }
    // The layers add up to what the engine measured, to the picosecond.
    if (std::abs(Ns(breakdown->total_ps) - engine_ns) > 1e-3) {
      std::fprintf(stderr,
                   "remote_access_bench: breakdown %.3f ns, engine %.3f ns\n",
                   Ns(breakdown->total_ps), engine_ns);
      ok = false;
    }
    if (probe->access == "load") {
      loads.push_back(*breakdown);
    }
  }
  if (loads.size() == 2) {
    ok =
        ok && loads[1].routers[0] > loads[0].routers[0] &&
        loads[1].LayerPs(PathLayer::kWire) > loads[0].LayerPs(PathLayer::kWire);
  }
  std::printf(
      "\nfault: a load to page 0 of the home's paged region, allocated by "
      "the home's firmware (MCU at 100 MHz) at first touch\n");
  std::printf("built in %.2f s, whole run %.2f s wall, %.1f us simulated\n",
              build_s, total_s, sc_core::sc_time_stamp().to_seconds() * 1e6);
  if (!ok) {
    std::fprintf(stderr, "remote_access_bench: FAILED\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lq::cluster

int sc_main(int argc, char** argv) {
  lq::cluster::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dims" && i + 1 < argc) {
      options.dims = argv[++i];
    } else if (arg == "--size" && i + 1 < argc) {
      options.size = static_cast<uint32_t>(std::stoul(argv[++i]));
    } else if (arg == "--router-ns" && i + 1 < argc) {
      options.router_ns = static_cast<unsigned>(std::stoul(argv[++i]));
      if (options.router_ns < 4) {
        std::fprintf(stderr,
                     "remote_access_bench: --router-ns is 4 at least\n");
        return 2;
      }
    } else if (arg == "--segments") {
      options.segments = true;
    } else if (arg == "--quick") {
      options.quick = true;
      options.dims = "2x2x2";
    } else {
      std::fprintf(stderr,
                   "usage: remote_access_bench [--dims 4x8x8] [--size 64] "
                   "[--router-ns 4] [--segments] [--quick]\n");
      return 2;
    }
  }
  return lq::cluster::Run(options);
}
