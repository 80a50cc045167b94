// SPDX-License-Identifier: Apache-2.0
// How each board of a run ended, and what its card counted, read on the
// rank that has it and brought to rank 0 in node order (decision 0050), so
// that `lqemu board`'s summary, exit status and stats come from the same
// figures, taken in the same order, on any number of ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "systemc/board/rv32_cpu.h"
#include "systemc/cluster/cluster.h"

namespace lq::app {

struct BoardEnd {
  uint64_t instructions = 0;
  uint64_t traps = 0;
  uint64_t console_bytes = 0;
  bool finished = false;
  bool failed = false;  // an injected failure stopped it
  bool killed = false;  // GDB killed its firmware
  int status = 0;       // its exit status, if finished
  std::optional<board::UnhandledTrap> trap;
  unsigned ports = 0;
  unsigned ports_up = 0;  // in L0
  // board.traffic_load's packets: those its source sent, those delivered
  // and the sum of their latencies; its router's drops.
  uint64_t sent = 0;
  uint64_t delivered = 0;
  double latency_ns = 0;
  uint64_t dropped = 0;
  uint64_t no_route = 0;
};

// Every node's end, by node, on rank 0 (every rank calls it); the other
// ranks get none.
std::vector<BoardEnd> GatherBoardEnds(cluster::Cluster& cluster);

}  // namespace lq::app
