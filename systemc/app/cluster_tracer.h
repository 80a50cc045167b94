// ClusterTracer: what a run of boards shows in a --trace file, recorded as
// the cluster runs: each node's firmware console lines and CPU events
// (--log) as instants, each link port's LTSSM states as spans (closed by
// the next state or by Finish()), and injected faults as instants.
#pragma once

#include <map>
#include <string>
#include <systemc>
#include <utility>

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
  // Port `port` of the node named `node` entered `state` at `at_ns`: for
  // clusters whose link state callbacks another owner taps.
  void LinkState(const std::string& node, unsigned port, link::LtssmState state,
                 double at_ns);
  // A fault applied now, as FaultInjector describes it.
  void Fault(const std::string& description);
  // Closes the open LTSSM spans at `end_ns`.
  void Finish(double end_ns);

 private:
  struct Open {
    link::LtssmState state;
    double since_ns;
  };
  void Close(const std::string& node, unsigned port, double at_ns);
  void Emit(const std::string& node, unsigned port, const Open& state,
            double end_ns);

  ChromeTrace& trace_;
  std::map<std::pair<std::string, unsigned>, Open> open_;
};

}  // namespace lq::app
