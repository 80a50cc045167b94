// SPDX-License-Identifier: Apache-2.0
// ClusterTracer: a run of boards as trace events, kept by node.
#include "systemc/app/cluster_tracer.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

double NowNs() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

}  // namespace

void ClusterTracer::Attach(cluster::ClusterConfig& config) {
  config.on_console_line = [this, then = std::move(config.on_console_line)](
                               const std::string& node,
                               const std::string& line) {
    const double now = NowNs();
    events_[node].push_back({Kind::kInstant, "firmware", line, now, now});
    if (then) {
      then(node, line);
    }
  };
  config.on_cpu_log = [this, then = std::move(config.on_cpu_log)](
                          const std::string& node, const sc_core::sc_time& at,
                          const std::string& event) {
    const double at_ns = at.to_seconds() * 1e9;
    events_[node].push_back({Kind::kInstant, "cpu", event, at_ns, at_ns});
    if (then) {
      then(node, at, event);
    }
  };
  config.on_link_state = [this, then = std::move(config.on_link_state)](
                             const std::string& node, unsigned port,
                             link::LtssmState state, uint64_t at_ps) {
    LinkState(node, port, state, static_cast<double>(at_ps) / 1000);
    if (then) {
      then(node, port, state, at_ps);
    }
  };
}

void ClusterTracer::LinkState(const std::string& node, unsigned port,
                              link::LtssmState state, double at_ns) {
  const auto open = open_.find({node, port});
  if (open != open_.end()) {
    Close(node, port, open->second, at_ns);
  }
  open_[{node, port}] = {state, at_ns};
}

void ClusterTracer::Close(const std::string& node, unsigned port,
                          const Open& state, double end_ns) {
  events_[node].push_back({Kind::kSpan, "link port " + std::to_string(port),
                           link::LtssmStateName(state.state), state.since_ns,
                           end_ns});
}

void ClusterTracer::Fault(const std::string& node,
                          const std::string& description) {
  const double now = NowNs();
  events_[node].push_back({Kind::kFault, "injected", description, now, now});
}

void ClusterTracer::CloseOpen(double end_ns) {
  for (const auto& [at, state] : open_) {
    Close(at.first, at.second, state, end_ns);
  }
  open_.clear();
}

void ClusterTracer::Gather(cluster::Cluster& cluster) {
  CloseOpen(NowNs());
  const auto name = [&cluster](unsigned n) {
    return std::string(cluster.node(n).basename());
  };
  parallel::AbsorbOtherRanksNodes(
      parallel::RankWorld::Get(), cluster.node_count(),
      [&cluster](unsigned n) { return cluster.built(n); },
      [this, &name](unsigned n, Bytes& out) {
        parallel::WireWriter writer(out);
        const std::string node = name(n);
        writer.Text(node);
        for (const Event& event : events_[node]) {
          writer.U8(static_cast<uint8_t>(event.kind));
          writer.Text(event.track);
          writer.Text(event.name);
          writer.F64(event.start_ns);
          writer.F64(event.end_ns);
        }
      },
      [this](unsigned, ByteView packed) {
        parallel::WireReader reader(packed);
        std::vector<Event>& events = events_[reader.Text()];
        while (!reader.done()) {
          Event event;
          event.kind = static_cast<Kind>(reader.U8());
          event.track = reader.Text();
          event.name = reader.Text();
          event.start_ns = reader.F64();
          event.end_ns = reader.F64();
          events.push_back(std::move(event));
        }
      });
}

void ClusterTracer::Finish(double end_ns) {
  CloseOpen(end_ns);
  // A node's ports change state at the same time in the order the kernel
  // ran their processes, which a cut cable's delivery at a window's end
  // changes: by start, then track, each track in the order it was told.
  for (auto& [node, events] : events_) {
    std::stable_sort(
        events.begin(), events.end(), [](const Event& a, const Event& b) {
          return std::tie(a.start_ns, a.track) < std::tie(b.start_ns, b.track);
        });
  }
  for (const auto& [node, events] : events_) {
    for (const Event& event : events) {
      if (event.kind == Kind::kInstant) {
        trace_.Instant(node, event.track, event.name, event.start_ns);
      } else if (event.kind == Kind::kSpan) {
        trace_.Span(node, event.track, event.name, event.start_ns,
                    event.end_ns);
      }
    }
  }
  for (const auto& [node, events] : events_) {
    for (const Event& event : events) {
      if (event.kind == Kind::kFault) {
        trace_.Instant("faults", event.track, event.name, event.start_ns);
      }
    }
  }
  events_.clear();
}

}  // namespace lq::app
