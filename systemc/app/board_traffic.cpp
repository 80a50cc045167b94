// SPDX-License-Identifier: Apache-2.0
// board.traffic_load: the keys, the cards' traffic sources, the summary.
#include "systemc/app/board_traffic.h"

#include <cstdio>
#include <limits>

#include "systemc/app/scenario_schema.h"
#include "systemc/network/traffic_source.h"

namespace lq::app {

std::vector<ParamSpec> BoardTrafficParamSpecs() {
  return {
      {"board.traffic_load",
       "lqemu board --scenario: synthetic packets from each card's router "
       "local port, in place of its transport engine, at this fraction of "
       "one link's payload rate (traffic.pattern destinations, "
       "traffic.message_bytes each); 0: none",
       "0",
       "",
       ParamType::kReal,
       0,
       1,
       {}},
      {"board.traffic_start_us",
       "lqemu board: when the synthetic packets start (before the firmware "
       "has switched routes in, routers drop them: no route)",
       "0",
       "us",
       ParamType::kReal,
       0,
       1e6,
       {}},
  };
}

void UseBoardTrafficKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use("board.traffic_load");
  const bool traffic = params.Real("board.traffic_load") > 0;
  const std::string why =
      "board.traffic_load is 0: the cards carry no "
      "synthetic traffic";
  usage.UseIf(traffic, {"board.traffic_start_us", "traffic.message_bytes"},
              why);
  if (traffic) {
    UseTrafficPatternKeys(params, usage);
  } else {
    usage.Skip(params.KeysUnder("traffic."), why);
  }
}

Result<bool> PlaceBoardTraffic(const ParamSet& params,
                               const phy::LinkProfile& profile,
                               uint32_t endpoints,
                               cluster::ClusterConfig& config) {
  const double load = params.Real("board.traffic_load");
  if (load <= 0) {
    return false;
  }
  const auto bytes = params.Integer("traffic.message_bytes");
  if (bytes > std::numeric_limits<uint16_t>::max()) {
    return Fail(
        "traffic.message_bytes: board traffic sends packets of at "
        "most 65535 bytes");
  }
  auto pattern = ScenarioTrafficPattern(params, endpoints);
  if (!pattern) {
    return pattern.error();
  }
  net::TrafficConfig traffic;
  traffic.payload_bytes = static_cast<uint16_t>(bytes);
  traffic.clock_ns = 1.0;
  // Bytes per ns of one link's payload rate, in packets per 1 ns cycle.
  traffic.packets_per_cycle =
      load * phy::PayloadGoodputGbps(profile, profile.max_lanes) / 8.0 /
      static_cast<double>(bytes);
  traffic.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  traffic.start =
      sc_core::sc_time(params.Real("board.traffic_start_us"), sc_core::SC_US);
  config.network.transport.reset();
  config.network.traffic = traffic;
  config.network.pattern = std::move(pattern.value());
  return true;
}

std::string DescribeBoardTraffic(const std::vector<BoardEnd>& ends) {
  uint64_t sent = 0, delivered = 0, dropped = 0, no_route = 0;
  double latency_ns = 0;
  for (const BoardEnd& end : ends) {
    sent += end.sent;
    delivered += end.delivered;
    latency_ns += end.latency_ns;
    dropped += end.dropped;
    no_route += end.no_route;
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "traffic: %llu packets sent, %llu delivered (mean %.1f ns), "
                "%llu dropped by routers (%llu without a route)",
                static_cast<unsigned long long>(sent),
                static_cast<unsigned long long>(delivered),
                delivered > 0 ? latency_ns / static_cast<double>(delivered) : 0,
                static_cast<unsigned long long>(dropped),
                static_cast<unsigned long long>(no_route));
  return text;
}

}  // namespace lq::app
