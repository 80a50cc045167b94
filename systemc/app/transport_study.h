// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `workload.name: incast`: the transport layer's
// congestion study (issue 7, decision 0013) on the stack's cards
// (stack_assembly.h), over ideal or tlm links: an N-to-1 incast (with
// background pairs if asked) under one congestion control. It reports PFC
// pauses, flow completion times and the integrity of every write, can
// capture the transport's packets (--pcap), and exits 1 if any data was
// lost or corrupted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The transport.*, pfc.* and ecn.* keys.
std::vector<ParamSpec> TransportStudyParamSpecs();

// The keys the incast reads: transport.*, the lossless routers' and the
// congestion control's.
void UseIncastKeys(const ParamSet& params, KeyUsage& usage);

// Checks what the key ranges cannot: XON below XOFF, a topology and
// routing the study can build, TRN-8.9's headroom limit; returns why not.
std::optional<std::string> ValidateTransportStudy(const ParamSet& params);

// Runs it and ends the process with its exit status (0, or 1 on lost,
// unfinished or corrupted writes) once every output is written, skipping
// the model's teardown (process_exit.h); returns the status only of a run
// that could not start.
int RunTransportStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
