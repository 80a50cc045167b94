// `lqemu board`: read the image, build the board(s), run, report.
#include "systemc/app/board_command.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/elf/elf_image.h"
#include "models/phy/fault_event.h"
#include "models/phy/link_profile.h"
#include "models/riscv/rv32_isa.h"
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

// Console lines go to stdout prefixed with the node's name, or to one log
// file per node.
class ConsoleWriter {
 public:
  explicit ConsoleWriter(std::string dir) : dir_(std::move(dir)) {}

  // Each line is flushed as it comes, so that a pipe or a log file holds
  // every line a run printed however it ends.
  void Line(const std::string& node, const std::string& line) {
    if (dir_.empty()) {
      std::printf("%s: %s\n", node.c_str(), line.c_str());
      std::fflush(stdout);
      return;
    }
    auto& file = files_[node];
    if (!file) {
      file = std::make_unique<std::ofstream>(dir_ + "/" + node + ".log");
    }
    *file << line << '\n' << std::flush;
  }

  void Flush() {
    std::fflush(stdout);
    for (auto& [node, file] : files_) {
      file->flush();
    }
  }

 private:
  std::string dir_;
  std::map<std::string, std::unique_ptr<std::ofstream>> files_;
};

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
  usage.Skip({"link.cable_m", "board.traffic_load", "board.traffic_start_us"},
             one_card);
  return usage;
}

// Each board's end: whether its firmware finished, its status, and the
// trap that ended it, if one did.
nlohmann::ordered_json BoardsJson(cluster::Cluster& cluster) {
  nlohmann::ordered_json boards = nlohmann::ordered_json::array();
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    const board::Board& board = cluster.node(n).board();
    nlohmann::ordered_json trap;
    if (const auto& unhandled = board.unhandled_trap()) {
      trap = {{"mcause", unhandled->mcause},
              {"mepc", unhandled->mepc},
              {"mtval", unhandled->mtval}};
    }
    boards.push_back({{"node", n},
                      {"instructions", board.cpu().instructions()},
                      {"traps", board.cpu().traps()},
                      {"console_bytes", board.console_bytes()},
                      {"finished", board.finished()},
                      {"failed", board.failed()},
                      {"status", board.finished() ? nlohmann::ordered_json(
                                                        board.exit_status())
                                                  : nlohmann::ordered_json()},
                      {"unhandled_trap", trap}});
  }
  return boards;
}

// The nodes `pick` chooses, as " (node 3 …, node 5 …)" with `what`
// describing each; at most eight named.
template <typename Pick, typename What>
std::string NamedNodes(cluster::Cluster& cluster, Pick pick, What what) {
  constexpr unsigned kMostNamed = 8;
  std::string names;
  unsigned picked = 0;
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    const board::Board& board = cluster.node(n).board();
    if (!pick(board)) {
      continue;
    }
    if (++picked <= kMostNamed) {
      names += (names.empty() ? " (node " : ", node ") + std::to_string(n) +
               what(board);
    }
  }
  if (picked > kMostNamed) {
    names += ", and " + std::to_string(picked - kMostNamed) + " more";
  }
  return names.empty() ? names : names + ")";
}

void WriteStats(const std::string& path, cluster::Cluster& cluster,
                double wall_s, int status) {
  nlohmann::ordered_json json;
  json["firmware_status"] = status;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = sc_core::sc_time_stamp().to_seconds() * 1e9;
  json["wall_time_s"] = wall_s;
  json["nodes"] = cluster.node_count();
  json["boards_finished"] = cluster.finished_nodes();
  json["ports_up"] = cluster.ports_up();
  json["boards"] = BoardsJson(cluster);
  json["stats"] = ComponentStatsJson(cluster);
  std::ofstream(path) << json.dump(2) << '\n';
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
  RunOptions scenario;
  scenario.scenario_file = options.scenario_file;
  scenario.overrides = options.overrides;
  scenario.seed = options.seed;
  const auto params = ReadScenarioParams(scenario);
  if (!params) {
    return BadInput(params.error().reason);
  }
  const bool cluster_run = !options.scenario_file.empty();
  const auto keys_of = [cluster_run](const ParamSet& scenario) {
    return BoardKeys(scenario, cluster_run);
  };
  if (const auto unread = CheckGivenKeys(
          *params, cluster_run ? "lqemu board --scenario" : "lqemu board",
          scenario, keys_of, "lqemu board")) {
    return BadInput(*unread);
  }
  const auto image = ReadFirmwareImage(options.firmware);
  if (!image) {
    return BadInput(options.firmware + ": " + image.error().reason);
  }
  const auto profile = phy::FindLinkProfile(params->Text("link.profile"));
  if (!profile) {
    return BadInput("link.profile: " + profile.error().reason);
  }

  std::shared_ptr<const topo::Topology> topology;
  if (!options.scenario_file.empty()) {
    auto scenario_topology = ScenarioTopology(*params);
    if (!scenario_topology) {
      return BadInput(options.scenario_file +
                      ": topology: " + scenario_topology.error().reason);
    }
    topology = std::move(scenario_topology.value());
  }
  const auto rtl_ports =
      topology ? ScenarioRtlPorts(*params, topology->EndpointCount(),
                                  [&topology](uint32_t node) {
                                    return topology->PortCount(node);
                                  })
               : ScenarioRtlPorts(*params, 1, [&options](uint32_t) {
                   return options.ports;
                 });
  if (!rtl_ports) {
    return BadInput(rtl_ports.error().reason);
  }
  if (!options.vcd_file.empty()) {
    if (auto error = CheckRtlWaveforms(*rtl_ports, options.vcd_file)) {
      return BadInput("--vcd: " + *error);
    }
  }

  if (!options.trace_file.empty() && !std::ofstream(options.trace_file)) {
    return BadInput("--trace: cannot write " + options.trace_file);
  }
  ConsoleWriter console(options.console_dir);
  cluster::ClusterConfig config;
  config.board.cpu.clock_period =
      sc_core::sc_time(1e3 / options.cpu_mhz, sc_core::SC_NS);
  config.board.cpu.quantum =
      sc_core::sc_time(options.quantum_ns, sc_core::SC_NS);
  config.port.phy = phy::PhyPortConfig::ForProfile(*profile);
  config.port.phy.errors.ber = params->Real("link.ber");
  config.port.phy.seed = static_cast<uint64_t>(params->Integer("sim.seed"));
  config.port.controller.profile = *profile;
  config.port.controller.ltssm_time_scale = 1;
  PlaceRtlPorts(*rtl_ports, *params, options.vcd_file, config);
  if (options.ltssm_time_scale) {
    config.port.controller.ltssm_time_scale = *options.ltssm_time_scale;
  }
  if (!rtl_ports->empty() && !options.quiet) {
    std::fprintf(
        stderr, "lqemu board: %s\n",
        DescribeRtlTraining(*rtl_ports, config.port.controller.ltssm_time_scale)
            .c_str());
  }
  config.on_console_line = [&console](const std::string& node,
                                      const std::string& line) {
    console.Line(node, line);
  };
  config.board.cpu.log = options.log;
  if (options.log != 0) {
    config.on_cpu_log = [](const std::string& node, const sc_core::sc_time& at,
                           const std::string& event) {
      std::fprintf(stderr, "%s: [%.3f us] %s\n", node.c_str(),
                   at.to_seconds() * 1e6, event.c_str());
    };
  }

  ChromeTrace trace;
  ClusterTracer tracer(trace);
  if (!options.trace_file.empty()) {
    tracer.Attach(config);
  }

  // The scenario's faults, then the command line's.
  std::vector<phy::TimedFault> faults;
  std::string event_text = params->Text("events");
  for (const std::string& text : options.events) {
    if (text.find(';') != std::string::npos) {
      return BadInput("--event '" + text + "': one event per --event");
    }
    event_text += "; " + text;
  }
  if (auto parsed = phy::ParseTimedFaults(event_text); parsed) {
    faults = std::move(parsed.value());
  } else {
    return BadInput("events: " + parsed.error().reason);
  }

  std::unique_ptr<cluster::Cluster> cluster;
  bool traffic = false;  // board.traffic_load
  try {
    if (!topology) {
      cluster =
          std::make_unique<cluster::Cluster>("cluster", config, options.ports);
    } else {
      // Every card of a fabric has a transport engine (DEVICES.TRANSPORT);
      // congestion control paces at one port's goodput (TRN-10.1).
      transport::TransportEngineConfig engine;
      auto congestion = ScenarioCongestionParams(
          *params, phy::PayloadGoodputGbps(*profile, profile->max_lanes) * 1e9);
      if (!congestion) {
        return BadInput(options.scenario_file + ": " +
                        congestion.error().reason);
      }
      engine.congestion_params = *congestion;
      config.network.transport = engine;
      // Its router does PFC over the links' CONTROL flits (TRN-8.3), with
      // every VC holding XOFF plus the headroom (TRN-8.9).
      const auto lossless = ScenarioLossless(
          *params, *profile,
          static_cast<uint32_t>(params->Integer("transport.pmtu")),
          params->Text("transport.cc"));
      if (!lossless) {
        return BadInput(options.scenario_file + ": " + lossless.error().reason);
      }
      config.network.flow_control = lossless->flow;
      config.network.router.vc_buffer_flits =
          lossless->VcBufferSlots(profile->payload_bytes);
      auto placed = PlaceBoardTraffic(*params, *profile,
                                      topology->EndpointCount(), config);
      if (!placed) {
        return BadInput(options.scenario_file + ": " + placed.error().reason);
      }
      traffic = *placed;
      cluster = std::make_unique<cluster::Cluster>("cluster", config, topology);
    }
  } catch (const std::exception& error) {
    return BadInput(error.what());
  }
  // Faults on the cables, scheduled and from GDB's `monitor`, reported as
  // they happen.
  cluster::FaultInjector injector(
      "faults", *cluster, [&options, &tracer](const std::string& fault) {
        tracer.Fault(fault);
        if (!options.quiet) {
          std::fprintf(stderr, "lqemu board: %.3f us: %s\n",
                       sc_core::sc_time_stamp().to_seconds() * 1e6,
                       fault.c_str());
        }
      });
  if (options.gdb_port) {
    injector.SetDebuggedNode(options.gdb_node);
  }
  if (auto problem = injector.Schedule(faults)) {
    return BadInput("events: " + *problem);
  }
  if (options.gdb_port) {
    if (options.gdb_node >= cluster->node_count()) {
      return BadInput("--gdb-node " + std::to_string(options.gdb_node) +
                      ": the run has nodes 0.." +
                      std::to_string(cluster->node_count() - 1));
    }
    board::Rv32Cpu& cpu = cluster->node(options.gdb_node).board().cpu();
    try {
      cpu.EnableGdb(*options.gdb_port, options.halt);
    } catch (const std::exception& error) {
      return BadInput(error.what());
    }
    cpu.SetMonitorHandler([&injector](const std::string& command) {
      return AnswerMonitor(command, injector);
    });
  }
  if (const auto loaded = cluster->Load(*image); !loaded) {
    return BadInput(options.firmware + ": " + loaded.error().reason);
  }

  // The firmware ending the run is the normal way out, not news.
  // (SystemC reports sc_stop() as an info message of type /OSCI/SystemC.)
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  const double build_s = std::chrono::duration<double>(start - entered).count();
  const RunEnd end = RunWithin({options.max_time_us, options.max_wall_s});
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  cluster->FlushConsoles();
  console.Flush();

  const unsigned nodes = cluster->node_count();
  const unsigned failed = cluster->failed_nodes();
  // Every board finished but those an injected failure stopped.
  const bool all_finished = cluster->finished_nodes() + failed == nodes;
  int status = kExitFailure;
  std::string outcome;
  std::vector<std::string> traps;  // a line per node an unhandled trap ended
  for (unsigned n = 0; n < nodes; ++n) {
    if (const auto& trap = cluster->node(n).board().unhandled_trap()) {
      traps.push_back(DescribeTrap(n, *trap));
    }
  }
  // "; 1 failed (node 3)": the boards an injected failure stopped.
  const std::string failed_nodes =
      failed == 0 || nodes == 1
          ? std::string()
          : "; " + std::to_string(failed) + " failed" +
                NamedNodes(
                    *cluster,
                    [](const board::Board& b) {
                      return b.failed() && !b.finished();
                    },
                    [](const board::Board&) { return std::string(); });
  // "2 of 8 boards still running (node 1, node 6)": which, in a cluster.
  const auto still_running = [&cluster, nodes, &failed_nodes] {
    return std::to_string(nodes - cluster->finished_nodes() -
                          cluster->failed_nodes()) +
           " of " + std::to_string(nodes) + " boards still running" +
           (nodes == 1
                ? std::string()
                : NamedNodes(
                      *cluster,
                      [](const board::Board& b) {
                        return !b.finished() && !b.failed();
                      },
                      [](const board::Board&) { return std::string(); })) +
           failed_nodes;
  };
  if (cluster->node(options.gdb_node).board().cpu().killed()) {
    outcome = "killed by GDB";
  } else if (end.reason == RunEnd::Reason::kSignal) {
    // Exit 1 (DESIGN section 7 has three statuses): the run did not end.
    outcome = std::string("stopped by ") +
              (end.signal == SIGINT ? "SIGINT" : "SIGTERM") + ", " +
              still_running();
  } else if (end.reason == RunEnd::Reason::kWallLimit) {
    outcome = still_running() + " at the wall-time limit (--max-wall-s)";
  } else if (nodes == 1 && !traps.empty()) {
    outcome = traps.front();
  } else if (failed == nodes) {
    outcome = nodes == 1 ? "the board failed (an injected node failure)"
                         : "every board failed (injected node failures)";
  } else if (all_finished) {
    status = nodes == 1 ? cluster->node(0).board().exit_status()
                        : (cluster->worst_status() == 0 ? 0 : kExitFailure);
    outcome =
        nodes == 1
            ? "firmware exited with status " + std::to_string(status)
            : "all boards finished, worst status " +
                  std::to_string(cluster->worst_status()) +
                  NamedNodes(
                      *cluster,
                      [](const board::Board& b) {
                        return b.exit_status() != 0;
                      },
                      [](const board::Board& b) {
                        return " exited " + std::to_string(b.exit_status());
                      }) +
                  failed_nodes;
  } else if (end.reason == RunEnd::Reason::kTimeLimit) {
    outcome = still_running() + " at the time limit (--max-time-us)";
  } else {
    outcome =
        "no events left: the firmware waits for an interrupt nothing will "
        "raise";
  }
  uint64_t instructions = 0;
  unsigned ports = 0;
  for (unsigned n = 0; n < nodes; ++n) {
    instructions += cluster->node(n).board().cpu().instructions();
    ports += cluster->node(n).port_count();
  }
  if (!options.quiet) {
    std::fprintf(stderr,
                 "lqemu board: %s at %.3f us simulated; %u of %u ports up; "
                 "%llu instructions in %.2f s wall (%.1f MIPS); built in "
                 "%.2f s\n",
                 outcome.c_str(), sc_core::sc_time_stamp().to_seconds() * 1e6,
                 cluster->ports_up(), ports,
                 static_cast<unsigned long long>(instructions), wall_s,
                 wall_s > 0 ? instructions / wall_s / 1e6 : 0.0, build_s);
  }
  if (traffic && !options.quiet) {
    std::fprintf(stderr, "lqemu board: %s\n",
                 DescribeBoardTraffic(*cluster).c_str());
  }
  if (nodes > 1) {
    for (const std::string& trap : traps) {
      std::fprintf(stderr, "lqemu board: %s\n", trap.c_str());
    }
  }
  if (!options.stats_file.empty()) {
    WriteStats(options.stats_file, *cluster, wall_s, status);
  }
  if (!options.trace_file.empty()) {
    tracer.Finish(sc_core::sc_time_stamp().to_seconds() * 1e9);
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
