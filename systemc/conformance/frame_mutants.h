// SPDX-License-Identifier: Apache-2.0
// Broken variants of a transport engine or a logical unit that the suite
// must catch: each is a pair of frame edits at the DUT's transport port
// (FrameWire), so the same mutant applies to any DUT of its layer. Like the
// link mutants (mutants.h) they test the suite's power (CTest
// conformance.mutant_*).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/conformance/mutants.h"
#include "systemc/conformance/transport_bench.h"

namespace lq::conformance {

std::vector<MutantInfo> FrameMutants();
// The mutant named `name`, or nothing if FrameMutants() does not list it.
std::optional<FrameMutant> MakeFrameMutant(const std::string& name);
// The same, but nothing unless it breaks `layer` ("trn" or "log"): a
// logical unit's mutant leaves a transport engine as built, and the other
// way round.
std::optional<FrameMutant> MakeFrameMutant(const std::string& name,
                                           const std::string& layer);

}  // namespace lq::conformance
