// SPDX-License-Identifier: Apache-2.0
// ClusterTracer: what a run of boards shows in a --trace file, recorded as
// the cluster runs: each node's firmware console lines and CPU events
// (--log) as instants, each link port's LTSSM states as spans (closed by
// the next state or at the end), and injected faults as instants. What it
// records is kept by node and written node by node, so that a run over MPI
// ranks, whose rank 0 gathers every rank's nodes (Gather), writes the file
// one process writes (decision 0050).
#pragma once

#include <map>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/link/ltssm.h"
#include "systemc/app/chrome_trace.h"
#include "systemc/cluster/cluster.h"

namespace lq::app {

class ClusterTracer {
 public:
  explicit ClusterTracer(ChromeTrace& trace) : trace_(trace) {}

  // Taps `config`'s console, CPU log and link state callbacks, still
  // calling those already set.
  void Attach(cluster::ClusterConfig& config);
  // A fault applied now to node `node` (its name), as FaultInjector
  // describes it.
  void Fault(const std::string& node, const std::string& description);
  // Closes the open LTSSM spans now; every rank calls it once the run of
  // `cluster` is over, and rank 0 then holds every rank's nodes.
  void Gather(cluster::Cluster& cluster);
  // Closes the LTSSM spans still open at `end_ns` and adds everything
  // recorded to the trace, node by node (a node's name ordered by length,
  // then text: node2 before node10), each node's by start time, then
  // track; then the faults.
  void Finish(double end_ns);

 private:
  enum class Kind : uint8_t { kInstant, kSpan, kFault };
  struct Event {
    Kind kind;
    std::string track, name;
    double start_ns = 0, end_ns = 0;
  };
  struct Open {
    link::LtssmState state;
    double since_ns;
  };
  // Node names in that order.
  struct NameOrder {
    bool operator()(const std::string& a, const std::string& b) const {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    }
  };
  void LinkState(const std::string& node, unsigned port, link::LtssmState state,
                 double at_ns);
  // Records port `port`'s `state` of node `node` as a span to `end_ns`.
  void Close(const std::string& node, unsigned port, const Open& state,
             double end_ns);
  void CloseOpen(double end_ns);

  ChromeTrace& trace_;
  std::map<std::pair<std::string, unsigned>, Open> open_;
  std::map<std::string, std::vector<Event>, NameOrder> events_;  // by node
};

}  // namespace lq::app
