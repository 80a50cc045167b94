// SPDX-License-Identifier: Apache-2.0
// `lqemu run` and `lqemu list`: scenario in, simulation, report and outputs.
#include "systemc/app/run_command.h"

#include <algorithm>
#include <set>

#include "models/phy/link_profile.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/app/board_traffic.h"
#include "systemc/app/component_catalogue.h"
#include "systemc/app/congestion_params.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/network_study.h"
#include "systemc/app/remote_access_study.h"
#include "systemc/app/rtl_ports.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/scenario.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/study.h"
#include "systemc/app/supernode_run.h"
#include "systemc/app/transport_study.h"
#include "systemc/parallel/rank_world.h"

namespace lq::app {

std::vector<ParamSpec> ScenarioParamSpecs() {
  std::vector<ParamSpec> specs = StudyParamSpecs();
  for (auto* group :
       {ScenarioRootParamSpecs, NetworkStudyParamSpecs,
        TransportStudyParamSpecs, CongestionParamSpecs, RemoteAccessParamSpecs,
        RtlPortParamSpecs, BoardTrafficParamSpecs, SupernodeParamSpecs,
        TraceParamSpecs}) {
    for (auto& spec : group()) {
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

Result<ParamSet> ReadScenarioParams(const RunOptions& options) {
  ParamSet params(ScenarioParamSpecs());
  if (auto error = ApplyYaml(kDefaultScenarioYaml, "default", params)) {
    return Fail("embedded default scenario: " + *error);
  }
  if (!options.scenario_file.empty()) {
    // A file describes one experiment on the stack unless it says more.
    if (auto error = params.Set("run.study", "stack")) {
      return Fail(*error);
    }
  }
  // The embedded default's values are defaults; what the user gives is not.
  params.ForgetGiven();
  if (!options.scenario_file.empty()) {
    const auto text = ReadFile(options.scenario_file);
    if (!text) {
      return text.error();
    }
    if (auto error = ApplyYaml(*text, options.scenario_file, params)) {
      return Fail(*error);
    }
  }
  if (auto error = ApplyOverrides(options.overrides, params)) {
    return Fail(*error);
  }
  if (options.seed) {
    if (auto error = params.Set("sim.seed", std::to_string(*options.seed))) {
      return Fail("--seed: " + *error);
    }
  }
  return params;
}

std::optional<std::string> CheckScenario(const ParamSet& params,
                                         const RunOptions& options) {
  const Study& study = ChosenStudy(params);
  if (parallel::RankWorld::Get().parallel() && !study.over_ranks) {
    return "run.study " + study.name +
           " runs in one process only (so far; decision 0050): run it "
           "without mpirun";
  }
  const std::string workload = params.Text("workload.name");
  if (!study.workloads.empty() &&
      std::find(study.workloads.begin(), study.workloads.end(), workload) ==
          study.workloads.end()) {
    std::string runs;
    for (const auto& name : study.workloads) {
      runs += (runs.empty() ? "" : ", ") + name;
    }
    return "workload.name: run.study " + study.name + " does not run " +
           workload + " (it runs " + runs + ")";
  }
  if (auto unread = CheckGivenKeys(params, DescribeRun(params), options,
                                   KeysRead, "lqemu run")) {
    return unread;
  }
  if (!options.vcd_file.empty()) {
    if (auto error = CheckRunWaveforms(params, options.vcd_file)) {
      return "--vcd: " + *error;
    }
  }
  if (auto error = study.check(params, options)) {
    const std::string source =
        options.scenario_file.empty() ? "scenario" : options.scenario_file;
    return source + ": " + *error;
  }
  return std::nullopt;
}

std::optional<std::string> CheckGivenKeys(
    const ParamSet& params, const std::string& run, const RunOptions& options,
    const std::function<KeyUsage(const ParamSet&)>& keys_of,
    const char* command) {
  std::set<std::string> overridden;
  for (const auto& text : options.overrides) {
    overridden.insert(text.substr(0, text.find('=')));
  }
  std::optional<KeyUsage> file_alone;
  for (const UnreadKey& unread :
       UnreadGivenKeys(params, keys_of(params), run)) {
    if (overridden.count(unread.key) == 0 && !options.scenario_file.empty()) {
      if (!file_alone) {
        RunOptions file = options;
        file.overrides.clear();
        file.seed.reset();
        const auto scenario = ReadScenarioParams(file);
        file_alone = scenario ? keys_of(*scenario) : KeyUsage();
      }
      if (file_alone->Uses(unread.key)) {
        std::fprintf(stderr, "%s: note: %s (from %s, left unread by --set)\n",
                     command, unread.message.c_str(),
                     options.scenario_file.c_str());
        continue;
      }
    }
    return unread.message;
  }
  return std::nullopt;
}

Result<ParamSet> LoadScenarioParams(const RunOptions& options) {
  auto params = ReadScenarioParams(options);
  if (!params) {
    return params;
  }
  if (auto error = CheckScenario(*params, options)) {
    return Fail(*error);
  }
  return params;
}

int RunScenario(const RunOptions& options) {
  const auto loaded = LoadScenarioParams(options);
  if (!loaded) {
    std::fprintf(stderr, "lqemu run: %s\n", loaded.error().reason.c_str());
    return kExitBadInput;
  }
  return RunLoaded(*loaded, options);
}

int RunLoaded(const ParamSet& params, const RunOptions& options) {
  return ChosenStudy(params).run(params, options);
}

namespace {

// The values a key takes: its choices, or its numeric range.
std::string RangeText(const ParamSpec& spec) {
  std::string range;
  if (spec.type == ParamType::kChoice) {
    for (const auto& choice : spec.choices) {
      range += (range.empty() ? "" : "|") + choice;
    }
  } else if (spec.type != ParamType::kText) {
    char text[64];
    std::snprintf(text, sizeof(text),
                  spec.type == ParamType::kInteger ? "%.0f..%.0f" : "%g..%g",
                  spec.min, spec.max);
    range = text;
    for (const auto& word : spec.choices) {
      range += "|" + word;
    }
  }
  return range;
}

// Markdown table cells must not hold a bare '|'.
std::string Cell(const std::string& text) {
  std::string cell;
  for (const char c : text) {
    cell += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  return cell;
}

}  // namespace

void PrintScenarioReference(std::FILE* out) {
  std::fprintf(out,
               "# Scenario reference\n\n"
               "Every key a scenario file (YAML nesting) or `--set KEY=VALUE` "
               "takes, with its default, unit and the values it accepts, "
               "then every component's ports and statistics. Generated by "
               "`lqemu list --markdown` from the components' own "
               "declarations; CTest checks that this file is current.\n");
  // One table per prefix, in the order the prefixes first appear.
  std::vector<std::pair<std::string, std::vector<ParamSpec>>> groups;
  for (auto& spec : ScenarioParamSpecs()) {
    const std::string prefix = spec.key.substr(0, spec.key.find('.'));
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& g) { return g.first == prefix; });
    if (group == groups.end()) {
      group = groups.insert(groups.end(), {prefix, {}});
    }
    group->second.push_back(std::move(spec));
  }
  for (const auto& [prefix, specs] : groups) {
    std::fprintf(out,
                 "\n## `%s.*`\n\n| key | default | unit | values | "
                 "meaning |\n|---|---|---|---|---|\n",
                 prefix.c_str());
    for (const auto& spec : specs) {
      const std::string value = spec.default_value.empty()
                                    ? "(empty)"
                                    : "`" + spec.default_value + "`";
      std::fprintf(out, "| `%s` | %s | %s | %s | %s |\n", spec.key.c_str(),
                   value.c_str(), spec.unit.c_str(),
                   Cell(RangeText(spec)).c_str(), Cell(spec.meaning).c_str());
    }
  }
  PrintComponentsMarkdown(out);
}

void PrintList(std::FILE* out) {
  std::fprintf(out,
               "The built-in scenario (lqemu run without a file):\n"
               "  default  %s\n",
               "the seed's supernode, a 256-card 4x8x8 3D torus on pcie6 "
               "links, through one phase per seed claim, then a headline "
               "table");
  std::fprintf(out, "  phase groups (run.phases):");
  for (const auto& group : SupernodePhaseGroups()) {
    std::fprintf(out, " %s", group.c_str());
  }
  std::fprintf(out, "\n  phases in them (run.phases too):");
  for (const auto& phase : SupernodePhaseNames()) {
    std::fprintf(out, " %s", phase.c_str());
  }
  std::fprintf(out,
               "\n  A scenario file runs instead with `lqemu run FILE`; the "
               "source tree's testbench/scenarios/ holds examples.");
  std::fprintf(out,
               "\n\nStudies (run.study) and the workloads each runs "
               "(workload.name):\n");
  for (const Study& study : StudyCatalogue()) {
    std::fprintf(out, "  %-8s %s\n", study.name.c_str(), study.summary.c_str());
    if (!study.workloads.empty()) {
      std::fprintf(out, "  %-8s workloads:", "");
      for (const auto& workload : study.workloads) {
        std::fprintf(out, " %s", workload.c_str());
      }
      std::fprintf(out, "\n");
    }
  }
  std::fprintf(out, "\n");
  std::fprintf(out, "Scenario keys (YAML nesting or --set KEY=VALUE):\n");
  for (const auto& spec : ScenarioParamSpecs()) {
    const std::string range = RangeText(spec);
    std::fprintf(out, "  %-28s %-10s %-6s %s%s%s\n", spec.key.c_str(),
                 spec.default_value.c_str(), spec.unit.c_str(),
                 spec.meaning.c_str(), range.empty() ? "" : "; ",
                 range.c_str());
  }
  std::fprintf(out, "\nLink profiles:\n");
  for (const auto& name : phy::LinkProfileNames()) {
    const auto profile = phy::FindLinkProfile(name).value();
    std::fprintf(out, "  %-8s %s (%.1f Gb/s payload at x%u)\n", profile.name,
                 profile.description,
                 phy::PayloadGoodputGbps(profile, profile.max_lanes),
                 profile.max_lanes);
  }
  std::fprintf(out, "\nTopologies:\n");
  for (const auto& info : topo::TopologyCatalogue()) {
    std::fprintf(out, "  %-8s %s\n", info.name.c_str(), info.summary.c_str());
  }
  std::fprintf(out, "\nRouting functions:\n");
  for (const auto& info : topo::RoutingCatalogue()) {
    std::fprintf(out, "  %-8s %s\n", info.name.c_str(), info.summary.c_str());
  }
  std::fprintf(out, "\n");
  PrintComponents(out);
}

}  // namespace lq::app
