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

// The report's line and the stats file's `collective` object.
void PrintCollective(const net::CollectiveDriver& driver, std::FILE* out);
nlohmann::ordered_json CollectiveJson(const net::CollectiveDriver& driver);

}  // namespace lq::app
