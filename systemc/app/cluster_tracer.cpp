// ClusterTracer: a run of boards as trace events.
#include "systemc/app/cluster_tracer.h"

#include <functional>

namespace lq::app {
namespace {

double NowNs() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

}  // namespace

void ClusterTracer::Attach(cluster::ClusterConfig& config) {
  config.on_console_line = [this, then = std::move(config.on_console_line)](
                               const std::string& node,
                               const std::string& line) {
    trace_.Instant(node, "firmware", line, NowNs());
    if (then) {
      then(node, line);
    }
  };
  config.on_cpu_log = [this, then = std::move(config.on_cpu_log)](
                          const std::string& node, const sc_core::sc_time& at,
                          const std::string& event) {
    trace_.Instant(node, "cpu", event, at.to_seconds() * 1e9);
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
  Close(node, port, at_ns);
  open_[{node, port}] = {state, at_ns};
}

void ClusterTracer::Fault(const std::string& description) {
  trace_.Instant("faults", "injected", description, NowNs());
}

void ClusterTracer::Finish(double end_ns) {
  for (auto& [key, state] : open_) {
    Emit(key.first, key.second, state, end_ns);
  }
  open_.clear();
}

void ClusterTracer::Close(const std::string& node, unsigned port,
                          double at_ns) {
  const auto it = open_.find({node, port});
  if (it != open_.end()) {
    Emit(node, port, it->second, at_ns);
  }
}

void ClusterTracer::Emit(const std::string& node, unsigned port,
                         const Open& state, double end_ns) {
  trace_.Span(node, "link port " + std::to_string(port),
              link::LtssmStateName(state.state), state.since_ns, end_ns);
}

}  // namespace lq::app
