// SPDX-License-Identifier: Apache-2.0
// Failover per flow: the last packet before, the first packet after.
#include "models/network/failover.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lq::net {
namespace {

// `affected`, asked once per (src, dst).
class AffectedPairs {
 public:
  explicit AffectedPairs(
      const std::function<bool(uint32_t src, uint32_t dst)>& affected)
      : affected_(affected) {}
  bool operator()(uint32_t src, uint32_t dst) {
    auto [it, fresh] = known_.try_emplace({src, dst}, false);
    if (fresh) {
      it->second = affected_(src, dst);
    }
    return it->second;
  }

 private:
  const std::function<bool(uint32_t, uint32_t)>& affected_;
  std::map<std::pair<uint32_t, uint32_t>, bool> known_;
};

// Adds `flow` to `report`'s list, maximum and unmeasured count.
void Add(FailoverReport& report, const FlowFailover& flow) {
  if (flow.measured) {
    report.max_ns = std::max(report.max_ns, flow.failover_ns());
  } else {
    ++report.unmeasured;
  }
  report.flows.push_back(flow);
}

}  // namespace

FailoverReport MeasureFailover(
    const std::vector<FlowDelivery>& deliveries, double failure_ns,
    uint8_t new_epoch,
    const std::function<bool(uint32_t src, uint32_t dst)>& affected) {
  struct Sides {
    bool before = false, after = false;
    double last_sent = 0, last_ejected = 0;    // sent before the failure
    double first_sent = 0, first_ejected = 0;  // sent in the new epoch
  };
  std::map<std::tuple<uint32_t, uint32_t, uint8_t>, Sides> flows;
  AffectedPairs crossed(affected);
  for (const FlowDelivery& d : deliveries) {
    if (!crossed(d.src, d.dst)) {
      continue;
    }
    Sides& sides = flows[{d.src, d.dst, d.tc}];
    if (d.sent_ns < failure_ns &&
        (!sides.before || d.sent_ns > sides.last_sent)) {
      sides.before = true;
      sides.last_sent = d.sent_ns;
      sides.last_ejected = d.ejected_ns;
    }
    if (d.sent_ns >= failure_ns && d.epoch == new_epoch &&
        (!sides.after || d.sent_ns < sides.first_sent)) {
      sides.after = true;
      sides.first_sent = d.sent_ns;
      sides.first_ejected = d.ejected_ns;
    }
  }
  FailoverReport report;
  for (const auto& [key, sides] : flows) {
    FlowFailover flow;
    std::tie(flow.src, flow.dst, flow.tc) = key;
    flow.measured = sides.before && sides.after;
    flow.before_ns = sides.last_ejected;
    flow.after_ns = sides.first_ejected;
    Add(report, flow);
  }
  return report;
}

FailoverReport MeasureMessageFailover(
    const std::vector<MessageTimes>& messages, double failure_ns,
    const std::function<bool(uint32_t src, uint32_t dst)>& affected) {
  std::map<std::pair<uint32_t, uint32_t>, FlowFailover> connections;
  AffectedPairs crossed(affected);
  for (const MessageTimes& m : messages) {
    if (!crossed(m.src, m.dst)) {
      continue;
    }
    FlowFailover& flow = connections[{m.src, m.dst}];
    flow.src = m.src;
    flow.dst = m.dst;
    if (!m.landed_ns || *m.landed_ns <= failure_ns) {
      continue;
    }
    const double from = std::max(failure_ns, m.posted_ns);
    if (!flow.measured || *m.landed_ns - from > flow.failover_ns()) {
      flow.measured = true;
      flow.before_ns = from;
      flow.after_ns = *m.landed_ns;
    }
  }
  FailoverReport report;
  for (const auto& [key, flow] : connections) {
    Add(report, flow);
  }
  return report;
}

}  // namespace lq::net
