// `lqemu run` with `run.study: stack`: a workload on the layers composed —
// link controllers and PHYs at link.fidelity, routers, and the transport
// engines, logical units and boards the workload needs (decision 0033).
// Today each workload has its own assembly: traffic the interim fabric of
// tlm links (decision 0002); incast the transport engines over ideal links
// (decision 0013) or on cards without boards over tlm links; remote_access
// the boards (issue 8).
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

// Runs the workload; the exit status (exit_status.h).
int RunStackStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
