// SPDX-License-Identifier: Apache-2.0
// RankSummary: the partition's figures and each rank's synchronisation
// counts, gathered to rank 0.
#include "systemc/app/rank_summary.h"

#include <sys/resource.h>

#include "models/phy/link_profile.h"
#include "systemc/parallel/wire.h"

namespace lq::app {

Result<topo::Partition> PartitionForRun(const ParamSet& params,
                                        const topo::Topology& topology) {
  return topo::PartitionTopology(topology, parallel::RankWorld::Get().size(),
                                 params.Text("sim.partition"));
}

Result<sc_core::sc_time> CableLookahead(double cable_m) {
  const auto cable = sc_core::sc_time::from_value(phy::CableDelayPs(cable_m));
  if (cable == sc_core::SC_ZERO_TIME) {
    return Fail(
        "link.cable_m 0: a cable that takes no time leaves the ranks no "
        "lookahead (decision 0050)");
  }
  return cable;
}

namespace {

uint64_t PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss);  // KiB on Linux
}

}  // namespace

RankSummary SummariseRanks(const topo::Partition& partition,
                           const topo::Topology& topology,
                           const parallel::WindowSync& sync) {
  const parallel::RankWorld& world = sync.world();
  RankSummary summary;
  summary.partition = partition.method;
  summary.lookahead_ns = sync.lookahead().to_seconds() * 1e9;
  Bytes mine;
  parallel::WireWriter out(mine);
  const parallel::WindowSync::Counts& counts = sync.counts();
  for (uint64_t figure : {counts.windows, counts.skipped, counts.messages_sent,
                          counts.bytes_sent, PeakRssKib()}) {
    out.U64(figure);
  }
  out.F64(counts.wait_s);
  const std::vector<unsigned> nodes = partition.NodesPerRank();
  const std::vector<unsigned> cuts = partition.CutCablesPerRank(topology);
  const std::vector<Bytes> by_rank = world.Gather(mine);
  for (size_t rank = 0; rank < by_rank.size(); ++rank) {
    parallel::WireReader in(by_rank[rank]);
    RankFigures figures;
    figures.nodes = nodes.at(rank);
    figures.cut_links = cuts.at(rank);
    for (uint64_t* figure : {&figures.sync.windows, &figures.sync.skipped,
                             &figures.sync.messages_sent,
                             &figures.sync.bytes_sent, &figures.peak_rss_kib}) {
      *figure = in.U64();
    }
    figures.sync.wait_s = in.F64();
    summary.ranks.push_back(figures);
  }
  return summary;
}

void PrintRanks(const RankSummary& summary, std::FILE* out) {
  std::fprintf(out, "  ranks      %zu (%s), lookahead %.3g ns\n",
               summary.ranks.size(), summary.partition.c_str(),
               summary.lookahead_ns);
  for (size_t rank = 0; rank < summary.ranks.size(); ++rank) {
    const RankFigures& r = summary.ranks[rank];
    std::fprintf(out,
                 "    rank %-3zu %u nodes, %u cut links; %llu windows run, "
                 "%llu skipped, %.2f s waiting; %llu messages out; peak "
                 "%.0f MiB\n",
                 rank, r.nodes, r.cut_links,
                 static_cast<unsigned long long>(r.sync.windows),
                 static_cast<unsigned long long>(r.sync.skipped), r.sync.wait_s,
                 static_cast<unsigned long long>(r.sync.messages_sent),
                 static_cast<double>(r.peak_rss_kib) / 1024);
  }
}

nlohmann::ordered_json RanksJson(const RankSummary& summary) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const RankFigures& r : summary.ranks) {
    ranks.push_back({{"nodes", r.nodes},
                     {"cut_links", r.cut_links},
                     {"windows", r.sync.windows},
                     {"windows_skipped", r.sync.skipped},
                     {"wait_s", r.sync.wait_s},
                     {"messages_sent", r.sync.messages_sent},
                     {"bytes_sent", r.sync.bytes_sent},
                     {"peak_rss_kib", r.peak_rss_kib}});
  }
  return {{"count", summary.ranks.size()},
          {"partition", summary.partition},
          {"lookahead_ns", summary.lookahead_ns},
          {"per_rank", ranks}};
}

DeadlockFinding EarliestDeadlock(const DeadlockFinding& mine) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  if (!world.parallel()) {
    return mine;
  }
  Bytes packed;
  parallel::WireWriter out(packed);
  out.U8(mine.detected ? 1 : 0);
  out.F64(mine.at_ns);
  out.Text(mine.cycle);
  DeadlockFinding earliest;
  for (const Bytes& from_rank : world.Gather(packed)) {
    parallel::WireReader in(from_rank);
    DeadlockFinding finding;
    finding.detected = in.U8() != 0;
    finding.at_ns = in.F64();
    finding.cycle = in.Text();
    if (finding.detected &&
        (!earliest.detected || finding.at_ns < earliest.at_ns)) {
      earliest = finding;
    }
  }
  return world.root() ? earliest : mine;
}

}  // namespace lq::app
