// `lqemu run` and `lqemu list`: scenario in, simulation, report and outputs.
#include "systemc/app/run_command.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <systemc>

#include "models/pcap/pcap_writer.h"
#include "models/phy/link_profile.h"
#include "models/topology/analytics.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/app/component_catalogue.h"
#include "systemc/app/congestion_params.h"
#include "systemc/app/network_study.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/remote_access_study.h"
#include "systemc/app/rtl_ports.h"
#include "systemc/app/run_report.h"
#include "systemc/app/scenario.h"
#include "systemc/app/supernode_run.h"
#include "systemc/app/transport_study.h"
#include "systemc/fabric/fabric.h"

namespace lq::app {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int BadInput(const std::string& message) {
  std::fprintf(stderr, "lqemu run: %s\n", message.c_str());
  return kExitBadInput;
}

}  // namespace

std::vector<ParamSpec> ScenarioParamSpecs() {
  std::vector<ParamSpec> specs = fabric::FabricParamSpecs();
  for (auto& spec : NetworkStudyParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (auto& spec : TransportStudyParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (auto& spec : CongestionParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (auto& spec : RemoteAccessParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (auto& spec : RtlPortParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (auto& spec : SupernodeParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  return specs;
}

Result<ParamSet> LoadScenarioParams(const RunOptions& options) {
  ParamSet params(ScenarioParamSpecs());
  if (auto error = ApplyYaml(kDefaultScenarioYaml, "default", params)) {
    return Fail("embedded default scenario: " + *error);
  }
  if (!options.scenario_file.empty()) {
    // A file describes one experiment unless it names phases itself.
    if (auto error = params.Set("run.phases", "none")) {
      return Fail(*error);
    }
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
  if (IsSupernodeRun(params)) {
    return params;  // Each phase's own scenario is checked when it runs.
  }
  const bool study = params.Text("link.fidelity") == "ideal";
  if (!study && params.Text("fault.kind") != "none") {
    return Fail(
        "fault.kind: faults are injected in network studies "
        "(link.fidelity: ideal) so far");
  }
  if (!study && params.Text("sim.kernel") != "systemc") {
    return Fail(
        "sim.kernel: the cycle kernel runs network studies "
        "(link.fidelity: ideal)");
  }
  if (!study && params.Text("transport.workload") != "none") {
    return Fail(
        "transport.workload: transport studies run on link.fidelity: ideal "
        "so far");
  }
  const auto validate = [&params, study] {
    if (IsRemoteAccessStudy(params)) {
      return ValidateRemoteAccessStudy(params);
    }
    if (!study) {
      return fabric::ValidateFabricParams(params);
    }
    return IsTransportStudy(params) ? ValidateTransportStudy(params)
                                    : ValidateNetworkStudy(params);
  };
  if (auto error = validate()) {
    const std::string source =
        options.scenario_file.empty() ? "scenario" : options.scenario_file;
    return Fail(source + ": " + *error);
  }
  return params;
}

namespace {

std::string WritePcap(const fabric::Fabric& fabric, const std::string& path) {
  auto writer = pcap::PcapWriter::ToFile(path);
  if (!writer) {
    return writer.error().reason;
  }
  for (const auto& packet : fabric.Captured()) {
    if (auto written = writer->Write(packet.time_ps, packet.frame); !written) {
      return written.error().reason;
    }
  }
  auto flushed = writer->Flush();
  return flushed ? "" : flushed.error().reason;
}

}  // namespace

int RunScenario(const RunOptions& options) {
  auto loaded = LoadScenarioParams(options);
  if (!loaded) {
    return BadInput(loaded.error().reason);
  }
  const bool boards =
      !IsSupernodeRun(loaded.value()) && IsRemoteAccessStudy(loaded.value());
  if (!loaded->Text("link.rtl_ports").empty() && !boards) {
    return BadInput(
        "link.rtl_ports: only a run of boards has link controllers to put in "
        "RTL (run.phases: none, logical.workload: remote_access)");
  }
  if (!options.vcd_file.empty()) {
    if (auto error = CheckRunWaveforms(loaded.value(), options.vcd_file)) {
      return BadInput("--vcd: " + *error);
    }
  }
  const bool traced =
      IsSupernodeRun(loaded.value()) || IsRemoteAccessStudy(loaded.value());
  if (!options.trace_file.empty() && !traced) {
    return BadInput(
        "--trace: only runs of boards are traced so far "
        "(logical.workload: remote_access, or the default run's probe "
        "phase)");
  }
  if (IsSupernodeRun(loaded.value())) {
    return RunSupernode(loaded.value(), options);
  }
  return RunLoaded(loaded.value(), options);
}

int RunLoaded(const ParamSet& params, const RunOptions& options) {
  if (IsRemoteAccessStudy(params)) {
    if (!options.pcap_file.empty()) {
      return BadInput("--pcap: the remote access study captures nothing yet");
    }
    return RunRemoteAccessStudy(params, options);
  }
  if (IsTransportStudy(params)) {
    return RunTransportStudy(params, options);
  }
  if (params.Text("link.fidelity") == "ideal") {
    if (!options.pcap_file.empty()) {
      return BadInput("--pcap: ideal links carry no transport packets");
    }
    return RunNetworkStudy(params, options);
  }

  fabric::Fabric fabric("fabric", params);
  std::unique_ptr<ProgressMeter> progress;
  if (options.progress) {
    const double expected = static_cast<double>(fabric.MessagesExpected());
    progress = std::make_unique<ProgressMeter>(
        "progress",
        [&fabric, expected] {
          return expected == 0
                     ? 1.0
                     : static_cast<double>(fabric.MessagesDelivered()) /
                           expected;
        },
        sc_core::sc_time(100, sc_core::SC_NS), stderr);
  }

  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const auto stop = std::chrono::steady_clock::now();

  RunReport report;
  report.scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  report.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  report.values = params.Values();
  report.wall_time_s = std::chrono::duration<double>(stop - start).count();
  report.nodes = static_cast<int>(fabric.topology().EndpointCount());
  report.links = fabric.link_count() / 2;
  report.profile = fabric.profile().name;
  report.link_payload_gbps =
      phy::PayloadGoodputGbps(fabric.profile(), fabric.profile().max_lanes);
  report.totals = fabric.Collect();
  report.sim_time_ns =
      static_cast<double>(report.totals.last_delivery_ps) / 1000.0;
  if (const auto minimal = topo::ShortestHopStats(fabric.topology())) {
    report.minimal_hops = minimal->mean_excluding_self;
  }

  if (!options.quiet) {
    PrintReport(report, stdout);
  }
  if (!options.stats_file.empty()) {
    if (auto error = WriteStatsJson(report, options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      return kExitFailure;
    }
  }
  if (!options.pcap_file.empty()) {
    if (auto error = WritePcap(fabric, options.pcap_file); !error.empty()) {
      std::fprintf(stderr, "lqemu run: --pcap: %s\n", error.c_str());
      return kExitFailure;
    }
  }
  if (!report.IntegrityOk()) {
    std::fprintf(stderr, "lqemu run: data integrity failed (see the report)\n");
    return kExitFailure;
  }
  return kExitOk;
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
  std::fprintf(out, "Built-in scenarios:\n  default  %s\n",
               "the seed's supernode, a 256-card 4x8x8 3D torus on pcie6 "
               "links, through one phase per seed claim, then a headline "
               "table");
  std::fprintf(out, "  phases (run.phases):");
  for (const auto& group : SupernodePhaseGroups()) {
    std::fprintf(out, " %s", group.c_str());
  }
  std::fprintf(out, "\n\n");
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
