// SPDX-License-Identifier: Apache-2.0
// Broken variants of a router's PFC and ECN marking that the suite must
// catch: a router that never takes in the PFC frames its neighbours send,
// and one built with scenario keys that put its thresholds where the spec
// does not. Like the other mutants (mutants.h) they test the suite's power
// (CTest conformance.mutant_*).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/conformance/mutants.h"
#include "systemc/conformance/router_bench.h"

namespace lq::conformance {

std::vector<MutantInfo> RouterMutants();
// The mutant named `name`, or nothing if RouterMutants() does not list it.
std::optional<RouterMutant> MakeRouterMutant(const std::string& name);

}  // namespace lq::conformance
