// SPDX-License-Identifier: Apache-2.0
// A network study's collective: keys, schedule, report.
#include "systemc/app/network_collective.h"

#include <algorithm>

#include "models/topology/torus.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

// Payload bytes per node per ns = GB/s.
double AlgorithmGBps(const net::CollectiveSchedule& schedule,
                     const CollectiveOutcome& outcome) {
  return outcome.finished_ns > 0
             ? static_cast<double>(schedule.buffer_bytes) / outcome.finished_ns
             : 0;
}

// The torus's sizes, X first; none for another topology.
std::vector<uint32_t> TorusSizes(const topo::Topology& topology) {
  const auto* torus = dynamic_cast<const topo::Torus*>(&topology);
  return torus != nullptr ? torus->sizes() : std::vector<uint32_t>();
}

}  // namespace

std::vector<ParamSpec> NetworkCollectiveParamSpecs() {
  return {
      {"collective.bytes",
       "the buffer each node reduces (AllReduces) or the block per pair "
       "(alltoall); 0: the collective's default",
       "0",
       "bytes",
       ParamType::kInteger,
       0,
       1e12,
       {}},
      {"collective.order",
       "ring_allreduce: ring by node ID (ids) or one hop apart on the "
       "torus (snake)",
       "ids",
       "",
       ParamType::kChoice,
       0,
       0,
       {"ids", "snake"}},
  };
}

bool IsCollective(const std::string& name) {
  for (const auto& info : net::CollectiveCatalogue()) {
    if (info.name == name) {
      return true;
    }
  }
  return false;
}

void UseCollectiveKeys(const ParamSet& params, KeyUsage& usage) {
  const std::string name = params.Text("workload.name");
  usage.Use("collective.bytes");
  usage.UseIf(name == "ring_allreduce", {"collective.order"},
              "a key of ring_allreduce, and workload.name is " + name);
}

Result<std::optional<net::CollectiveSchedule>> ScenarioCollective(
    const ParamSet& params, const topo::Topology& topology) {
  const std::string name = params.Text("workload.name");
  if (!IsCollective(name)) {
    return std::optional<net::CollectiveSchedule>();
  }
  if (params.Integer("sim.cycles") != 0) {
    return Fail(
        "sim.cycles: a collective runs to completion; leave sim.cycles at "
        "0");
  }
  topo::ParamMap values;
  if (params.Integer("collective.bytes") != 0) {
    values["bytes"] = params.Text("collective.bytes");
  }
  if (name == "ring_allreduce") {
    values["order"] = params.Text("collective.order");
  }
  auto schedule = net::CreateCollective(name, topology.EndpointCount(),
                                        TorusSizes(topology), values);
  if (!schedule) {
    return Fail("collective: " + schedule.error().reason);
  }
  return std::optional<net::CollectiveSchedule>(std::move(schedule).value());
}

uint64_t PayloadBytes(const net::CollectiveSchedule& schedule) {
  uint64_t bytes = 0;
  for (const net::CollectiveMessage& m : schedule.messages) {
    bytes += m.bytes;
  }
  return bytes;
}

net::CollectiveBounds ScheduleBounds(const net::CollectiveSchedule& schedule,
                                     const topo::Topology& topology,
                                     double bytes_per_ns) {
  if (schedule.name != "alltoall") {
    return net::AllReduceBounds(schedule.nodes, schedule.buffer_bytes,
                                bytes_per_ns);
  }
  return net::AllToAllBounds(schedule.nodes, TorusSizes(topology),
                             schedule.buffer_bytes / schedule.nodes,
                             bytes_per_ns, bytes_per_ns);
}

namespace {

const char* BoundBy(const net::CollectiveBounds& bounds) {
  return bounds.injection_ns >= bounds.bisection_ns ? "injection" : "bisection";
}

}  // namespace

void PrintBounds(const net::CollectiveBounds& bounds, uint64_t payload_bytes,
                 double done_ns, std::FILE* out) {
  std::fprintf(out, "  bounds     the cards' injection %.2f us",
               bounds.injection_ns / 1e3);
  if (bounds.bisection_ns > 0) {
    std::fprintf(out, ", the bisection %.2f us", bounds.bisection_ns / 1e3);
  }
  std::fprintf(out, ": at best %.1f GB/s aggregate",
               static_cast<double>(payload_bytes) / bounds.bound_ns());
  if (done_ns > 0) {
    std::fprintf(out, "; this run reached %.0f %% of the %s bound",
                 100 * bounds.bound_ns() / done_ns, BoundBy(bounds));
  }
  std::fprintf(out, "\n");
}

nlohmann::ordered_json BoundsJson(const net::CollectiveBounds& bounds,
                                  uint64_t payload_bytes, double done_ns) {
  return {
      {"injection_ns", bounds.injection_ns},
      {"bisection_ns", bounds.bisection_ns},
      {"bound_by", BoundBy(bounds)},
      {"bound_GBps", static_cast<double>(payload_bytes) / bounds.bound_ns()},
      {"fraction", done_ns > 0 ? bounds.bound_ns() / done_ns : 0.0}};
}

CollectiveOutcome GatherCollective(const net::CollectiveDriver& driver) {
  CollectiveOutcome outcome{driver.messages_delivered(),
                            driver.last_delivery().to_seconds() * 1e9};
  Bytes mine;
  parallel::WireWriter out(mine);
  out.U64(outcome.delivered);
  out.F64(outcome.finished_ns);
  parallel::AbsorbOtherRanks(
      parallel::RankWorld::Get(), mine, [&outcome](ByteView share) {
        parallel::WireReader in(share);
        outcome.delivered += in.U64();
        outcome.finished_ns = std::max(outcome.finished_ns, in.F64());
      });
  if (!outcome.Done(driver.schedule())) {
    outcome.finished_ns = 0;
  }
  return outcome;
}

void PrintCollective(const net::CollectiveSchedule& s,
                     const CollectiveOutcome& outcome, std::FILE* out) {
  if (!outcome.Done(s)) {
    std::fprintf(out,
                 "  collective %s: NOT complete, %llu of %zu messages "
                 "delivered\n",
                 s.name.c_str(),
                 static_cast<unsigned long long>(outcome.delivered),
                 s.messages.size());
    return;
  }
  std::fprintf(out,
               "  collective %s of %llu B per node over %u nodes: %zu "
               "messages in %u steps, done in %.2f us (%.2f GB/s per node)\n",
               s.name.c_str(), static_cast<unsigned long long>(s.buffer_bytes),
               s.nodes, s.messages.size(), s.steps, outcome.finished_ns / 1e3,
               AlgorithmGBps(s, outcome));
}

nlohmann::ordered_json CollectiveJson(const net::CollectiveSchedule& s,
                                      const CollectiveOutcome& outcome) {
  return {{"name", s.name},
          {"nodes", s.nodes},
          {"buffer_bytes", s.buffer_bytes},
          {"messages", s.messages.size()},
          {"steps", s.steps},
          {"completed", outcome.Done(s)},
          {"completed_ns", outcome.finished_ns},
          {"algorithm_GBps_per_node", AlgorithmGBps(s, outcome)}};
}

}  // namespace lq::app
