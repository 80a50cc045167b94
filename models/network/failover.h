// SPDX-License-Identifier: Apache-2.0
// Failover time per flow (docs/spec/net.md NET-7.9): from the ejection of a
// flow's last packet injected before a failure to the ejection of its first
// packet injected in the routing epoch that repaired it. With a transport
// above the network, per connection, by its messages (NET-7.13).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace lq::net {

// One delivered packet of a flow (source, destination, traffic class).
struct FlowDelivery {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint8_t tc = 0;
  double sent_ns = 0;     // injection at the source
  double ejected_ns = 0;  // ejection at the destination
  uint8_t epoch = 0;      // the routing epoch it was injected in
};

struct FlowFailover {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint8_t tc = 0;
  bool measured = false;  // a delivered packet on both sides of the repair
  double before_ns = 0;   // ejection of the last packet sent before
  double after_ns = 0;    // ejection of the first packet of the new epoch
  double failover_ns() const { return after_ns - before_ns; }
};

struct FailoverReport {
  std::vector<FlowFailover> flows;  // affected flows, by (src, dst, tc)
  size_t unmeasured = 0;
  double max_ns = 0;  // over the measured flows (faults[].recovered_ns)
};

// Measures every flow of `deliveries` for which `affected(src, dst)` holds
// (its route before the failure crossed what failed), for a failure at
// `failure_ns` repaired by routing epoch `new_epoch`.
FailoverReport MeasureFailover(
    const std::vector<FlowDelivery>& deliveries, double failure_ns,
    uint8_t new_epoch,
    const std::function<bool(uint32_t src, uint32_t dst)>& affected);

// One message of a connection: posted, and landed if it did (NET-7.13).
struct MessageTimes {
  uint32_t src = 0;
  uint32_t dst = 0;
  double posted_ns = 0;
  std::optional<double> landed_ns;
};

// NET-7.13: every connection (src, dst) of `messages` for which
// `affected(src, dst)` holds, measured by the longest any of its messages
// landing after `failure_ns` waited past it: from the failure, or from its
// posting if later, to its landing (before_ns and after_ns of the flow).
// Connections with no message landing after the failure are unmeasured.
FailoverReport MeasureMessageFailover(
    const std::vector<MessageTimes>& messages, double failure_ns,
    const std::function<bool(uint32_t src, uint32_t dst)>& affected);

}  // namespace lq::net
