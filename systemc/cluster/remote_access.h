// SPDX-License-Identifier: Apache-2.0
// Where the time of a remote access goes, on the full stack (issue 8's
// figure, issue 9's headline row): a torus of boards, each booting the link
// bring-up firmware, which trains its links through the link controllers
// and PHYs and programs its router; then node 0's workload engine issues
// one load and one store to a neighbour and to the node farthest from it,
// one access at a time on an otherwise idle fabric, while a PathProbe
// records every boundary each packet crosses (decision 0017). Last, one
// load of each target takes a page fault that the home's firmware serves
// (LOG-6).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/elf/elf_image.h"
#include "models/topology/routing.h"
#include "systemc/cluster/cluster.h"
#include "systemc/common/path_breakdown.h"
#include "systemc/common/stat_list.h"

namespace lq::cluster {

struct RemoteAccessConfig {
  // Boards, ports and routers; the measurement adds a transport engine and
  // a logical unit to every node, and chains on_console_line.
  ClusterConfig cluster;
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> routing;  // finds the farthest
  elf::ElfImage image;  // the bring-up firmware (it prints "watching")
  // Boards that boot another image instead (board.node_firmware).
  std::map<uint32_t, elf::ElfImage> node_images;
  uint32_t size = 64;  // bytes per access
  // Longest wait for every board's firmware to train its links and serve.
  sc_core::sc_time serving_timeout = sc_core::sc_time(50, sc_core::SC_MS);
  // Longest wait for one access; one that takes longer has no figure.
  sc_core::sc_time access_timeout = sc_core::sc_time(1, sc_core::SC_MS);
  // Called with the cluster once the accesses are done, before it goes:
  // for what its components counted.
  std::function<void(Cluster& cluster)> on_done;
};

// One access under the probe.
struct RemoteAccess {
  std::string access;  // load, store or fault
  std::string target;  // "1 hop" or "farthest"
  uint16_t home = 0;
  unsigned hops = 0;
  double issued_ns = 0;    // when the access entered node 0's logical unit
  double latency_ns = -1;  // as the workload engine measured it
  std::string failure;     // why it has no figure; empty if it has one
  // Loads and stores: the latency split into layers, which add up to
  // latency_ns to the picosecond (checked; a mismatch is a failure).
  std::optional<PathBreakdown> breakdown;
  bool Ok() const { return failure.empty(); }
};

// A port whose link controller is the Verilated RTL, at the end of the run.
struct RtlPortReport {
  unsigned node = 0;
  unsigned port = 0;
  link::LtssmState state = link::LtssmState::kDisabled;
  StatList stats;  // the controller's
};

struct RemoteAccessReport {
  unsigned nodes = 0;
  unsigned serving = 0;  // boards whose firmware trained its links and served
  std::vector<RemoteAccess> accesses;  // load, store, fault; 1 hop, farthest
  uint64_t remote_ops = 0, page_faults = 0;  // summed over every node
  std::vector<RtlPortReport> rtl_ports;      // ClusterConfig::rtl_ports
  double build_s = 0;  // wall time to elaborate the cluster
  double sim_ns = 0;   // simulated time at the end
  bool Ok() const;     // every board served and every access has a figure
};

// Builds the cluster in this process and runs it to the end: one
// measurement per process (SystemC elaborates once). Fails on a bad image.
Result<RemoteAccessReport> MeasureRemoteAccess(
    const RemoteAccessConfig& config);

}  // namespace lq::cluster
