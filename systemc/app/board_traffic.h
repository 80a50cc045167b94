// SPDX-License-Identifier: Apache-2.0
// board.traffic_load: synthetic packets on a run of boards (`lqemu board
// --scenario`), so that the links' counters move and ERR_INJECT and BER
// events act on real flits without firmware driving a transport engine.
// Each card's router gets a traffic source at its local port, in place of
// its transport engine; the firmware still owns the routers (the packets
// find routes once it has switched them in) and the link controllers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/phy/link_profile.h"
#include "systemc/app/board_ends.h"
#include "systemc/app/key_usage.h"
#include "systemc/cluster/cluster.h"
#include "systemc/common/param.h"

namespace lq::app {

// board.traffic_load and board.traffic_start_us.
std::vector<ParamSpec> BoardTrafficParamSpecs();

// Those keys, and with traffic the traffic.* keys it reads.
void UseBoardTrafficKeys(const ParamSet& params, KeyUsage& usage);

// Puts the scenario's traffic, if board.traffic_load asks for any, on
// `config`'s cards of `endpoints` endpoints, whose links are `profile`'s;
// whether it did, or why the keys describe no traffic.
Result<bool> PlaceBoardTraffic(const ParamSet& params,
                               const phy::LinkProfile& profile,
                               uint32_t endpoints,
                               cluster::ClusterConfig& config);

// "traffic: 1200 packets sent, 1180 delivered (mean 412.5 ns), 20
// dropped by routers (18 without a route)".
std::string DescribeBoardTraffic(const std::vector<BoardEnd>& ends);

}  // namespace lq::app
