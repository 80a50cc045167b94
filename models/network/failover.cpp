// Failover per flow: the last packet before, the first packet after.
#include "models/network/failover.h"

#include <map>
#include <tuple>

namespace lq::net {

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
  std::map<std::pair<uint32_t, uint32_t>, bool> crossed;
  for (const FlowDelivery& d : deliveries) {
    auto [it, fresh] = crossed.try_emplace({d.src, d.dst}, false);
    if (fresh) {
      it->second = affected(d.src, d.dst);
    }
    if (!it->second) {
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
    if (flow.measured) {
      report.max_ns = std::max(report.max_ns, flow.failover_ns());
    } else {
      ++report.unmeasured;
    }
    report.flows.push_back(flow);
  }
  return report;
}

}  // namespace lq::net
