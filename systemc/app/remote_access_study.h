// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `workload.name: remote_access`: the full stack on a
// torus of boards (issue 8's figure). Every card boots the firmware
// (board.firmware, by default the bring-up image compiled into lqemu),
// trains its links through the link controllers (TL models, or the
// Verilated RTL on the ports link.rtl_ports names) and PHYs and programs
// its router; node 0 then loads from and stores to a neighbour and the
// farthest card, and takes a page fault at each, while a path probe splits
// every access's latency into layers (cluster::MeasureRemoteAccess).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

// The board.* keys.
std::vector<ParamSpec> RemoteAccessParamSpecs();

// The keys the study reads: board.*, the links', router.latency_ns and
// link.rtl_ports.
void UseRemoteAccessKeys(const ParamSet& params, KeyUsage& usage);

// Checks what the key ranges cannot: a torus with dor routing, routers of
// whole nanoseconds from 4 up, a firmware image; returns why not.
std::optional<std::string> ValidateRemoteAccessStudy(const ParamSet& params);

// Whether `--vcd vcd_path` can write a waveform for every port of the
// run's link.rtl_ports (boards, or the stack's cards), and there is one;
// returns why not.
std::optional<std::string> CheckRunWaveforms(const ParamSet& params,
                                             const std::string& vcd_path);

// Runs the study; returns the exit status (0, or 1 if a board's firmware
// did not come up or an access has no figure).
int RunRemoteAccessStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
