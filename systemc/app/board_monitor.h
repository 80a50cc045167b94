// SPDX-License-Identifier: Apache-2.0
// GDB's `monitor` commands on a board run (docs/board.md, "Faults"): the
// simulated time, and the faults of models/phy/fault_event.h applied at
// once while the CPU is halted or running.
#pragma once

#include <string>

#include "systemc/cluster/fault_injector.h"

namespace lq::app {

// The answer to `monitor COMMAND`, ending in a newline: `help`, `time`,
// `link cut|repair NODE PORT`, `lane fail|repair NODE PORT LANE`, `ber
// NODE PORT RATE`.
std::string AnswerMonitor(const std::string& command,
                          cluster::FaultInjector& faults);

}  // namespace lq::app
