// `lqemu run` and `lqemu list`: from options to a finished simulation, its
// report and its exit status.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
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

// Every scenario key: the fabric's and the network study's.
std::vector<ParamSpec> ScenarioParamSpecs();

// The scenario's parameters: the embedded default, then the file, the
// --set overrides and --seed; checked. The error names file, line and fix.
Result<ParamSet> LoadScenarioParams(const RunOptions& options);

// Runs the scenario; returns the process exit status (0, 1 or 2).
int RunScenario(const RunOptions& options);

// Runs one experiment from its loaded, checked parameters; returns the
// exit status. `options.scenario_file` only names the run in its report.
int RunLoaded(const ParamSet& params, const RunOptions& options);

// Prints the built-in scenarios and every declared scenario key.
void PrintList(std::FILE* out);

// Prints every declared scenario key as Markdown, one table per key group:
// the scenario reference (docs/scenario-reference.md is its output).
void PrintScenarioReference(std::FILE* out);

}  // namespace lq::app
