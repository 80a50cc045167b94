// SPDX-License-Identifier: Apache-2.0
// IncastWorkload: picks the flows, connects their QPs, posts and polls.
#include "systemc/transport/incast_workload.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "systemc/parallel/wire.h"

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
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const Flow& flow : flows_) {
    pairs.emplace_back(flow.src, flow.dst);
  }
  const std::vector<QpPair> qps =
      ConnectPairs(engines_, pairs, config_.pmtu, config_.congestion);
  for (size_t i = 0; i < flows_.size(); ++i) {
    flows_[i].qp = qps[i].a;
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

uint64_t IncastWorkload::own_flows() const {
  uint64_t count = 0;
  for (const Flow& flow : flows_) {
    count += here(flow) ? FlowsOf(flow) : 0;
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

void IncastWorkload::Record(const Completed& completed) {
  completed_.push_back(completed);
  const Flow& flow = flows_[completed.flow];
  auto& into = flow.background ? times_.background : times_.incast;
  into.push_back(
      static_cast<double>(completed.completed_ns - completed.posted_ns) / 1e3);
  times_.flows.push_back({flow.src, flow.dst, flow.background,
                          completed.posted_ns, completed.completed_ns});
}

void IncastWorkload::Run() {
  for (Flow& flow : flows_) {
    if (here(flow)) {
      Post(flow);
    }
  }
  const auto poll_ns = static_cast<uint64_t>(config_.poll.to_seconds() * 1e9);
  const auto limit_ns = static_cast<uint64_t>(config_.limit.to_seconds() * 1e9);
  // Completions by sending engine, then by QP: several flows may share an
  // engine. Only the senders' engines complete the flows' WRITEs.
  std::vector<unsigned> senders;
  for (const Flow& flow : flows_) {
    if (here(flow)) {
      senders.push_back(flow.src);
    }
  }
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  // A poll takes the completions made before its instant; one made at that
  // very instant waits for the next poll, whichever process SystemC ran
  // first (so the times do not depend on the rank count).
  std::vector<std::vector<EngineCompletion>> polled(engines_.size());
  std::vector<std::vector<EngineCompletion>> later(engines_.size());
  for (uint64_t now = poll_ns; now <= limit_ns && !senders.empty();
       now += poll_ns) {
    sc_core::wait(config_.poll);
    for (const unsigned n : senders) {
      polled[n] = std::move(later[n]);
      later[n].clear();
      for (EngineCompletion& c : engines_[n]->PollCompletions()) {
        (c.at_ps < now * 1000 ? polled[n] : later[n]).push_back(std::move(c));
      }
    }
    bool busy = false;
    for (uint32_t i = 0; i < flows_.size(); ++i) {
      Flow& flow = flows_[i];
      if (!here(flow)) {
        continue;
      }
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
        Record({i, flow.posted_ns, now});
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
  done_();
}

Bytes IncastWorkload::PackShare() const {
  Bytes packed;
  parallel::WireWriter out(packed);
  out.U64(failed_);
  for (uint32_t i = 0; i < flows_.size(); ++i) {
    if (here(flows_[i])) {  // a flow of this rank's
      out.U8(1);
      out.U32(i);
      out.U32(flows_[i].done);
      out.U8(flows_[i].failed ? 1 : 0);
    }
  }
  for (const Completed& c : completed_) {
    out.U8(0);
    out.U32(c.flow);
    out.U64(c.posted_ns);
    out.U64(c.completed_ns);
  }
  return packed;
}

void IncastWorkload::AbsorbShare(ByteView share) {
  parallel::WireReader in(share);
  failed_ += in.U64();
  std::vector<Completed> completed = std::move(completed_);
  while (!in.done()) {
    if (in.U8() == 1) {
      Flow& flow = flows_.at(in.U32());
      flow.done = in.U32();
      flow.failed = in.U8() != 0;
    } else {
      Completed c;
      c.flow = in.U32();
      c.posted_ns = in.U64();
      c.completed_ns = in.U64();
      completed.push_back(c);
    }
  }
  // One process records them poll by poll, flow by flow.
  std::sort(completed.begin(), completed.end(),
            [](const Completed& a, const Completed& b) {
              return std::tie(a.completed_ns, a.flow) <
                     std::tie(b.completed_ns, b.flow);
            });
  completed_.clear();
  times_ = {};
  for (const Completed& c : completed) {
    Record(c);
  }
}

}  // namespace lq::transport
