// SPDX-License-Identifier: Apache-2.0
// A stack run's or a network study's trace events.
#include "systemc/app/run_tracer.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <tuple>

#include "systemc/app/run_report.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/wire.h"
#include "systemc/transport/transport_engine.h"

namespace lq::app {
namespace {

std::string NodeName(uint64_t node) { return "node" + std::to_string(node); }

double Ns(const sc_core::sc_time& time) { return time.to_seconds() * 1e9; }

// The fabric manager's steps of one update, each a span from the step
// before it.
void TraceUpdate(ChromeTrace& trace, const char* track,
                 const net::RouteUpdate& update, double from_ns) {
  const std::pair<const char*, double> steps[] = {
      {"report", Ns(update.first_event)},
      {"compute", Ns(update.computed)},
      {"write, freeze", Ns(update.frozen)},
      {"drain, switch", Ns(update.switched)},
      {"resume", Ns(update.resumed)}};
  double start = from_ns;
  for (const auto& [step, end] : steps) {
    if (end < start) {
      break;  // the update stopped here (its failure says why)
    }
    trace.Span("fabric manager", track, step, start, end);
    start = end;
  }
}

}  // namespace

std::vector<ParamSpec> TraceParamSpecs() {
  return {
      RealParam("trace.start_us",
                "--trace: simulated time from which events are kept", "0", "us",
                0, 1e9),
      RealParam("trace.length_us",
                "--trace: simulated time events are kept for; 0: to the end",
                "0", "us", 0, 1e9),
      IntegerParam("trace.max_spans",
                   "--trace: most message, flow or packet spans kept; more "
                   "are sampled, every k-th, and the trace says so",
                   "20000", "", 1, 10000000),
  };
}

void UseTraceKeys(KeyUsage& usage) {
  usage.Use({"trace.start_us", "trace.length_us", "trace.max_spans"});
}

void ApplyTraceWindow(const ParamSet& params, ChromeTrace& trace) {
  const double start_ns = params.Real("trace.start_us") * 1000;
  const double length_ns = params.Real("trace.length_us") * 1000;
  trace.SetWindow(start_ns, length_ns > 0
                                ? start_ns + length_ns
                                : std::numeric_limits<double>::infinity());
}

RunTracer::RunTracer(const ParamSet& params)
    : max_spans_(static_cast<uint64_t>(params.Integer("trace.max_spans"))) {
  ApplyTraceWindow(params, trace_);
}

StackAssembly::LinkStateHandler RunTracer::LinkStates() {
  return [this](unsigned node, unsigned port, link::LtssmState state,
                uint64_t at_ps) {
    const double at_ns = static_cast<double>(at_ps) / 1000;
    const auto [it, first] = links_.try_emplace({node, port});
    if (!first) {
      CloseLink(node, port, it->second, at_ns);
    }
    it->second = {state, at_ns};
  };
}

void RunTracer::Pauses(const nlohmann::ordered_json& pauses) {
  for (const auto& pause : pauses) {
    trace_.Span(NodeName(pause.value("node", 0u)),
                "port " + std::to_string(pause.value("port", 0u)) + " PFC",
                "paused", pause.value("start_ns", 0.0),
                pause.value("end_ns", 0.0));
  }
}

void RunTracer::Messages(const std::string& what,
                         std::vector<MessageSpan> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const MessageSpan& a, const MessageSpan& b) {
              return a.start_ns < b.start_ns;
            });
  const uint64_t every =
      std::max<uint64_t>(1, (spans.size() + max_spans_ - 1) / max_spans_);
  if (every > 1) {
    sampling_ = "1 in " + std::to_string(every) + " of " +
                std::to_string(spans.size()) + " " + what + "s";
  }
  for (size_t i = 0; i < spans.size(); i += every) {
    const MessageSpan& span = spans[i];
    trace_.Span(NodeName(span.src), "messages",
                what + " to " + NodeName(span.dst), span.start_ns, span.end_ns,
                {{"src", span.src}, {"dst", span.dst}});
  }
}

void RunTracer::FabricManager(const FaultOutcome& fault) {
  const std::string what =
      fault.plan.kind == FaultPlan::Kind::kNode
          ? "node " + std::to_string(fault.plan.node) + " fails"
          : "link " + std::to_string(fault.plan.node) + ":" +
                std::to_string(fault.plan.port) + " cut";
  trace_.Instant("fabric manager", "faults", what, fault.at_ns);
  if (fault.detected_ns) {
    trace_.Instant("fabric manager", "faults", "found down by the links",
                   *fault.detected_ns);
  }
  if (fault.update) {
    TraceUpdate(trace_, "failover update", *fault.update, fault.at_ns);
  }
  if (fault.restore) {
    trace_.Instant("fabric manager", "faults", "back", fault.restore->at_ns);
    if (fault.restore_update) {
      TraceUpdate(trace_, "restore update", *fault.restore_update,
                  fault.restore->at_ns);
    }
  }
}

void RunTracer::WatchRates(const std::vector<NodeParts>& nodes) {
  for (unsigned n = 0; n < nodes.size(); ++n) {
    if (nodes[n].engine == nullptr) {
      continue;
    }
    nodes[n].engine->set_rate_observer(
        [this, n](uint32_t qpn, double rate_bps, uint64_t at_ps) {
          const double at_ns = static_cast<double>(at_ps) / 1000;
          const auto [it, first] = rates_.try_emplace({n, qpn});
          if (!first) {
            CloseRate(n, qpn, it->second, at_ns);
          }
          it->second = {rate_bps, at_ns};
        });
  }
}

void RunTracer::CloseRate(unsigned node, uint32_t qpn, const Rate& rate,
                          double end_ns) {
  char name[32];
  std::snprintf(name, sizeof(name), "%.1f Gb/s", rate.rate_bps / 1e9);
  spans_[node].push_back({"QP " + std::to_string(qpn) + " rate", name,
                          rate.since_ns, end_ns, rate.rate_bps / 1e9});
}

void RunTracer::CloseLink(unsigned node, unsigned port, const LinkState& state,
                          double end_ns) {
  spans_[node].push_back({"link port " + std::to_string(port),
                          link::LtssmStateName(state.state), state.since_ns,
                          end_ns});
}

void RunTracer::CloseOpen() {
  const double end_ns = Ns(sc_core::sc_time_stamp());
  for (const auto& [at, state] : links_) {
    CloseLink(at.first, at.second, state, end_ns);
  }
  links_.clear();
  for (const auto& [at, rate] : rates_) {
    CloseRate(at.first, at.second, rate, end_ns);
  }
  rates_.clear();
}

void RunTracer::Gather(const StackAssembly& assembly) {
  CloseOpen();
  parallel::AbsorbOtherRanksNodes(
      parallel::RankWorld::Get(),
      static_cast<unsigned>(assembly.nodes().size()),
      [&assembly](unsigned n) { return assembly.built(n); },
      [this](unsigned n, Bytes& out) {
        parallel::WireWriter writer(out);
        for (const NodeSpan& span : spans_[n]) {
          writer.Text(span.track);
          writer.Text(span.name);
          writer.F64(span.start_ns);
          writer.F64(span.end_ns);
          writer.F64(span.rate_gbps);
        }
      },
      [this](unsigned n, ByteView packed) {
        parallel::WireReader reader(packed);
        while (!reader.done()) {
          NodeSpan span;
          span.track = reader.Text();
          span.name = reader.Text();
          span.start_ns = reader.F64();
          span.end_ns = reader.F64();
          span.rate_gbps = reader.F64();
          spans_[n].push_back(std::move(span));
        }
      });
}

bool RunTracer::Finish(const std::string& path, bool quiet) {
  CloseOpen();
  // Node by node, each track in time order.
  for (auto& [node, spans] : spans_) {
    std::sort(
        spans.begin(), spans.end(), [](const NodeSpan& a, const NodeSpan& b) {
          return std::tie(a.track, a.start_ns) < std::tie(b.track, b.start_ns);
        });
    for (const NodeSpan& span : spans) {
      trace_.Span(NodeName(node), span.track, span.name, span.start_ns,
                  span.end_ns,
                  span.rate_gbps < 0
                      ? nlohmann::ordered_json::object()
                      : nlohmann::ordered_json{{"rate_gbps", span.rate_gbps}});
    }
  }
  spans_.clear();
  if (!sampling_.empty()) {
    trace_.Instant("run", "trace", "sampled: " + sampling_,
                   trace_.window_start_ns());
  }
  if (auto error = WriteJsonFile(trace_.Json(), path); !error.empty()) {
    std::fprintf(stderr, "lqemu run: --trace: %s\n", error.c_str());
    return false;
  }
  if (!quiet) {
    std::fprintf(stderr, "lqemu run: --trace: %zu events%s in %s\n",
                 trace_.size(),
                 sampling_.empty() ? "" : ("; spans " + sampling_).c_str(),
                 path.c_str());
  }
  return true;
}

std::unique_ptr<RunTracer> OptionalTracer(const ParamSet& params,
                                          const std::string& trace_file) {
  return trace_file.empty() ? nullptr : std::make_unique<RunTracer>(params);
}

StackAssembly::LinkStateHandler LinkStatesFor(RunTracer* tracer) {
  return tracer != nullptr ? tracer->LinkStates()
                           : StackAssembly::LinkStateHandler();
}

}  // namespace lq::app
