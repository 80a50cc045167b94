// SPDX-License-Identifier: Apache-2.0
// SumStackFigures: each node's figures packed, gathered, added in order.
#include "systemc/app/stack_figures.h"

#include <vector>

#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

StackTotals NodeTotals(StackAssembly& assembly, unsigned n) {
  const NodeParts& parts = assembly.nodes()[n];
  StackTotals node;
  node.transport =
      transport::SumFigures(std::vector<NodeParts>{parts}, kDataPriority);
  if (parts.engine != nullptr) {  // a card
    node.hops = parts.router->counters().hops;
    node.ejected = parts.router->counters().ejected;
  }
  node.link = NodeLinkTotals(assembly.cluster().node(n));
  return node;
}

// The integer figures, in one order for packing and unpacking.
template <typename Totals, typename Visit>
void ForEachCount(Totals& t, Visit visit) {
  auto& f = t.transport;
  for (auto* count :
       {&f.pfc_frames, &f.xoff_frames, &f.ecn_marked, &f.router_drops,
        &f.packets_sent, &f.retransmits, &f.cnps, &f.bad_packets, &f.duplicates,
        &f.work_posted, &f.work_completed, &f.work_failed, &t.hops, &t.ejected,
        &t.link.flits, &t.link.fec_corrected, &t.link.crc_errors,
        &t.link.replays}) {
    visit(*count);
  }
}

void Pack(StackTotals node, Bytes& out) {
  parallel::WireWriter writer(out);
  ForEachCount(node, [&writer](uint64_t count) { writer.U64(count); });
  writer.F64(node.transport.pause_us);
}

StackTotals Unpack(ByteView in) {
  parallel::WireReader reader(in);
  StackTotals node;
  ForEachCount(node, [&reader](uint64_t& count) { count = reader.U64(); });
  node.transport.pause_us = reader.F64();
  return node;
}

}  // namespace

StackTotals SumStackFigures(StackAssembly& assembly) {
  StackTotals sum;
  for (const Bytes& packed : parallel::GatherByNode(
           parallel::RankWorld::Get(),
           static_cast<unsigned>(assembly.nodes().size()),
           [&assembly](unsigned n) { return assembly.built(n); },
           [&assembly](unsigned n, Bytes&out) {
             Pack(NodeTotals(assembly, n), out);
           })) {
    if (packed.empty()) {
      continue;  // not on rank 0
    }
    const StackTotals node = Unpack(packed);
    sum.transport.Add(node.transport);
    sum.hops += node.hops;
    sum.ejected += node.ejected;
    sum.link.Add(node.link);
  }
  return sum;
}

}  // namespace lq::app
