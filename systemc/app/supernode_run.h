// The embedded default scenario's sequence of experiments (`run.phases`):
// the seed's supernode, a 4x8x8 torus of 256 cards on pcie6 links, put
// through each experiment of DESIGN.md section 9 in turn, each a phase in a
// child process of its own (decision 0020), then a headline table that sets
// every seed claim beside the figure the run measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The run.* keys.
std::vector<ParamSpec> SupernodeParamSpecs();

// True if the scenario asks for phases rather than one experiment.
bool IsSupernodeRun(const ParamSet& params);

// Every phase group's name, in the order the run takes them.
std::vector<std::string> SupernodePhaseGroups();

// Runs the phases `params` (run.phases) selects; returns the exit status:
// 2 if a phase's scenario is bad input (before anything runs), 1 if a phase
// failed or lost data, else 0.
int RunSupernode(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
