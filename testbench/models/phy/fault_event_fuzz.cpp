// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary text as a scenario's list of fault events. A list
// that parses must read back the same from the canonical form of each of
// its entries; one that does not must name the entry it refused.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "models/phy/fault_event.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

namespace {

std::string Canonical(const lq::phy::TimedFault& fault) {
  static constexpr const char* kVerbs[] = {
      "link cut", "link repair", "lane fail", "lane repair",
      "ber",      "node fail",   "node reset"};
  // Fixed notation, as the grammar takes no exponent; every fractional
  // digit of the double (at most 1074 of them), so it reads back exactly.
  char time[1200];
  std::snprintf(time, sizeof time, "%.1074fns", fault.at_ns);
  std::string text = std::string(time) + " " +
                     kVerbs[static_cast<int>(fault.command.action)] + " " +
                     std::to_string(fault.command.node);
  if (fault.command.node_action()) {
    return text;
  }
  text += " " + std::to_string(fault.command.port);
  if (fault.command.lane_action()) {
    text += " " + std::to_string(fault.command.lane);
  }
  if (fault.command.action == lq::phy::FaultCommand::Action::kBer) {
    char rate[40];
    std::snprintf(rate, sizeof rate, " %.17g", fault.command.ber);
    text += rate;
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto faults = lq::phy::ParseTimedFaults(text);
  if (!faults.ok()) {
    Require(faults.error().reason.find('\'') != std::string::npos);
    return 0;
  }
  for (const lq::phy::TimedFault& fault : *faults) {
    Require(fault.at_ns >= 0);
    const auto again = lq::phy::ParseTimedFault(Canonical(fault));
    Require(again.ok() && again->at_ns == fault.at_ns &&
            again->command.action == fault.command.action &&
            again->command.node == fault.command.node &&
            again->command.port == fault.command.port &&
            again->command.lane == fault.command.lane &&
            again->command.ber == fault.command.ber);
  }
  return 0;
}
