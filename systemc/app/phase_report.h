// SPDX-License-Identifier: Apache-2.0
// The supernode run's per-phase sections: after the headline table, each
// phase that ran says what it composed, its own key figures, with their
// units, and its own integrity, read from the stats it wrote.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "systemc/app/phase_runner.h"
#include "systemc/app/run_report.h"

namespace lq::app {

// One phase of the run: its result, the group run.phases selected it by,
// and the layers it composed, at which fidelity (Study::layers).
struct PhaseSection {
  const PhaseResult* result = nullptr;
  std::string group;
  std::string layers;
};

// The key figures of a phase's stats, each with its unit, in the order
// the stats schema gives them: latency, hops, bandwidth, collective,
// transport, links, faults, remote accesses. Empty for a phase without
// stats.
std::vector<std::string> PhaseFigures(const nlohmann::ordered_json& stats);

// A phase's `integrity` counts from its stats (0 where it has none).
IntegrityCounts IntegrityOf(const nlohmann::ordered_json& stats);

// Prints a "phases" block with one section per phase, in order.
void PrintPhaseSections(const std::vector<PhaseSection>& sections,
                        std::FILE* out);

}  // namespace lq::app
