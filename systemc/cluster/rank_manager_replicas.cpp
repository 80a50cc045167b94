// SPDX-License-Identifier: Apache-2.0
// RankManagerReplicas: reports and drain counts packed for every other
// rank, and taken in as they come.
#include "systemc/cluster/rank_manager_replicas.h"

#include <stdexcept>
#include <utility>

#include "systemc/parallel/wire.h"

namespace lq::cluster {
namespace {

// WindowSync receivers of the manager's replicas, apart from the cable
// ends' (parallel/cable_end.h).
constexpr uint64_t kReports = uint64_t{2} << 48;
constexpr uint64_t kCounts = kReports + 1;

}  // namespace

RankManagerReplicas::RankManagerReplicas(parallel::WindowSync& sync)
    : sync_(sync) {
  sync_.Listen(kReports, [this](ByteView payload, const sc_core::sc_time& due) {
    parallel::WireReader in(payload);
    const auto node = static_cast<topo::NodeId>(in.U32());
    const auto port = static_cast<topo::PortId>(in.U32());
    const bool up = in.U8() != 0;
    if (!on_report_) {
      throw std::logic_error("a fabric manager report with no manager here");
    }
    on_report_(node, port, up, due);
  });
  sync_.Listen(kCounts, [this](ByteView payload, const sc_core::sc_time& due) {
    parallel::WireReader in(payload);
    net::CountRepBody& sums = counts_[due];
    sums.injected += in.U64();
    sums.ejected += in.U64();
    sums.dropped += in.U64();
  });
}

void RankManagerReplicas::ToEveryOtherRank(uint64_t receiver,
                                           const sc_core::sc_time& due,
                                           ByteView payload) {
  const parallel::RankWorld& world = sync_.world();
  for (unsigned rank = 0; rank < world.size(); ++rank) {
    if (rank != world.rank()) {
      sync_.Send(rank, receiver, due, payload);
    }
  }
}

void RankManagerReplicas::ShareReport(topo::NodeId node, topo::PortId port,
                                      bool up,
                                      const sc_core::sc_time& arrives) {
  Bytes payload;
  parallel::WireWriter out(payload);
  out.U32(node);
  out.U32(port);
  out.U8(up ? 1 : 0);
  ToEveryOtherRank(kReports, arrives, payload);
}

void RankManagerReplicas::ShareCounts(const net::CountRepBody& mine,
                                      const sc_core::sc_time& due) {
  Bytes payload;
  parallel::WireWriter out(payload);
  out.U64(mine.injected);
  out.U64(mine.ejected);
  out.U64(mine.dropped);
  ToEveryOtherRank(kCounts, due, payload);
}

net::CountRepBody RankManagerReplicas::TakeCounts(const sc_core::sc_time& due) {
  const auto it = counts_.find(due);
  if (it == counts_.end()) {
    return {};  // no other rank (or none counted)
  }
  const net::CountRepBody sums = it->second;
  counts_.erase(it);
  return sums;
}

}  // namespace lq::cluster
