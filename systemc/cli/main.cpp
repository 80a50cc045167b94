// SPDX-License-Identifier: Apache-2.0
// The lqemu command line (DESIGN.md §7): subcommands run, list, board and
// conformance, with the exit statuses 0 (success), 1 (the run found a
// failure) and 2 (bad input).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/app/board_command.h"
#include "systemc/app/build_info.h"
#include "systemc/app/component_catalogue.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/run_command.h"
#include "systemc/common/thread_stacks.h"
#include "systemc/conformance/mutants.h"
#include "systemc/conformance/suite.h"
#include "systemc/parallel/rank_world.h"

int sc_main(int argc, char* argv[]) {
  CLI::App app{
      "lqemu: emulator of a supernode interconnect protocol stack "
      "(PHY, data link, network, RoCEv2 transport, logical layer)."};
  app.require_subcommand(1);
  // What built this binary, so that a result can be traced to it.
  app.set_version_flag("--version", lq::app::VersionText());

  lq::app::RunOptions run;
  auto* run_command = app.add_subcommand(
      "run", "Simulate a scenario (default: the embedded 256-card torus).");
  run_command->add_option("scenario", run.scenario_file,
                          "Scenario YAML file (omit for the embedded default)");
  run_command
      ->add_option("--set", run.overrides,
                   "Override a scenario key, e.g. --set link.ber=1e-5")
      ->type_name("KEY=VALUE");
  run_command->add_option("--seed", run.seed, "Seed for every random source");
  run_command->add_option("--stats", run.stats_file,
                          "Write the run's statistics as JSON to FILE");
  run_command->add_option(
      "--pcap", run.pcap_file,
      "Write RoCEv2 packets to FILE (pcap): every card's in an incast, node "
      "0's sent and received with traffic, node 0's sent in a collective");
  run_command->add_option(
      "--trace", run.trace_file,
      "Write a Chrome trace-event JSON of the run (opens in Perfetto): per "
      "node the messages or packets it sent (at most trace.max_spans, "
      "sampled), link states, PFC pauses; the fabric manager's steps; a "
      "board's firmware lines and accesses (window: trace.start_us, "
      "trace.length_us)");
  run_command->add_option("--vcd", run.vcd_file,
                          "Write a VCD waveform of each RTL link controller "
                          "(link.rtl_ports) to FILE with .nodeN.portP before "
                          "its extension");
  run_command->add_flag("--quiet", run.quiet, "No progress line or report");

  auto* list_command = app.add_subcommand(
      "list",
      "Print the built-in scenario and its phases, the studies and their "
      "workloads, and every scenario key (scenario files to start from are "
      "in the source tree's testbench/scenarios/).");
  bool list_markdown = false;
  list_command->add_flag("--markdown", list_markdown,
                         "Every scenario key as the Markdown reference "
                         "(docs/scenario-reference.md)");
  bool list_stats = false;
  list_command->add_flag("--stats-markdown", list_stats,
                         "Every statistic a stats file's `stats` object can "
                         "hold, by its hierarchical name, as Markdown "
                         "(docs/stats-schema.md)");

  lq::app::BoardOptions board;
  auto* board_command = app.add_subcommand(
      "board",
      "Boot a RISC-V firmware image on a virtual board (docs/board.md), or "
      "on every node of a scenario's topology (under mpirun, each rank "
      "boots its share of the nodes: docs/scale-out.md).");
  board_command
      ->add_option("--firmware", board.firmware, "RV32IMAC ELF image to boot")
      ->required()
      ->check(CLI::ExistingFile);
  board_command
      ->add_option("--gdb", board.gdb_port,
                   "Serve GDB's remote protocol on localhost:PORT (the CPU "
                   "of --gdb-node; 0 picks a free port)")
      ->type_name("PORT");
  board_command
      ->add_option("--gdb-node", board.gdb_node,
                   "In a cluster, the node whose CPU --gdb debugs")
      ->needs(board_command->get_option("--gdb"))
      ->capture_default_str();
  auto* halt = board_command->add_flag(
      "--halt", board.halt, "Wait for GDB before the first instruction");
  halt->needs(board_command->get_option("--gdb"));
  auto* ports =
      board_command
          ->add_option(
              "--ports", board.ports,
              "Link ports of a board on its own, each facing a partner")
          ->check(CLI::Range(0, 8))
          ->capture_default_str();
  board_command
      ->add_option("--scenario", board.scenario_file,
                   "Boot every node of this scenario's topology (its "
                   "topology gives the ports)")
      ->check(CLI::ExistingFile)
      ->excludes(ports);
  board_command
      ->add_option("--set", board.overrides,
                   "Override a scenario key, e.g. --set link.profile=ib")
      ->type_name("KEY=VALUE");
  board_command
      ->add_option_function<std::string>(
          "--log",
          [&board](const std::string& text) {
            const auto log = lq::app::ParseCpuLog(text);
            if (!log) {
              throw CLI::ValidationError(log.error().reason);
            }
            board.log = *log;
          },
          "Print these CPU events as they happen, with node, time and pc: "
          "traps, irq, bus-errors, mmio (comma separated)")
      ->type_name("EVENTS");
  board_command
      ->add_option(
          "--event", board.events,
          "Inject a fault at a simulated time, e.g. --event '13ms "
          "link cut 0 2' (also 'link repair N P', 'lane fail|repair "
          "N P LANE', 'ber N P RATE'); repeatable, after the scenario's events")
      ->type_name("'TIME FAULT'");
  board_command->add_option("--seed", board.seed,
                            "Seed for every random source");
  board_command
      ->add_option("--max-time-us", board.max_time_us,
                   "Stop after this much simulated time (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  board_command
      ->add_option("--max-wall-s", board.max_wall_s,
                   "Stop after this much wall time (0: no limit); the "
                   "summary and every file are still written")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  board_command
      ->add_option(
          "--console-dir", board.console_dir,
          "Write each node's console to DIR/NODE.log instead of stdout")
      ->check(CLI::ExistingDirectory);
  board_command->add_option("--stats", board.stats_file,
                            "Write the run's statistics as JSON to FILE");
  board_command->add_option(
      "--trace", board.trace_file,
      "Write a Chrome trace-event JSON (opens in Perfetto): console lines, "
      "--log's CPU events, link states and injected faults, per node");
  board_command->add_option(
      "--vcd", board.vcd_file,
      "Write a VCD waveform of each RTL link controller (link.rtl_ports) to "
      "FILE with .nodeN.portP before its extension");
  board_command
      ->add_option("--quantum-ns", board.quantum_ns,
                   "How far a CPU may run ahead of simulated time")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  board_command->add_option("--cpu-mhz", board.cpu_mhz, "MCU core clock")
      ->check(CLI::Range(1.0, 10000.0))
      ->capture_default_str();
  board_command
      ->add_option("--ltssm-time-scale", board.ltssm_time_scale,
                   "Scale of every link-training timeout (DLL-6.2): 1, or "
                   "with link.rtl_ports the RTL build's 1e-4; the RTL ports' "
                   "links keep 1e-4 whatever it says")
      ->check(CLI::Range(1e-6, 1.0));
  board_command->add_flag("--quiet", board.quiet, "No summary line");
  lq::conformance::SuiteOptions conformance;
  bool conformance_quiet = false;
  auto* conformance_command = app.add_subcommand(
      "conformance",
      "Run the protocol conformance suite against a link controller (and, "
      "for the TL models, a router, a transport engine and a logical unit) "
      "and report a verdict per spec clause (docs/guide-conformance.md).");
  conformance_command
      ->add_option(
          "--dut", conformance.dut,
          "Device under test: tlm (the TL models, checked at PHY, "
          "DLL, NET, TRN and LOG), rtl (the Verilated link controller, "
          "PHY and DLL) or own (the RTL this build was configured "
          "with, -DLQ_DUT_RTL; PHY and DLL)")
      ->capture_default_str();
  conformance_command
      ->add_option("--filter", conformance.filter,
                   "Run only the test points whose ID (DLL-3.5/a), clause "
                   "(DLL-3.5) or test name matches this glob")
      ->capture_default_str();
  conformance_command->add_option("--junit", conformance.junit_path,
                                  "Write the verdicts as JUnit XML to FILE");
  conformance_command->add_option(
      "--markdown", conformance.markdown_path,
      "Write the per-clause verdict table as Markdown to FILE");
  std::string mutants;
  for (const lq::conformance::MutantInfo& mutant : lq::conformance::Mutants()) {
    mutants += "\n  " + mutant.name + ": " + mutant.breaks;
  }
  conformance_command->add_option(
      "--mutant", conformance.mutant,
      "Run against a deliberately broken variant of the DUT, to check that "
      "the suite catches it:" +
          mutants);
  conformance_command->add_flag("--quiet", conformance_quiet,
                                "No progress lines");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    return status == 0 ? lq::app::kExitOk : lq::app::kExitBadInput;
  }
  // Whatever a command builds, its threads' stacks must fit the kernel's
  // limit on memory maps (checked at the end of elaboration).
  lq::ThreadStackGuard thread_stacks("thread_stacks", "lqemu",
                                     lq::app::kExitBadInput);

  if (*list_command) {
    if (list_markdown) {
      lq::app::PrintScenarioReference(stdout);
    } else if (list_stats) {
      lq::app::PrintStatisticsMarkdown(stdout);
    } else {
      lq::app::PrintList(stdout);
    }
    return lq::app::kExitOk;
  }
  if (lq::parallel::RankWorld::Get().parallel() && *conformance_command) {
    std::fprintf(stderr,
                 "lqemu conformance: runs in one process only (decision "
                 "0050): run it without mpirun\n");
    return lq::app::kExitBadInput;
  }
  if (*board_command) {
    return lq::app::RunBoard(board);
  }
  if (*conformance_command) {
    conformance.progress = !conformance_quiet && isatty(STDERR_FILENO);
    return lq::conformance::RunConformanceCommand(conformance);
  }
  run.progress = !run.quiet && isatty(STDERR_FILENO);
  return lq::app::RunScenario(run);
}

// SystemC prints its banner before sc_main runs unless told not to; lqemu's
// output is its own report, so the banner is switched off here.
// Started by mpirun, every rank runs the same command on its share of the
// model (decision 0050): a rank that fails ends the job, naming itself.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  lq::parallel::RankWorld& world = lq::parallel::RankWorld::Init(&argc, &argv);
  if (!world.parallel()) {
    return sc_core::sc_elab_and_sim(argc, argv);
  }
  int status = lq::app::kExitFailure;
  try {
    status = sc_main(argc, argv);
  } catch (const std::exception& error) {
    world.Complain(error.what());
    world.Abort(lq::app::kExitFailure);
  }
  world.Finish();
  return status;
}
