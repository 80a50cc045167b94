// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `workload.name: traffic` on `run.study: stack`:
// synthetic traffic (any traffic.pattern) as RoCEv2 SENDs through the
// transport engines of the stack's cards (stack_assembly.h), over ideal or
// tlm links. Each card sends traffic.messages_per_node messages of
// traffic.message_bytes, destinations drawn from the pattern and gaps
// exponential at traffic.load of one link's payload rate, over one RC
// connection per pair that exchanges messages. It reports one-way latency
// (SEND posted to receive completed), hops, bandwidth, the links' and the
// transport's counters and the integrity of every message; --pcap
// captures the frames node 0 sends and the frames sent to it. Exits 1 if
// any message was lost, duplicated, reordered or corrupted.
#pragma once

#include <optional>
#include <string>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The keys the traffic reads: the stack's, traffic.* and the pattern's.
void UseTrafficKeys(const ParamSet& params, KeyUsage& usage);

// Checks what the key ranges cannot; returns why the run cannot be built.
std::optional<std::string> ValidateTrafficStudy(const ParamSet& params);

// Runs it and ends the process with its exit status once every output
// is written, skipping the model's teardown (process_exit.h); returns the
// status only of a run that could not start.
int RunTrafficStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
