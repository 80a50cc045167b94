// IncastWorkload: picks the flows, connects their QPs, posts and polls.
#include "systemc/transport/incast_workload.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>

namespace lq::transport {

IncastWorkload::IncastWorkload(const sc_core::sc_module_name& name,
                               std::vector<TransportEngine*> engines,
                               std::vector<uint32_t> rkeys,
                               const IncastConfig& config)
    : sc_module(name),
      engines_(std::move(engines)),
      rkeys_(std::move(rkeys)),
      config_(config) {
  if (!IncastFits(config_, static_cast<unsigned>(engines_.size())) ||
      rkeys_.size() != engines_.size()) {
    throw std::invalid_argument(
        "an incast needs at least 2 nodes, each with a memory region, and "
        "2 nodes of their own per background pair");
  }
  PickFlows(static_cast<unsigned>(engines_.size()));
  for (Flow& flow : flows_) {
    const auto connected =
        ConnectQps(*engines_[flow.src], *engines_[flow.dst], config_.pmtu,
                   config_.congestion.empty()
                       ? std::nullopt
                       : std::optional<std::string>(config_.congestion));
    if (!connected) {
      throw std::invalid_argument(
          "the QPs of flow " + std::to_string(flow.src) + " -> " +
          std::to_string(flow.dst) + " could not be connected (TRN-5.3)");
    }
    flow.qp = connected->a;
  }
  SC_HAS_PROCESS(IncastWorkload);
  SC_THREAD(Run);
}

// Receiver node 0; incast senders and background pairs drawn, seeded, from
// the other nodes: senders share nodes only when there are more of them
// than nodes, background pairs never (IncastFits).
void IncastWorkload::PickFlows(unsigned nodes) {
  std::vector<unsigned> others;
  for (unsigned n = 1; n < nodes; ++n) {
    others.push_back(n);
  }
  std::mt19937 random(static_cast<std::mt19937::result_type>(config_.seed));
  std::shuffle(others.begin(), others.end(), random);
  for (unsigned i = 0; config_.incast && i < config_.senders; ++i) {
    Flow flow;
    flow.src = others[i % others.size()];
    flow.offset = config_.land_apart ? i * config_.flow_bytes : 0;
    flows_.push_back(flow);
  }
  for (unsigned i = 0; i < config_.background_pairs; ++i) {
    const size_t at = config_.senders + 2 * size_t{i};
    Flow flow;
    flow.src = others[at % others.size()];
    flow.dst = others[(at + 1) % others.size()];
    flow.background = true;
    flows_.push_back(flow);
  }
}

unsigned IncastWorkload::FlowsOf(const Flow& flow) const {
  return flow.background ? config_.background_flows : 1;
}

uint64_t IncastWorkload::flows() const {
  uint64_t count = 0;
  for (const Flow& flow : flows_) {
    count += FlowsOf(flow);
  }
  return count;
}

std::vector<FlowPlace> IncastWorkload::places() const {
  std::vector<FlowPlace> places;
  for (const Flow& flow : flows_) {
    places.push_back({flow.src, flow.dst, flow.offset,
                      !flow.failed && flow.done == FlowsOf(flow)});
  }
  return places;
}

uint64_t IncastWorkload::flows_done() const {
  return times_.incast.size() + times_.background.size();
}

void IncastWorkload::Post(Flow& flow) {
  SendWr wr;
  wr.wr_id = flow.done;
  wr.kind = SendKind::kWrite;
  wr.length = static_cast<uint32_t>(config_.flow_bytes);
  wr.remote_address = flow.offset;
  wr.rkey = rkeys_[flow.dst];
  engines_[flow.src]->PostSend(flow.qp, wr, 0).value();
  flow.posted_ns =
      static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
  flow.busy = true;
}

void IncastWorkload::Run() {
  for (Flow& flow : flows_) {
    Post(flow);
  }
  const auto poll_ns = static_cast<uint64_t>(config_.poll.to_seconds() * 1e9);
  const auto limit_ns = static_cast<uint64_t>(config_.limit.to_seconds() * 1e9);
  // Completions by sending engine, then by QP: several flows may share an
  // engine. Only the senders' engines complete the flows' WRITEs.
  std::vector<unsigned> senders;
  for (const Flow& flow : flows_) {
    senders.push_back(flow.src);
  }
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  std::vector<std::vector<EngineCompletion>> polled(engines_.size());
  for (uint64_t now = poll_ns; now <= limit_ns; now += poll_ns) {
    sc_core::wait(config_.poll);
    for (const unsigned n : senders) {
      polled[n] = engines_[n]->PollCompletions();
    }
    bool busy = false;
    for (Flow& flow : flows_) {
      for (const EngineCompletion& c : polled[flow.src]) {
        if (c.qpn != flow.qp || c.receive) {
          continue;
        }
        flow.busy = false;
        if (c.completion.status != CompletionStatus::kSuccess) {
          ++failed_;
          flow.failed = true;
          flow.done = FlowsOf(flow);  // its QP is in ERROR: nothing follows
          continue;
        }
        auto& into = flow.background ? times_.background : times_.incast;
        into.push_back(static_cast<double>(now - flow.posted_ns) / 1e3);
        times_.flows.push_back(
            {flow.src, flow.dst, flow.background, flow.posted_ns, now});
        ++flow.done;
      }
      // A background pair writes its flows one after another.
      if (flow.background && !flow.busy && flow.done < FlowsOf(flow)) {
        Post(flow);
      }
      busy = busy || flow.busy;
    }
    if (!busy) {
      break;
    }
  }
  sc_core::sc_stop();
}

}  // namespace lq::transport
