// SPDX-License-Identifier: Apache-2.0
// The full-stack remote access measurement: build, boot, probe, break down.
#include "systemc/cluster/remote_access.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <tuple>

#include "models/topology/path.h"
#include "systemc/common/function_thread.h"
#include "systemc/logical/workload_engine.h"

namespace lq::cluster {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

// The console line the bring-up firmware prints once its links are trained,
// its routes programmed and its services running.
constexpr const char* kServingLine = "link bring-up: watching";

// One access under the probe, with the engine that issues it.
struct Probe {
  RemoteAccess access;
  std::unique_ptr<logical::WorkloadEngine> engine;
  sc_core::sc_event go;
  std::vector<PathEvent> events;
};

double EngineNs(const logical::WorkloadEngine& engine) {
  for (const auto c : {logical::AccessClass::kRemoteLoad,
                       logical::AccessClass::kRemoteStore}) {
    if (!engine.latencies_ns(c).empty()) {
      return engine.latencies_ns(c).front();
    }
  }
  return -1;
}

// The probe's figure from what its engine and the path probe saw.
void Conclude(Probe& probe) {
  RemoteAccess& access = probe.access;
  const double ns = EngineNs(*probe.engine);
  if (ns < 0 || probe.engine->errors() != 0) {
    access.failure = "the access did not complete";
    return;
  }
  access.latency_ns = ns;
  if (!probe.events.empty()) {
    const auto first = std::min_element(
        probe.events.begin(), probe.events.end(),
        [](const PathEvent& a, const PathEvent& b) { return a.ps < b.ps; });
    access.issued_ns = static_cast<double>(first->ps) / 1000;
  }
  if (access.access == "fault") {
    return;  // Firmware's time is in it: no layer breakdown.
  }
  Result<PathBreakdown> breakdown = BreakDown(probe.events);
  if (!breakdown) {
    access.failure = breakdown.error().reason;
    return;
  }
  const double total_ns = static_cast<double>(breakdown->total_ps) / 1000;
  if (std::abs(total_ns - ns) > 1e-3) {
    access.failure = "the layers add up to " + std::to_string(total_ns) +
                     " ns, the engine measured " + std::to_string(ns);
    return;
  }
  access.breakdown = std::move(breakdown.value());
}

}  // namespace

bool RemoteAccessReport::Ok() const {
  return serving == nodes && !accesses.empty() &&
         std::all_of(accesses.begin(), accesses.end(),
                     [](const RemoteAccess& a) { return a.Ok(); });
}

Result<RemoteAccessReport> MeasureRemoteAccess(
    const RemoteAccessConfig& config) {
  const auto wall = std::chrono::steady_clock::now();
  RemoteAccessReport report;
  ClusterConfig cluster_config = config.cluster;
  cluster_config.network.transport = transport::TransportEngineConfig{};
  cluster_config.network.logical = logical::LogicalUnitConfig{};
  const logical::AddressSpace space = cluster_config.network.logical->space;
  const auto user_console = config.cluster.on_console_line;
  std::set<std::string> serving;  // boards, however often each says so
  cluster_config.on_console_line = [&report, &serving, user_console](
                                       const std::string& node,
                                       const std::string& line) {
    if (line.rfind(kServingLine, 0) == 0) {
      serving.insert(node);
      report.serving = static_cast<unsigned>(serving.size());
    }
    if (user_console) {
      user_console(node, line);
    }
  };
  Cluster cluster("cluster", cluster_config, config.topology);
  if (auto loaded = cluster.Load(config.image, config.node_images); !loaded) {
    return loaded.error();
  }
  report.nodes = cluster.node_count();

  // A neighbour, and the node whose route from node 0 is longest.
  auto farthest = topo::FindFarthestEndpoint(*config.routing, 0);
  if (!farthest) {
    return farthest.error();
  }
  std::optional<topo::PortRef> neighbour;  // over node 0's first cable
  for (topo::PortId p = 0; !neighbour && p < config.topology->PortCount(0);
       ++p) {
    neighbour = config.topology->Neighbour(0, p);
  }
  if (!neighbour) {
    return Fail("node 0 has no cable to a neighbour");
  }
  std::vector<std::unique_ptr<Probe>> probes;
  for (const char* access : {"load", "store", "fault"}) {
    for (const auto& [target, home, hops] :
         {std::make_tuple("1 hop", static_cast<uint16_t>(neighbour->node), 1u),
          std::make_tuple("farthest", static_cast<uint16_t>(farthest->node),
                          static_cast<unsigned>(farthest->hops))}) {
      auto probe = std::make_unique<Probe>();
      probe->access.access = access;
      probe->access.target = target;
      probe->access.home = home;
      probe->access.hops = hops;
      const bool store = probe->access.access == "store";
      logical::WorkloadConfig w;
      w.endpoints = cluster.node_count();
      w.accesses = 1;
      w.size = config.size;
      w.loads = store ? 0 : 1;
      w.stores = store ? 1 : 0;
      w.homes = {home};
      // A fault: page 0 of the home's paged region, which the home's
      // firmware allocates from its own pool at first touch (LOG-5.5).
      w.base = probe->access.access == "fault" ? space.direct_bytes : 0;
      w.span = config.size;
      w.start_after = &probe->go;
      probe->engine = std::make_unique<logical::WorkloadEngine>(
          ("engine" + std::to_string(probes.size())).c_str(), w);
      probe->engine->socket.bind(cluster.node(0).logical()->socket);
      probes.push_back(std::move(probe));
    }
  }

  PathProbe path_probe;
  FunctionThread driver("driver", [&] {
    report.build_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall)
            .count();
    const sc_time poll(10, SC_US);
    while (report.serving < cluster.node_count() &&
           sc_core::sc_time_stamp() < config.serving_timeout) {
      sc_core::wait(poll);
    }
    if (report.serving < cluster.node_count()) {
      sc_core::sc_stop();
      return;
    }
    cluster.SetProbe(&path_probe);
    for (auto& probe : probes) {
      path_probe.Clear();
      probe->go.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(config.access_timeout, probe->engine->done());
      // Long enough for any traffic the access leaves behind to show.
      sc_core::wait(sc_time(50, SC_US));
      probe->events = path_probe.events();
    }
    cluster.SetProbe(nullptr);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  report.sim_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;

  for (auto& probe : probes) {
    if (report.serving == report.nodes) {
      Conclude(*probe);
    } else {
      probe->access.failure = "not every board's firmware came up";
    }
    report.accesses.push_back(std::move(probe->access));
  }
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    const logical::LogicalCounters& c = cluster.node(n).logical()->counters();
    report.remote_ops += c.remote_loads + c.remote_stores + c.remote_atomics;
    report.page_faults += c.faults_served;
  }
  for (const auto& [where, rtl] : config.cluster.rtl_ports) {
    const link::LinkController& controller =
        cluster.node(where.first).port(where.second).controller();
    report.rtl_ports.push_back({where.first, where.second,
                                controller.ltssm_state(), controller.Stats()});
  }
  if (config.on_done) {
    config.on_done(cluster);
  }
  return report;
}

}  // namespace lq::cluster
