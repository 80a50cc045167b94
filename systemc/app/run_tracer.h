// SPDX-License-Identifier: Apache-2.0
// What a run of the stack's cards or a network study shows in a --trace
// file (decision 0046), in Chrome's trace-event JSON for Perfetto: a
// process per node with its ports' LTSSM states (tlm links), its router
// outputs' PFC pauses, its QPs' congestion-control rates and, on its
// "messages" track, spans of what it sent
// (SENDs, flows, collective WRITEs, packets) from posting to landing,
// sampled to at most trace.max_spans; the fabric manager's steps on a
// process of their own. Only what falls in the trace.* window is kept.
// The link states and rates, recorded as the run goes, are kept by node
// and written in node order, so that a run over MPI ranks, whose rank 0
// gathers every rank's nodes (Gather), writes the file one process writes
// (decision 0050).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/link/ltssm.h"
#include "systemc/app/chrome_trace.h"
#include "systemc/app/key_usage.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/common/param.h"

namespace lq::app {

// The trace.* keys, and the reading of them.
std::vector<ParamSpec> TraceParamSpecs();
void UseTraceKeys(KeyUsage& usage);
// Keeps `trace` to the window trace.start_us and trace.length_us say.
void ApplyTraceWindow(const ParamSet& params, ChromeTrace& trace);

// Something node `src` sent to `dst`, from posting to landing.
struct MessageSpan {
  uint32_t src = 0, dst = 0;
  double start_ns = 0, end_ns = 0;
};

class RunTracer {
 public:
  explicit RunTracer(const ParamSet& params);

  // Records port state changes as a StackAssembly reports them.
  StackAssembly::LinkStateHandler LinkStates();
  // The pauses of PauseLog::Json(): spans on "port P PFC" tracks.
  void Pauses(const nlohmann::ordered_json& pauses);
  // Every `what` the run completed, in any order: those in the window,
  // every k-th so that at most trace.max_spans are kept.
  void Messages(const std::string& what, std::vector<MessageSpan> spans);
  // The fabric manager's repair of `fault`, and its restore if any.
  void FabricManager(const FaultOutcome& fault);
  // Follows the congestion control of every QP of `nodes`' engines: each
  // rate it paces at, a span on the node's "QP <n> rate" track from the
  // change to the next (DCQCN's RC; the others pace at the line rate).
  void WatchRates(const std::vector<NodeParts>& nodes);

  // Closes the states still open now; every rank calls it once the run of
  // `assembly` is over, and rank 0 then holds every rank's nodes' states
  // and rates.
  void Gather(const StackAssembly& assembly);
  // Writes the trace to `path` (after Gather, if states or rates were
  // watched), saying on stderr how many events and how they were sampled
  // unless `quiet`; false (said on stderr) if the file cannot be written.
  bool Finish(const std::string& path, bool quiet);

 private:
  struct Rate {
    double rate_bps = 0;
    double since_ns = 0;
  };
  struct LinkState {
    link::LtssmState state;
    double since_ns = 0;
  };
  // A closed span of a node's link state or QP rate.
  struct NodeSpan {
    std::string track, name;
    double start_ns = 0, end_ns = 0;
    double rate_gbps = -1;  // a rate's, else none
  };
  void CloseRate(unsigned node, uint32_t qpn, const Rate& rate, double end_ns);
  void CloseLink(unsigned node, unsigned port, const LinkState& state,
                 double end_ns);
  // Closes the link states and rates still open, now.
  void CloseOpen();

  ChromeTrace trace_;
  std::map<std::pair<unsigned, unsigned>, LinkState> links_;  // open
  std::map<std::pair<unsigned, uint32_t>, Rate> rates_;       // by node and QP
  std::map<unsigned, std::vector<NodeSpan>> spans_;           // closed, by node
  uint64_t max_spans_;
  std::string sampling_;  // "1 in 26 of 25600 SENDs"; empty if all
};

// A tracer when `trace_file` is given (--trace), else none.
std::unique_ptr<RunTracer> OptionalTracer(const ParamSet& params,
                                          const std::string& trace_file);
// `tracer`'s LinkStates(), or no handler without a tracer.
StackAssembly::LinkStateHandler LinkStatesFor(RunTracer* tracer);

}  // namespace lq::app
