// SPDX-License-Identifier: Apache-2.0
// Runs a run's experiments ("phases") each in a child process of its own, at
// most `parallel` at a time. A SystemC kernel elaborates one design per
// process, so a sequence of differently built simulations needs one process
// each; each child writes its stats JSON into a private directory, and the
// parent reads it back (decision 0020).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lq::app {

// One phase: a name and the body its child process runs. The body writes
// its stats JSON to the path it is given and returns an exit status
// (0, 1 or 2, as `lqemu run` does). In a run over MPI ranks, a phase
// `over_ranks` runs on every rank, its children joined through their
// parents (RankWorld::RelayTo); another runs in one process, on rank 0.
struct PhaseJob {
  std::string name;
  std::function<int(const std::string& stats_path)> body;
  bool over_ranks = false;
};

struct PhaseResult {
  std::string name;
  int exit_status = 0;  // The child's; 1 as well if it died of a signal.
  std::string failure;  // Why the phase failed, empty if it did not.
  std::optional<nlohmann::ordered_json> stats;  // What the child wrote.
  double wall_s = 0;
  bool Ok() const { return failure.empty(); }
};

// Runs `jobs` in child processes, `parallel` at once (one at a time over
// MPI ranks), and returns their results in `jobs`' order. `on_done` (if
// set) is called in the parent as each phase finishes, with the number
// finished so far. Over ranks, a rank whose child of a phase over ranks
// dies ends the job, naming itself; only rank 0's results are whole.
std::vector<PhaseResult> RunPhases(
    const std::vector<PhaseJob>& jobs, unsigned parallel,
    const std::function<void(const PhaseResult&, size_t done)>& on_done = {});

}  // namespace lq::app
