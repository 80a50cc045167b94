// SPDX-License-Identifier: Apache-2.0
// `lqemu run` and `lqemu list`: from options to a finished simulation, its
// report and its exit status.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "systemc/app/key_usage.h"
#include "systemc/common/param.h"

namespace lq::app {

struct RunOptions {
  std::string scenario_file;           // Empty: the embedded default.
  std::vector<std::string> overrides;  // "key=value" from --set.
  std::optional<uint64_t> seed;
  std::string stats_file;
  std::string pcap_file;
  std::string trace_file;
  std::string vcd_file;
  bool quiet = false;
  bool progress = false;  // A progress line on the terminal (stderr).
};

// Every scenario key: the schema's root and every study's.
std::vector<ParamSpec> ScenarioParamSpecs();

// The scenario's parameters: the embedded default, then the file, the
// --set overrides and --seed, each value checked against its key; what the
// file and the overrides set are the given keys (ParamSet::given). The
// error names file, line and fix.
Result<ParamSet> ReadScenarioParams(const RunOptions& options);

// Whether the study run.study names can run `params` with `options`: it
// runs workload.name, reads every given key, and its check passes. The
// error is one line naming the key or option and the fix.
std::optional<std::string> CheckScenario(const ParamSet& params,
                                         const RunOptions& options);

// Refuses a key the scenario gave that the run (named `run`) leaves
// unread: `keys_of` says what a scenario's run reads. A key the scenario
// file gave that the file alone had read (`keys_of` on the file without
// the overrides), and that an override left unread, is only noted on
// stderr after `command` ("lqemu run"): a file's key cannot be taken back
// from the command line.
std::optional<std::string> CheckGivenKeys(
    const ParamSet& params, const std::string& run, const RunOptions& options,
    const std::function<KeyUsage(const ParamSet&)>& keys_of,
    const char* command);

// ReadScenarioParams, then CheckScenario.
Result<ParamSet> LoadScenarioParams(const RunOptions& options);

// Runs the scenario; returns the process exit status (0, 1 or 2).
int RunScenario(const RunOptions& options);

// Runs the study of loaded, checked parameters; returns the exit status.
// `options.scenario_file` only names the run in its report.
int RunLoaded(const ParamSet& params, const RunOptions& options);

// Prints the built-in scenarios and every declared scenario key.
void PrintList(std::FILE* out);

// Prints every declared scenario key as Markdown, one table per key group:
// the scenario reference (docs/scenario-reference.md is its output).
void PrintScenarioReference(std::FILE* out);

}  // namespace lq::app
