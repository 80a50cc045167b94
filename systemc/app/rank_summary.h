// SPDX-License-Identifier: Apache-2.0
// What the ranks of a parallel run did (decision 0050), for the run's
// report and its stats' `ranks` object: how the nodes were partitioned,
// the cut links each rank has, and what synchronising cost each. These
// are the only figures that differ with the rank count.
#pragma once

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/result.h"
#include "models/topology/partition.h"
#include "systemc/app/deadlock_finding.h"
#include "systemc/common/param.h"
#include "systemc/parallel/window_sync.h"

namespace lq::app {

// The partition `params`' sim.partition makes of `topology` over the
// world's ranks.
Result<topo::Partition> PartitionForRun(const ParamSet& params,
                                        const topo::Topology& topology);

// The lookahead of a run whose cut links are cables of `cable_m` metres
// (the PHY carries nothing sooner), or why a run over ranks has none.
Result<sc_core::sc_time> CableLookahead(double cable_m);

struct RankFigures {
  unsigned nodes = 0, cut_links = 0;
  parallel::WindowSync::Counts sync;
  uint64_t peak_rss_kib = 0;
};

struct RankSummary {
  std::string partition;  // Partition::method
  double lookahead_ns = 0;
  std::vector<RankFigures> ranks;  // by rank
};

// Every rank calls it; rank 0 gets every rank's figures, the others
// only their own.
RankSummary SummariseRanks(const topo::Partition& partition,
                           const topo::Topology& topology,
                           const parallel::WindowSync& sync);

// The deadlock any rank's watchdog declared (`mine`, this rank's), the
// earliest: each rank's watchdog watches its own routers. On rank 0; the
// others get their own.
DeadlockFinding EarliestDeadlock(const DeadlockFinding& mine);

// "  ranks      4 (blocks 2x2x1), lookahead 2 ns; ..." and a line a rank.
void PrintRanks(const RankSummary& summary, std::FILE* out);
nlohmann::ordered_json RanksJson(const RankSummary& summary);

}  // namespace lq::app
