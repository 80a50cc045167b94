// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `run.study: stack`: a workload on the layers composed —
// link controllers and PHYs at link.fidelity, routers, and the transport
// engines, logical units and boards the workload needs (decision 0033).
// traffic and incast run on the cards of stack_assembly.h — routers with
// PFC and ECN and a transport engine each, over ideal or tlm links
// (decision 0034); remote_access on boards running firmware (issue 8).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The workloads it runs.
std::vector<std::string> StackWorkloadNames();

// The keys it reads with these settings (the Study registry's).
KeyUsage StackStudyKeys(const ParamSet& params);

// What the key ranges cannot check, and the options the workload refuses.
std::optional<std::string> CheckStackStudy(const ParamSet& params,
                                           const RunOptions& options);

// Which layers the run composes, at which fidelity.
std::string StackLayers(const ParamSet& params);

// Runs the workload; the exit status (exit_status.h).
int RunStackStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
