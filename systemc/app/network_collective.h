// SPDX-License-Identifier: Apache-2.0
// A network study's collective workload (issue 6's traffic): the
// collective.* keys, the schedule they build, and what the run reports of
// its completion.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/network/collective.h"
#include "models/network/collective_bounds.h"
#include "models/topology/topology.h"
#include "systemc/app/key_usage.h"
#include "systemc/common/param.h"
#include "systemc/network/collective_driver.h"

namespace lq::app {

// collective.bytes and collective.order.
std::vector<ParamSpec> NetworkCollectiveParamSpecs();

// Whether workload.name `name` is a collective.
bool IsCollective(const std::string& name);

// The collective.* keys the workload.name collective reads.
void UseCollectiveKeys(const ParamSet& params, KeyUsage& usage);

// The scenario's collective over every endpoint of `topology`, nothing if
// workload.name is not a collective, or why it is bad input.
Result<std::optional<net::CollectiveSchedule>> ScenarioCollective(
    const ParamSet& params, const topo::Topology& topology);

// The payload bytes of every message of `schedule`.
uint64_t PayloadBytes(const net::CollectiveSchedule& schedule);

// The bounds of `schedule` on `topology` (models/network/collective_bounds.h)
// with every local port and link carrying `bytes_per_ns` of payload.
net::CollectiveBounds ScheduleBounds(const net::CollectiveSchedule& schedule,
                                     const topo::Topology& topology,
                                     double bytes_per_ns);
// "  bounds     ..." for a collective of `payload_bytes` done at `done_ns`
// (0: not done), and the stats' `collective.bounds` object.
void PrintBounds(const net::CollectiveBounds& bounds, uint64_t payload_bytes,
                 double done_ns, std::FILE* out);
nlohmann::ordered_json BoundsJson(const net::CollectiveBounds& bounds,
                                  uint64_t payload_bytes, double done_ns);

// What a collective's run delivered, on every rank.
struct CollectiveOutcome {
  uint64_t delivered = 0;  // messages
  double finished_ns = 0;  // when the last landed; 0 if not every one did
  bool Done(const net::CollectiveSchedule& schedule) const {
    return delivered == schedule.messages.size();
  }
};
// Every rank calls it after the run; rank 0 gets every rank's deliveries,
// the others their own.
CollectiveOutcome GatherCollective(const net::CollectiveDriver& driver);

// The report's line and the stats file's `collective` object.
void PrintCollective(const net::CollectiveSchedule& schedule,
                     const CollectiveOutcome& outcome, std::FILE* out);
nlohmann::ordered_json CollectiveJson(const net::CollectiveSchedule& schedule,
                                      const CollectiveOutcome& outcome);

}  // namespace lq::app
