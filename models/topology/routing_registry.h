// SPDX-License-Identifier: Apache-2.0
// Routing functions by name (NET-4): "dor", "updown", "fullmesh", "table",
// each built for a topology from a parameter map, and their catalogue.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/params.h"
#include "models/topology/routing.h"

namespace lq::topo {

// Every registered routing function with its parameters and defaults.
const std::vector<ComponentInfo>& RoutingCatalogue();

// Builds routing function `name` for `topology`. Fails on an unknown name,
// a bad parameter, or a topology the function does not apply to.
Result<std::unique_ptr<RoutingFunction>> CreateRouting(
    const std::string& name, std::shared_ptr<const Topology> topology,
    const ParamMap& params);

}  // namespace lq::topo
