// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `run.study: phases`, as the embedded default scenario
// has it: a sequence of experiments (`run.phases`):
// the seed's supernode, a 4x8x8 torus of 256 cards on pcie6 links, put
// through each experiment of DESIGN.md section 9 in turn, each a phase in a
// child process of its own (decision 0020), then a headline table that sets
// every seed claim beside the figure the run measured.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// run.phases.
std::vector<ParamSpec> SupernodeParamSpecs();

// The keys the selected phases read, each phase's scenario being the run's
// with the phase's own settings (the Study registry's).
KeyUsage SupernodeKeys(const ParamSet& params);

// Each phase run.phases selects (but one the build cannot run), with its
// scenario: the run's, with the phase's own settings given where the user
// gave none; the phase's study and workload always.
std::vector<std::pair<std::string, ParamSet>> PhaseScenarios(
    const ParamSet& params);

// run.phases names phases, the options' phases are selected, and every
// selected phase's study accepts its scenario.
std::optional<std::string> CheckSupernodeRun(const ParamSet& params,
                                             const RunOptions& options);

// Every phase group's name, in the order the run takes them.
std::vector<std::string> SupernodePhaseGroups();
// Every phase's own name, as the stats name it (incast_lqcc), in order;
// run.phases takes these as well as the groups.
std::vector<std::string> SupernodePhaseNames();

// Runs the phases `params` (run.phases) selects, checked by
// CheckSupernodeRun; returns the exit status: 1 if a phase failed or lost
// data, else 0.
int RunSupernode(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
