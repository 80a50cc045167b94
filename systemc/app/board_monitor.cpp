// SPDX-License-Identifier: Apache-2.0
// GDB's monitor commands on a board run.
#include "systemc/app/board_monitor.h"

#include <systemc>

#include "systemc/common/time_text.h"

namespace lq::app {
namespace {

std::string Now() { return Micros(sc_core::sc_time_stamp()); }

}  // namespace

std::string AnswerMonitor(const std::string& command,
                          cluster::FaultInjector& faults) {
  const size_t start = command.find_first_not_of(" \t");
  const std::string verb =
      start == std::string::npos
          ? std::string()
          : command.substr(start, command.find_first_of(" \t", start) - start);
  if (verb.empty() || verb == "help") {
    return "monitor commands (faults apply now, in simulated time):\n"
           "  time                             the simulated time\n"
           "  link cut|repair NODE PORT        cut or repair a cable\n"
           "  lane fail|repair NODE PORT LANE  one lane of one end\n"
           "  ber NODE PORT RATE               a cable's bit-error rate\n"
           "  node fail NODE                   a card fails: CPU, router and "
           "cables\n"
           "  node reset NODE                  a card's board restarts its "
           "firmware\n";
  }
  if (verb == "time") {
    return "simulated time " + Now() + "\n";
  }
  if (verb == "link" || verb == "lane" || verb == "ber" || verb == "node") {
    const auto fault = phy::ParseFaultCommand(command);
    if (!fault) {
      return "error: " + fault.error().reason + "\n";
    }
    const auto applied = faults.Apply(*fault);
    return applied ? *applied + " at " + Now() + "\n"
                   : "error: " + applied.error().reason + "\n";
  }
  return "unknown monitor command '" + verb + "'; 'monitor help' lists them\n";
}

}  // namespace lq::app
