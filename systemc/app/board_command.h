// SPDX-License-Identifier: Apache-2.0
// `lqemu board`: boots a firmware image on one virtual board (its ports
// facing partner link ports) or on every node of a scenario's topology,
// with the console, an optional GDB stub, and a report of how it ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"

namespace lq::app {

struct BoardOptions {
  std::string firmware;                // ELF image (required)
  std::optional<uint16_t> gdb_port;    // serve GDB on localhost:PORT
  unsigned gdb_node = 0;               // whose CPU GDB debugs
  bool halt = false;                   // wait for GDB before the first insn
  unsigned ports = 6;                  // single board: link ports
  std::string scenario_file;           // a cluster: one board per node
  std::vector<std::string> overrides;  // --set key=value (scenario keys)
  // --event: faults at simulated times, after the scenario's `events`.
  std::vector<std::string> events;
  std::optional<uint64_t> seed;
  double max_time_us = 0;   // simulated-time limit; 0: none
  double max_wall_s = 0;    // wall-time limit; 0: none
  std::string console_dir;  // one log per node instead of stdout
  std::string stats_file;
  std::string trace_file;  // Chrome trace-event JSON
  std::string vcd_file;    // waveforms of the RTL ports (link.rtl_ports)
  double quantum_ns = 1000;
  double cpu_mhz = 100;
  // Every link's; unset, 1, or with link.rtl_ports the RTL build's 1e-4.
  // The RTL ports' links train at 1e-4 whatever it says (DLL-6.2).
  std::optional<double> ltssm_time_scale;
  // --log: events each CPU reports as they happen (board::CpuLog bits).
  uint32_t log = 0;
  bool quiet = false;
};

// Runs the board(s); returns the exit status: a single board's firmware
// status, for a cluster 0 if every board exited with 0 and 1 otherwise;
// 1 if the time limit or the events ran out first; 2 for bad input.
int RunBoard(const BoardOptions& options);

// --log's value: "traps,irq,bus-errors,mmio" (any of them, comma
// separated) as board::CpuLog bits, or why not.
Result<uint32_t> ParseCpuLog(const std::string& text);

}  // namespace lq::app
