// SPDX-License-Identifier: Apache-2.0
// IncastWorkload: the incast experiment of issue 7 (docs/validation.md) as
// a workload on transport engines. N senders, drawn with a seed from the
// nodes other than the receiver (node 0), RDMA-WRITE one flow each to the
// receiver at the same moment; background pairs elsewhere may write flows
// one after another meanwhile. It connects its QPs when built (the cluster
// builder's part in TRN-5.7), posts at time 0, polls the completions, and
// records each flow's completion time (posting to completion, at the poll
// that saw it). When every flow is done, or the limit passes, it stops the
// simulation, or calls what OnDone gave it instead. Over MPI ranks
// (decision 0050) each rank runs the flows its cards send, and rank 0
// gathers the others' outcomes (PackShare, AbsorbShare).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::transport {

struct IncastConfig {
  unsigned senders = 8;
  bool incast = true;  // false: the background pairs alone
  unsigned background_pairs = 0;
  unsigned background_flows = 4;  // written one after another, per pair
  uint64_t flow_bytes = 1024 * 1024;
  uint32_t pmtu = 4096;
  std::string congestion;  // of every QP; empty: the engines' default
  uint64_t seed = 42;
  // Incast sender i's flow lands at i x flow_bytes in the receiver's region
  // (which must then hold senders x flow_bytes), so that a checker can
  // compare every flow's bytes; otherwise all land at address 0.
  bool land_apart = false;
  sc_core::sc_time poll{50, sc_core::SC_NS};
  // Past this, the workload stops with flows still open.
  sc_core::sc_time limit{50, sc_core::SC_MS};
};

// Where a flow's bytes go: from address 0 of node `src`'s memory to
// `offset` in node `dst`'s region; `complete` once every write of the flow
// completed successfully.
struct FlowPlace {
  unsigned src = 0, dst = 0;
  uint64_t offset = 0;
  bool complete = false;
};

// One completed flow: who wrote to whom, from its post to its completion.
struct FlowSpan {
  unsigned src = 0, dst = 0;
  bool background = false;
  uint64_t posted_ns = 0, completed_ns = 0;
};

// Flow completion times, in µs, and the completed flows in completion
// order.
struct IncastTimes {
  std::vector<double> incast;
  std::vector<double> background;
  std::vector<FlowSpan> flows;
};

// Whether `config` fits `nodes` nodes: node 0 receives the incast, senders
// may share nodes (each flow lands apart), but each background pair needs
// two nodes that nothing else writes to or sends from, or flows would
// overwrite each other's bytes.
inline bool IncastFits(const IncastConfig& config, unsigned nodes) {
  return nodes >= 2 &&
         (config.background_pairs == 0 ||
          uint64_t{config.senders} + 2 * uint64_t{config.background_pairs} <
              nodes);
}

class IncastWorkload : public sc_core::sc_module {
 public:
  // `engines[n]` is node n's, nullptr if another rank holds it; a flow to
  // node n lands at address 0 of its region `rkeys[n]`, which must hold
  // flow_bytes. The engines must be new (ConnectPairs). Throws
  // std::invalid_argument if the flows do not fit the nodes (IncastFits) or
  // a QP set-up fails.
  IncastWorkload(const sc_core::sc_module_name& name,
                 std::vector<TransportEngine*> engines,
                 std::vector<uint32_t> rkeys, const IncastConfig& config);

  // Called when this rank's flows have ended, instead of sc_stop().
  void OnDone(std::function<void()> done) { done_ = std::move(done); }

  // Flows the workload runs, those this rank's cards send, and those done
  // so far (here; everywhere once the shares are absorbed).
  uint64_t flows() const;
  uint64_t own_flows() const;
  uint64_t flows_done() const;
  // Flows whose WRITE completed with an error: they end there.
  uint64_t flows_failed() const { return failed_; }
  const IncastTimes& times() const { return times_; }
  std::vector<FlowPlace> places() const;

  // What this rank's flows did, for rank 0, which absorbs every other
  // rank's share to hold the whole run's, as one process does.
  Bytes PackShare() const;
  void AbsorbShare(ByteView share);

 private:
  // A connection and its flows.
  struct Flow {
    unsigned src = 0, dst = 0;
    uint64_t offset = 0;  // in dst's region
    uint32_t qp = 0;
    bool background = false;
    unsigned done = 0;
    bool failed = false;
    bool busy = false;
    uint64_t posted_ns = 0;
  };
  // One completion of a flow's WRITE.
  struct Completed {
    uint32_t flow = 0;  // index in flows_
    uint64_t posted_ns = 0, completed_ns = 0;
  };

  void PickFlows(unsigned nodes);
  bool here(const Flow& flow) const { return engines_[flow.src] != nullptr; }
  void Post(Flow& flow);
  unsigned FlowsOf(const Flow& flow) const;
  void Record(const Completed& completed);
  void Run();  // SC_THREAD

  std::vector<TransportEngine*> engines_;
  std::vector<uint32_t> rkeys_;
  IncastConfig config_;
  std::vector<Flow> flows_;
  // In the order one process sees them: by poll, then by flow.
  std::vector<Completed> completed_;
  IncastTimes times_;  // completed_, by kind
  uint64_t failed_ = 0;
  std::function<void()> done_ = [] { sc_core::sc_stop(); };
};

}  // namespace lq::transport
