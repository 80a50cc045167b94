// SPDX-License-Identifier: Apache-2.0
// BoardEnd: read from a node, packed for rank 0, unpacked there.
#include "systemc/app/board_ends.h"

#include <numeric>

#include "systemc/network/traffic_source.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

BoardEnd ReadEnd(cluster::Cluster& cluster, unsigned n) {
  cluster::Node& node = cluster.node(n);
  const board::Board& board = node.board();
  BoardEnd end;
  end.instructions = board.cpu().instructions();
  end.traps = board.cpu().traps();
  end.console_bytes = board.console_bytes();
  end.finished = board.finished();
  end.failed = board.failed();
  end.killed = board.cpu().killed();
  end.status = board.exit_status();
  end.trap = board.unhandled_trap();
  end.ports = node.port_count();
  end.ports_up = cluster.ports_up(n);
  if (const net::TrafficSource* source = node.source()) {
    end.sent = source->sent();
    end.delivered = source->latencies_ns().size();
    end.latency_ns = std::accumulate(source->latencies_ns().begin(),
                                     source->latencies_ns().end(), 0.0);
  }
  if (const net::Router* router = node.router()) {
    end.dropped = router->counters().Dropped();
    end.no_route = router->counters().drops_no_route;
  }
  return end;
}

void Pack(const BoardEnd& end, Bytes& out) {
  parallel::WireWriter wire(out);
  wire.U64(end.instructions);
  wire.U64(end.traps);
  wire.U64(end.console_bytes);
  wire.U8(static_cast<uint8_t>(end.finished | end.failed << 1 |
                               end.killed << 2 | end.trap.has_value() << 3));
  wire.U32(static_cast<uint32_t>(end.status));
  const board::UnhandledTrap trap = end.trap.value_or(board::UnhandledTrap{});
  wire.U32(trap.mcause);
  wire.U32(trap.mepc);
  wire.U32(trap.mtval);
  wire.U32(end.ports);
  wire.U32(end.ports_up);
  wire.U64(end.sent);
  wire.U64(end.delivered);
  wire.F64(end.latency_ns);
  wire.U64(end.dropped);
  wire.U64(end.no_route);
}

BoardEnd Unpack(ByteView packed) {
  parallel::WireReader wire(packed);
  BoardEnd end;
  end.instructions = wire.U64();
  end.traps = wire.U64();
  end.console_bytes = wire.U64();
  const uint8_t flags = wire.U8();
  end.finished = (flags & 1) != 0;
  end.failed = (flags & 2) != 0;
  end.killed = (flags & 4) != 0;
  end.status = static_cast<int>(wire.U32());
  board::UnhandledTrap trap;
  trap.mcause = wire.U32();
  trap.mepc = wire.U32();
  trap.mtval = wire.U32();
  if ((flags & 8) != 0) {
    end.trap = trap;
  }
  end.ports = wire.U32();
  end.ports_up = wire.U32();
  end.sent = wire.U64();
  end.delivered = wire.U64();
  end.latency_ns = wire.F64();
  end.dropped = wire.U64();
  end.no_route = wire.U64();
  return end;
}

}  // namespace

std::vector<BoardEnd> GatherBoardEnds(cluster::Cluster& cluster) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  const unsigned nodes = cluster.node_count();
  std::vector<BoardEnd> ends(nodes);
  for (unsigned n = 0; n < nodes; ++n) {
    if (cluster.built(n)) {
      ends[n] = ReadEnd(cluster, n);
    }
  }
  parallel::AbsorbOtherRanksNodes(
      world, nodes, [&cluster](unsigned n) { return cluster.built(n); },
      [&ends](unsigned n, Bytes& out) { Pack(ends[n], out); },
      [&ends](unsigned n, ByteView packed) { ends[n] = Unpack(packed); });
  if (!world.root()) {
    ends.clear();
  }
  return ends;
}

}  // namespace lq::app
