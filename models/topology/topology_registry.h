// SPDX-License-Identifier: Apache-2.0
// Topologies by name (NET-6): "torus", "fattree", "fullmesh", each built from
// a parameter map, and their catalogue for `lqemu list`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/params.h"
#include "models/topology/topology.h"

namespace lq::topo {

// Every registered topology with its parameters, meanings and defaults.
const std::vector<ComponentInfo>& TopologyCatalogue();

// Builds the topology `name` from `params`; unknown names, unknown keys and
// bad values are errors that say what was expected.
Result<std::shared_ptr<const Topology>> CreateTopology(const std::string& name,
                                                       const ParamMap& params);

}  // namespace lq::topo
