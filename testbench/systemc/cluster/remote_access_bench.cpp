// SPDX-License-Identifier: Apache-2.0
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
#include <cstdio>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/remote_access.h"
#include "testbench/systemc/common/firmware_image.h"

namespace lq::cluster {
namespace {

struct Options {
  std::string dims = "4x8x8";
  uint32_t size = 64;
  bool segments = false;  // every boundary of every path, in order
  // Per router, input to output; the routing stage takes what the other
  // three 1 ns stages leave (NET-8.4).
  unsigned router_ns = 4;
  bool quick = false;
};

double Ns(uint64_t ps) { return static_cast<double>(ps) / 1000; }

// "request/answer" from per-leg counts: the first leg, then the others.
std::string Counts(const std::vector<unsigned>& per_leg) {
  unsigned back = 0;
  for (size_t leg = 1; leg < per_leg.size(); ++leg) {
    back += per_leg[leg];
  }
  return std::to_string(per_leg.front()) + "/" + std::to_string(back);
}

void PrintBreakdown(const RemoteAccess& access,
                    const PathBreakdown& breakdown) {
  std::printf("\n%s, %s (node %u, hops: %u), %.1f ns\n", access.access.c_str(),
              access.target.c_str(), access.home, access.hops,
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
  RemoteAccessConfig config;
  config.topology =
      topo::CreateTopology("torus", {{"dims", options.dims}}).value();
  config.routing = topo::CreateRouting("dor", config.topology, {}).value();
  config.cluster.port = testing::ScaledPcie6Port();
  if (!options.quick) {
    config.cluster.port.controller.ltssm_time_scale = 1;  // full-scale
  }
  net::RouterConfig& router = config.cluster.network.router;
  router.clock_ns = 1;
  router.rc_cycles = options.router_ns - router.va_cycles - router.sa_cycles -
                     router.st_cycles;
  config.size = options.size;
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  if (!image) {
    std::fprintf(stderr, "remote_access_bench: %s\n",
                 image.error().reason.c_str());
    return 2;
  }
  config.image = *image;
  const auto measured = MeasureRemoteAccess(config);
  if (!measured) {
    std::fprintf(stderr, "remote_access_bench: %s\n",
                 measured.error().reason.c_str());
    return 2;
  }
  const RemoteAccessReport& report = *measured;
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
          .count();

  std::printf(
      "remote access latency, layer by layer, on a %s torus of boards "
      "(%u cards, pcie6 links, %u ns routers, %u-byte accesses from node "
      "0's workload engine)\n",
      options.dims.c_str(), report.nodes, options.router_ns, options.size);
  if (report.serving != report.nodes) {
    std::fprintf(stderr,
                 "remote_access_bench: FAILED: %u of %u firmwares serving\n",
                 report.serving, report.nodes);
    return 1;
  }
  bool ok = report.Ok();
  std::vector<const PathBreakdown*> loads;
  for (const RemoteAccess& access : report.accesses) {
    if (!access.Ok()) {
      std::fprintf(stderr, "remote_access_bench: %s to %s: %s\n",
                   access.access.c_str(), access.target.c_str(),
                   access.failure.c_str());
      continue;
    }
    if (!access.breakdown) {
      std::printf("\nfault, %s (node %u, hops: %u): %.1f ns\n",
                  access.target.c_str(), access.home, access.hops,
                  access.latency_ns);
      continue;
    }
    PrintBreakdown(access, *access.breakdown);
    if (options.segments) {
      PrintSegments(*access.breakdown);
    }
    if (access.access == "load") {
      loads.push_back(&*access.breakdown);
    }
  }
  // The farther target costs more routers and more wire.
  if (loads.size() == 2) {
    ok = ok && loads[1]->routers[0] > loads[0]->routers[0] &&
         loads[1]->LayerPs(PathLayer::kWire) >
             loads[0]->LayerPs(PathLayer::kWire);
  }
  std::printf(
      "\nfault: a load to page 0 of the home's paged region, allocated by "
      "the home's firmware (MCU at 100 MHz) at first touch\n");
  std::printf("built in %.2f s, whole run %.2f s wall, %.1f us simulated\n",
              report.build_s, total_s, report.sim_ns / 1000);
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
