// SPDX-License-Identifier: Apache-2.0
// The studies `lqemu run` makes, one registry entry each, chosen by
// run.study as a topology is by topology.name: each names the workloads it
// runs (workload.name), says which keys it reads, checks what the keys'
// ranges cannot, and runs (DESIGN.md section 2, decision 0033).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"

namespace lq::app {

struct Study {
  std::string name;     // run.study
  std::string summary;  // one line for `lqemu list`
  // The workload.name values it runs.
  std::vector<std::string> workloads;
  // The keys it reads with `params`' settings, and why it leaves others.
  std::function<KeyUsage(const ParamSet&)> keys;
  // What the keys' ranges cannot check, the options (--pcap, --trace,
  // --vcd) included; why the run cannot be made.
  std::function<std::optional<std::string>(const ParamSet&, const RunOptions&)>
      check;
  // Runs it; the exit status (exit_status.h).
  std::function<int(const ParamSet&, const RunOptions&)> run;
  // Which layers it composes with `params`' settings, at which fidelity
  // ("transport engines, routers with PFC and ECN, ideal links").
  std::function<std::string(const ParamSet&)> layers;
  // Whether it runs over MPI ranks (mpirun; decision 0050).
  bool over_ranks = false;
};

// Every study, in the order `lqemu list` prints them.
const std::vector<Study>& StudyCatalogue();

// The study run.study names.
const Study& ChosenStudy(const ParamSet& params);

// run.study and workload.name.
std::vector<ParamSpec> StudyParamSpecs();

// The keys every study reads: run.study, workload.name, sim.seed, and the
// topology and routing function the scenario names.
void UseCommonKeys(const ParamSet& params, KeyUsage& usage);

// What the run `params` describe reads: the common keys and its study's.
KeyUsage KeysRead(const ParamSet& params);

// "run.study S with workload.name W": the run `params` describe.
std::string DescribeRun(const ParamSet& params);

// A key `params` was given (by a scenario file or --set) that a run leaves
// unread, with the line that says why and what would read it.
struct UnreadKey {
  std::string key;
  std::string message;
};

// Every given key that `usage`, the keys `run` reads, leaves unread.
std::vector<UnreadKey> UnreadGivenKeys(const ParamSet& params,
                                       const KeyUsage& usage,
                                       const std::string& run);

}  // namespace lq::app
