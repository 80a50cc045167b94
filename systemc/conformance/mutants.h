// SPDX-License-Identifier: Apache-2.0
// Broken variants of a DUT that the suite must catch: each is a PortTap
// placed between the DUT and the bench that breaks one rule at the DUT's
// port, so the same mutant applies to any DUT. They test the suite's
// power (CTest conformance.mutant_*); a mutant that passes every case
// shows a hole in the suite.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/phy/link_profile.h"
#include "systemc/conformance/port_tap.h"

namespace lq::conformance {

struct MutantInfo {
  std::string name;
  std::string layer;   // The layer it breaks: "dll", "net", "trn" or "log".
  std::string breaks;  // What the broken DUT does wrong.
};

// Every mutant: the link mutants here and the transport mutants of
// frame_mutants.h.
std::vector<MutantInfo> Mutants();
// The link mutant `name`; nullptr for a transport mutant. Throws
// std::invalid_argument for a name Mutants() does not list.
std::unique_ptr<PortTap> MakeMutant(const std::string& name,
                                    const phy::LinkProfile& profile);

}  // namespace lq::conformance
