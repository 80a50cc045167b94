// SPDX-License-Identifier: Apache-2.0
// PauseLog: every pause of the data priority at every router output, from
// the routers' flow control as the run goes: [start, end) in ns, for a
// run's statistics (transport.pauses) and its trace. Listed by node, then
// by start and port, so that a run over MPI ranks, whose rank 0 gathers
// every rank's nodes, lists them as one process does (decision 0050).
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "systemc/app/stack_assembly.h"

namespace lq::app {

class PauseLog {
 public:
  // Watches the flow control of `nodes` (nullptr: a node another rank
  // holds, or a router without PFC).
  void Attach(const std::vector<NodeParts>& nodes);
  // Closes the pauses still running at `end_ns`. Every rank calls it;
  // rank 0's log then holds every rank's pauses, the others' theirs.
  void Finish(double end_ns);
  nlohmann::ordered_json Json() const;

 private:
  struct Interval {
    unsigned port = 0;
    double start_ns = 0, end_ns = 0;
  };
  void Close(unsigned node, unsigned port, double at_ns);

  std::map<std::pair<unsigned, unsigned>, double> open_;
  std::vector<std::vector<Interval>> by_node_;
  std::vector<bool> watched_;  // by node: built here
};

}  // namespace lq::app
