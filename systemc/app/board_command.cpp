// SPDX-License-Identifier: Apache-2.0
// `lqemu board`: read the image, build the board(s), run, report.
#include "systemc/app/board_command.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/elf/elf_image.h"
#include "models/phy/fault_event.h"
#include "models/phy/link_profile.h"
#include "models/riscv/rv32_isa.h"
#include "systemc/app/board_ends.h"
#include "systemc/app/board_lines.h"
#include "systemc/app/board_monitor.h"
#include "systemc/app/board_traffic.h"
#include "systemc/app/build_info.h"
#include "systemc/app/chrome_trace.h"
#include "systemc/app/cluster_tracer.h"
#include "systemc/app/congestion_params.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/process_exit.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/rtl_ports.h"
#include "systemc/app/run_command.h"
#include "systemc/app/run_limits.h"
#include "systemc/app/run_report.h"
#include "systemc/app/scenario.h"
#include "systemc/app/scenario_lossless.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/study.h"
#include "systemc/cluster/cluster.h"
#include "systemc/cluster/fault_injector.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/window_sync.h"
#include "systemc/transport/transport_engine.h"

namespace lq::app {
namespace {

// "node 0: unhandled trap: load access fault (mcause 0x5) at pc 0x...,
// mtval 0x...".
std::string DescribeTrap(unsigned node, const board::UnhandledTrap& trap) {
  char text[160];
  std::snprintf(text, sizeof(text),
                "node %u: unhandled trap: %s (mcause 0x%x) at pc 0x%08x, "
                "mtval 0x%08x",
                node, riscv::TrapName(trap.mcause), trap.mcause, trap.mepc,
                trap.mtval);
  return text;
}

int BadInput(const std::string& message) {
  std::fprintf(stderr, "lqemu board: %s\n", message.c_str());
  return kExitBadInput;
}

// The keys `lqemu board` reads: one card's links; with a scenario file
// (`cluster`), also its topology and the cards' routers with PFC and ECN
// and transport engines, whose firmware picks a congestion control per QP.
KeyUsage BoardKeys(const ParamSet& params, bool cluster) {
  KeyUsage usage;
  usage.Use({"link.profile", "link.ber", "sim.seed", "events"});
  UseRtlPortKeys(params, usage);
  usage.Skip({"run.study", "workload.name", "run.phases"},
             "lqemu board boots the firmware it is given (lqemu run runs "
             "studies)");
  usage.Skip(params.KeysUnder("routing."),
             "the cards' firmware programs the routers (their straps preset "
             "dor on a torus, NET-4.8)");
  if (cluster) {
    usage.Use({"sim.partition", "link.cable_m"});
    UseTopologyKeys(params, usage);
    UseBoardTrafficKeys(params, usage);
    usage.Use({"transport.cc", "transport.pmtu"});
    UseLosslessKeys(usage);
    UseCongestionKeys("", usage);
    return usage;
  }
  const std::string one_card =
      "without --scenario, lqemu board builds one card whose ports face "
      "partner ports";
  for (const char* prefix : {"topology.", "transport.", "pfc.", "ecn.",
                             "dcqcn.", "lqcc.", "traffic."}) {
    usage.Skip(params.KeysUnder(prefix), one_card);
  }
  usage.Skip({"link.cable_m", "sim.partition", "board.traffic_load",
              "board.traffic_start_us"},
             one_card);
  return usage;
}

// Each board's end: whether its firmware finished, its status, and the
// trap that ended it, if one did.
nlohmann::ordered_json BoardsJson(const std::vector<BoardEnd>& ends) {
  nlohmann::ordered_json boards = nlohmann::ordered_json::array();
  for (unsigned n = 0; n < ends.size(); ++n) {
    const BoardEnd& end = ends[n];
    nlohmann::ordered_json trap;
    if (end.trap) {
      trap = {{"mcause", end.trap->mcause},
              {"mepc", end.trap->mepc},
              {"mtval", end.trap->mtval}};
    }
    boards.push_back(
        {{"node", n},
         {"instructions", end.instructions},
         {"traps", end.traps},
         {"console_bytes", end.console_bytes},
         {"finished", end.finished},
         {"failed", end.failed},
         {"status", end.finished ? nlohmann::ordered_json(end.status)
                                 : nlohmann::ordered_json()},
         {"unhandled_trap", trap}});
  }
  return boards;
}

// The nodes `pick` chooses, as " (node 3 …, node 5 …)" with `what`
// describing each; at most eight named.
template <typename Pick, typename What>
std::string NamedNodes(const std::vector<BoardEnd>& ends, Pick pick,
                       What what) {
  constexpr unsigned kMostNamed = 8;
  std::string names;
  unsigned picked = 0;
  for (unsigned n = 0; n < ends.size(); ++n) {
    if (!pick(ends[n])) {
      continue;
    }
    if (++picked <= kMostNamed) {
      names += (names.empty() ? " (node " : ", node ") + std::to_string(n) +
               what(ends[n]);
    }
  }
  if (picked > kMostNamed) {
    names += ", and " + std::to_string(picked - kMostNamed) + " more";
  }
  return names.empty() ? names : names + ")";
}

// The boards' ends summed: those finished, those an injected failure
// stopped first, the worst status of those finished, ports and ports up.
struct BoardTotals {
  unsigned finished = 0, failed = 0, ports = 0, ports_up = 0;
  int worst_status = 0;
  uint64_t instructions = 0;
};

BoardTotals Total(const std::vector<BoardEnd>& ends) {
  BoardTotals totals;
  for (const BoardEnd& end : ends) {
    totals.finished += end.finished ? 1 : 0;
    totals.failed += end.failed && !end.finished ? 1 : 0;
    totals.ports += end.ports;
    totals.ports_up += end.ports_up;
    totals.instructions += end.instructions;
    if (end.finished) {
      totals.worst_status = std::max(totals.worst_status, end.status);
    }
  }
  return totals;
}

// How the run ended, in words, and its exit status.
struct Outcome {
  std::string text;
  int status = kExitFailure;
};

Outcome DescribeOutcome(const std::vector<BoardEnd>& ends, const RunEnd& end,
                        unsigned gdb_node) {
  const auto nodes = static_cast<unsigned>(ends.size());
  const BoardTotals totals = Total(ends);
  const auto none = [](const BoardEnd&) { return std::string(); };
  // "; 1 failed (node 3)": the boards an injected failure stopped.
  const std::string failed_nodes =
      totals.failed == 0 || nodes == 1
          ? std::string()
          : "; " + std::to_string(totals.failed) + " failed" +
                NamedNodes(
                    ends,
                    [](const BoardEnd& b) { return b.failed && !b.finished; },
                    none);
  // "2 of 8 boards still running (node 1, node 6)": which, in a cluster.
  const auto still_running = [&] {
    return std::to_string(nodes - totals.finished - totals.failed) + " of " +
           std::to_string(nodes) + " boards still running" +
           (nodes == 1 ? std::string()
                       : NamedNodes(
                             ends,
                             [](const BoardEnd& b) {
                               return !b.finished && !b.failed;
                             },
                             none)) +
           failed_nodes;
  };
  if (ends.at(gdb_node).killed) {
    return {"killed by GDB"};
  }
  if (end.reason == RunEnd::Reason::kSignal) {
    // Exit 1 (DESIGN section 7 has three statuses): the run did not end.
    return {std::string("stopped by ") +
            (end.signal == SIGINT ? "SIGINT" : "SIGTERM") + ", " +
            still_running()};
  }
  if (end.reason == RunEnd::Reason::kWallLimit) {
    return {still_running() + " at the wall-time limit (--max-wall-s)"};
  }
  if (nodes == 1 && ends.front().trap) {
    return {DescribeTrap(0, *ends.front().trap)};
  }
  if (totals.failed == nodes) {
    return {nodes == 1 ? "the board failed (an injected node failure)"
                       : "every board failed (injected node failures)"};
  }
  if (totals.finished + totals.failed == nodes) {
    if (nodes == 1) {
      return {
          "firmware exited with status " + std::to_string(ends.front().status),
          ends.front().status};
    }
    return {"all boards finished, worst status " +
                std::to_string(totals.worst_status) +
                NamedNodes(
                    ends, [](const BoardEnd& b) { return b.status != 0; },
                    [](const BoardEnd& b) {
                      return " exited " + std::to_string(b.status);
                    }) +
                failed_nodes,
            totals.worst_status == 0 ? 0 : kExitFailure};
  }
  if (end.reason == RunEnd::Reason::kTimeLimit) {
    return {still_running() + " at the time limit (--max-time-us)"};
  }
  return {
      "no events left: the firmware waits for an interrupt nothing will "
      "raise"};
}

void WriteStats(const std::string& path, const std::vector<BoardEnd>& ends,
                nlohmann::ordered_json stats,
                const std::optional<RankSummary>& ranks, double sim_ns,
                double wall_s, int status) {
  const BoardTotals totals = Total(ends);
  nlohmann::ordered_json json;
  json["firmware_status"] = status;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = sim_ns;
  json["wall_time_s"] = wall_s;
  json["nodes"] = ends.size();
  json["boards_finished"] = totals.finished;
  json["ports_up"] = totals.ports_up;
  json["boards"] = BoardsJson(ends);
  json["stats"] = std::move(stats);
  if (ranks) {
    json["ranks"] = RanksJson(*ranks);
  }
  std::ofstream(path) << json.dump(2) << '\n';
}

// What `lqemu board` reads before it builds anything.
struct BoardInput {
  ParamSet params;
  elf::ElfImage image;
  phy::LinkProfile profile;
  std::shared_ptr<const topo::Topology> topology;  // with --scenario
  std::set<NodePort> rtl_ports;
};

// The keys, the image and what they name, or the one line that says why
// not.
Result<BoardInput> ReadBoardInput(const BoardOptions& options) {
  RunOptions scenario;
  scenario.scenario_file = options.scenario_file;
  scenario.overrides = options.overrides;
  scenario.seed = options.seed;
  auto params = ReadScenarioParams(scenario);
  if (!params) {
    return params.error();
  }
  const bool cluster_run = !options.scenario_file.empty();
  const auto keys_of = [cluster_run](const ParamSet& scenario) {
    return BoardKeys(scenario, cluster_run);
  };
  if (const auto unread = CheckGivenKeys(
          *params, cluster_run ? "lqemu board --scenario" : "lqemu board",
          scenario, keys_of, "lqemu board")) {
    return Fail(*unread);
  }
  auto image = ReadFirmwareImage(options.firmware);
  if (!image) {
    return Fail(options.firmware + ": " + image.error().reason);
  }
  const auto profile = phy::FindLinkProfile(params->Text("link.profile"));
  if (!profile) {
    return Fail("link.profile: " + profile.error().reason);
  }
  std::shared_ptr<const topo::Topology> topology;
  if (cluster_run) {
    auto scenario_topology = ScenarioTopology(*params);
    if (!scenario_topology) {
      return Fail(options.scenario_file +
                  ": topology: " + scenario_topology.error().reason);
    }
    topology = std::move(scenario_topology.value());
  }
  auto rtl_ports = topology
                       ? ScenarioRtlPorts(*params, topology->EndpointCount(),
                                          [&topology](uint32_t node) {
                                            return topology->PortCount(node);
                                          })
                       : ScenarioRtlPorts(*params, 1, [&options](uint32_t) {
                           return options.ports;
                         });
  if (!rtl_ports) {
    return rtl_ports.error();
  }
  if (!options.vcd_file.empty()) {
    if (auto error = CheckRtlWaveforms(*rtl_ports, options.vcd_file)) {
      return Fail("--vcd: " + *error);
    }
  }
  if (!options.trace_file.empty() && !std::ofstream(options.trace_file)) {
    return Fail("--trace: cannot write " + options.trace_file);
  }
  return BoardInput{std::move(params.value()), std::move(image.value()),
                    *profile, std::move(topology),
                    std::move(rtl_ports.value())};
}

// The scenario's `events`, then the command line's --event, or why not.
Result<std::vector<phy::TimedFault>> BoardFaults(const BoardOptions& options,
                                                 const ParamSet& params) {
  std::string event_text = params.Text("events");
  for (const std::string& text : options.events) {
    if (text.find(';') != std::string::npos) {
      return Fail("--event '" + text + "': one event per --event");
    }
    event_text += "; " + text;
  }
  auto parsed = phy::ParseTimedFaults(event_text);
  if (!parsed) {
    return Fail("events: " + parsed.error().reason);
  }
  return parsed;
}

// GDB on --gdb-node's CPU, served by the rank that holds it, with
// `monitor` applying faults; why not, if it cannot be. Over ranks, a rank
// that cannot serve it throws: it ends the job, naming itself.
std::optional<std::string> ServeGdb(const BoardOptions& options,
                                    cluster::Cluster& cluster,
                                    cluster::FaultInjector& injector) {
  if (!options.gdb_port) {
    return std::nullopt;
  }
  if (options.gdb_node >= cluster.node_count()) {
    return "--gdb-node " + std::to_string(options.gdb_node) +
           ": the run has nodes 0.." + std::to_string(cluster.node_count() - 1);
  }
  if (!cluster.built(options.gdb_node)) {
    return std::nullopt;  // another rank's
  }
  board::Rv32Cpu& cpu = cluster.node(options.gdb_node).board().cpu();
  try {
    cpu.EnableGdb(*options.gdb_port, options.halt);
  } catch (const std::exception& error) {
    if (parallel::RankWorld::Get().parallel()) {
      throw;
    }
    return std::string(error.what());
  }
  cpu.SetMonitorHandler([&injector](const std::string& command) {
    return AnswerMonitor(command, injector);
  });
  return std::nullopt;
}

// The boards' CPUs, and their ports' PHYs and link controllers, as the
// command line and the keys say; a cluster's (`cluster`) cables are
// link.cable_m long.
cluster::ClusterConfig BoardConfig(const BoardOptions& options,
                                   const ParamSet& params,
                                   const phy::LinkProfile& profile,
                                   const std::set<NodePort>& rtl_ports,
                                   bool cluster) {
  cluster::ClusterConfig config;
  config.board.cpu.clock_period =
      sc_core::sc_time(1e3 / options.cpu_mhz, sc_core::SC_NS);
  config.board.cpu.quantum =
      sc_core::sc_time(options.quantum_ns, sc_core::SC_NS);
  config.board.cpu.log = options.log;
  config.port.phy = phy::PhyPortConfig::ForProfile(profile);
  config.port.phy.errors.ber = params.Real("link.ber");
  config.port.phy.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  if (cluster) {
    config.port.phy.cable_metres = params.Real("link.cable_m");
  }
  config.port.controller.profile = profile;
  config.port.controller.ltssm_time_scale = 1;
  PlaceRtlPorts(rtl_ports, params, options.vcd_file, config);
  if (options.ltssm_time_scale) {
    config.port.controller.ltssm_time_scale = *options.ltssm_time_scale;
  }
  if (!rtl_ports.empty() && !options.quiet) {
    std::fprintf(
        stderr, "lqemu board: %s\n",
        DescribeRtlTraining(rtl_ports, config.port.controller.ltssm_time_scale)
            .c_str());
  }
  return config;
}

// A cluster's cards beyond the board: a transport engine on each
// (DEVICES.TRANSPORT), pacing at one port's goodput (TRN-10.1), and a
// router doing PFC over the links' CONTROL flits (TRN-8.3) with every VC
// holding XOFF plus the headroom (TRN-8.9); board.traffic_load's sources
// in place of the engines if it asks for them (returns whether).
Result<bool> AddFabric(const ParamSet& params, const phy::LinkProfile& profile,
                       const topo::Topology& topology,
                       cluster::ClusterConfig& config) {
  transport::TransportEngineConfig engine;
  auto congestion = ScenarioCongestionParams(
      params, phy::PayloadGoodputGbps(profile, profile.max_lanes) * 1e9);
  if (!congestion) {
    return congestion.error();
  }
  engine.congestion_params = *congestion;
  config.network.transport = engine;
  const auto lossless = ScenarioLossless(
      params, profile, static_cast<uint32_t>(params.Integer("transport.pmtu")),
      params.Text("transport.cc"));
  if (!lossless) {
    return lossless.error();
  }
  config.network.flow_control = lossless->flow;
  config.network.router.vc_buffer_flits =
      lossless->VcBufferSlots(profile.payload_bytes);
  return PlaceBoardTraffic(params, profile, topology.EndpointCount(), config);
}

// A run's times, for its summary.
struct RunTimes {
  double sim_ns = 0;
  double wall_s = 0;   // running the simulation
  double build_s = 0;  // reading, building and loading before it
};

// Says on stderr how the run ended (unless --quiet), what board traffic
// did, and which unhandled trap ended each node of a cluster; returns the
// exit status.
int Report(const BoardOptions& options, const std::vector<BoardEnd>& ends,
           const RunEnd& end, const std::optional<RankSummary>& ranks,
           bool traffic, const RunTimes& times) {
  const Outcome outcome = DescribeOutcome(ends, end, options.gdb_node);
  const BoardTotals totals = Total(ends);
  if (!options.quiet) {
    std::fprintf(
        stderr,
        "lqemu board: %s at %.3f us simulated; %u of %u ports up; "
        "%llu instructions in %.2f s wall (%.1f MIPS); built in "
        "%.2f s\n",
        outcome.text.c_str(), times.sim_ns / 1e3, totals.ports_up, totals.ports,
        static_cast<unsigned long long>(totals.instructions), times.wall_s,
        times.wall_s > 0 ? totals.instructions / times.wall_s / 1e6 : 0.0,
        times.build_s);
    if (ranks) {
      PrintRanks(*ranks, stderr);
    }
    if (traffic) {
      std::fprintf(stderr, "lqemu board: %s\n",
                   DescribeBoardTraffic(ends).c_str());
    }
  }
  if (ends.size() > 1) {
    for (unsigned n = 0; n < ends.size(); ++n) {
      if (ends[n].trap) {
        std::fprintf(stderr, "lqemu board: %s\n",
                     DescribeTrap(n, *ends[n].trap).c_str());
      }
    }
  }
  return outcome.status;
}

}  // namespace

Result<uint32_t> ParseCpuLog(const std::string& text) {
  static const std::map<std::string, uint32_t> kNames = {
      {"traps", board::kLogTraps},
      {"irq", board::kLogIrq},
      {"bus-errors", board::kLogBusErrors},
      {"mmio", board::kLogMmio}};
  uint32_t log = 0;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t end = std::min(text.find(',', at), text.size());
    const std::string name = text.substr(at, end - at);
    const auto known = kNames.find(name);
    if (known == kNames.end()) {
      return Fail("--log " + text + ": '" + name +
                  "' is not one of traps, irq, bus-errors, mmio");
    }
    log |= known->second;
    at = end + 1;
  }
  return log;
}

int RunBoard(const BoardOptions& options) {
  const auto entered = std::chrono::steady_clock::now();
  auto read = ReadBoardInput(options);
  if (!read) {
    return BadInput(read.error().reason);
  }
  const BoardInput& input = *read;
  const std::shared_ptr<const topo::Topology>& topology = input.topology;
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  if (world.parallel() && !topology) {
    return BadInput(
        "without --scenario, lqemu board builds one card, which one process "
        "holds: run it without mpirun");
  }
  cluster::ClusterConfig config =
      BoardConfig(options, input.params, input.profile, input.rtl_ports,
                  topology != nullptr);
  // A cluster's run goes in windows of a cable's delay, in one process as
  // over MPI ranks, and ends at the end of the first after which every
  // board has ended (decision 0050): where it ends does not depend on the
  // rank count. A cable that takes no time gives one process 1 ns windows.
  // A single card, which runs in one process only, ends when its firmware
  // does (the cluster's sc_stop), in windows of kBenchWindow that only
  // the limits are looked at between: each window costs a kernel start,
  // which a CPU's quantum of 1 us would otherwise pay every time.
  const sc_core::sc_time kBenchWindow(10, sc_core::SC_US);
  const auto lookahead = CableLookahead(config.port.phy.cable_metres);
  if (!lookahead && world.parallel()) {
    return BadInput(lookahead.error().reason);
  }
  parallel::WindowSync sync(world, !topology ? kBenchWindow
                                   : lookahead
                                       ? *lookahead
                                       : sc_core::sc_time(1, sc_core::SC_NS));
  std::shared_ptr<const topo::Partition> partition;
  if (world.parallel()) {
    auto made = PartitionForRun(input.params, *topology);
    if (!made) {
      return BadInput(options.scenario_file + ": " + made.error().reason);
    }
    partition = std::make_shared<const topo::Partition>(std::move(*made));
    config.share = {partition, &sync};
  }
  config.stop_when_boards_end = !topology;

  std::vector<std::string> names;  // by node
  std::map<std::string, unsigned> index;
  for (unsigned n = 0; n < (topology ? topology->NodeCount() : 1); ++n) {
    names.push_back(topology ? topology->NodeName(n) : "node0");
    index[names.back()] = n;
  }
  BoardLines lines(sync, names, options.console_dir);
  config.on_console_line = [&lines, &index](const std::string& node,
                                            const std::string& line) {
    lines.Console(index.at(node), line);
  };
  if (options.log != 0) {
    config.on_cpu_log = [&lines, &index](const std::string& node,
                                         const sc_core::sc_time& at,
                                         const std::string& event) {
      char when[32];
      std::snprintf(when, sizeof when, "%.3f", at.to_seconds() * 1e6);
      lines.Note(index.at(node), node + ": [" + when + " us] " + event);
    };
  }

  ChromeTrace trace;
  ClusterTracer tracer(trace);
  if (!options.trace_file.empty()) {
    tracer.Attach(config);
  }

  const auto faults = BoardFaults(options, input.params);
  if (!faults) {
    return BadInput(faults.error().reason);
  }

  std::unique_ptr<cluster::Cluster> cluster;
  bool traffic = false;  // board.traffic_load
  try {
    if (!topology) {
      cluster =
          std::make_unique<cluster::Cluster>("cluster", config, options.ports);
    } else {
      auto fabric = AddFabric(input.params, input.profile, *topology, config);
      if (!fabric) {
        return BadInput(options.scenario_file + ": " + fabric.error().reason);
      }
      traffic = *fabric;
      cluster = std::make_unique<cluster::Cluster>("cluster", config, topology);
    }
  } catch (const std::exception& error) {
    return BadInput(error.what());
  }
  // Faults on the cables, scheduled and from GDB's `monitor`, reported as
  // they happen.
  cluster::FaultInjector injector(
      "faults", *cluster,
      [&options, &tracer, &lines, &names](unsigned node,
                                          const std::string& fault) {
        tracer.Fault(names.at(node), fault);
        if (!options.quiet) {
          char when[32];
          std::snprintf(when, sizeof when, "%.3f",
                        sc_core::sc_time_stamp().to_seconds() * 1e6);
          lines.Note(node,
                     std::string("lqemu board: ") + when + " us: " + fault);
        }
      });
  if (options.gdb_port) {
    injector.SetDebuggedNode(options.gdb_node);
  }
  if (auto problem = injector.Schedule(*faults)) {
    return BadInput("events: " + *problem);
  }
  if (auto problem = ServeGdb(options, *cluster, injector)) {
    return BadInput(*problem);
  }
  if (const auto loaded = cluster->Load(input.image); !loaded) {
    return BadInput(options.firmware + ": " + loaded.error().reason);
  }

  // The firmware ending the run is the normal way out, not news.
  // (SystemC reports sc_stop() as an info message of type /OSCI/SystemC.)
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  const double build_s = std::chrono::duration<double>(start - entered).count();
  const RunEnd end = RunWithin(
      {options.max_time_us, options.max_wall_s}, sync,
      [&cluster] { return cluster->boards_ended(); },
      [&lines] { lines.WindowEnded(); });
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  lines.RunEnded();
  cluster->FlushConsoles();
  lines.Finish();

  // Every rank's share, to rank 0.
  const std::vector<BoardEnd> ends = GatherBoardEnds(*cluster);
  const double sim_ns = sync.LatestTime().to_seconds() * 1e9;
  std::optional<RankSummary> ranks;
  if (partition) {
    ranks = SummariseRanks(*partition, *topology, sync);
  }
  nlohmann::ordered_json stats;
  if (!options.stats_file.empty()) {
    stats = ComponentStatsJson(*cluster);
  }
  if (!options.trace_file.empty()) {
    tracer.Gather(*cluster);
  }
  if (!world.root()) {  // rank 0 says how it ended
    if (options.vcd_file.empty()) {
      ExitWithoutTeardown(kExitOk);
    }
    return kExitOk;  // its RTL ports' waveforms close as the model goes
  }

  int status =
      Report(options, ends, end, ranks, traffic, {sim_ns, wall_s, build_s});
  if (!options.stats_file.empty()) {
    WriteStats(options.stats_file, ends, std::move(stats), ranks, sim_ns,
               wall_s, status);
  }
  if (!options.trace_file.empty()) {
    tracer.Finish(sim_ns);
    if (auto error = WriteJsonFile(trace.Json(), options.trace_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu board: --trace: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (options.vcd_file.empty()) {
    ExitWithoutTeardown(status);
  }
  return status;
}

}  // namespace lq::app
