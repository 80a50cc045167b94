// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with a collective (`workload.name: alltoall`,
// `ring_allreduce` or `hierarchical_allreduce`) on `run.study: stack`:
// the collective's schedule as RDMA WRITEs with immediate data through the
// transport engines of the stack's cards (stack_assembly.h), over ideal or
// tlm links (transport::CollectiveWorkload). It reports the completion
// time, the algorithm bandwidth, the links' and the transport's counters,
// and checks every node's buffer at the end; exits 1 if a message was
// lost or a buffer is wrong.
#pragma once

#include <optional>
#include <string>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The keys a collective on the stack reads: the stack's and collective.*.
void UseStackCollectiveKeys(const ParamSet& params, KeyUsage& usage);

// Why the collective cannot be built on the stack, if it cannot.
std::optional<std::string> CheckStackCollective(const ParamSet& params,
                                                const RunOptions& options);

// Runs it and ends the process with its exit status once every output
// is written, skipping the model's teardown (process_exit.h); returns the
// status only of a run that could not start.
int RunStackCollective(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
