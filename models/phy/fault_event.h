// SPDX-License-Identifier: Apache-2.0
// Faults injected into a board run at simulated times (docs/board.md,
// "Faults"): a cable cut or repaired (PHY-5.6: every lane of both ends
// fails), one lane of one end failing or repaired (PHY-5.4), a cable's
// bit-error rate changed, both ways (PHY-5.1; a burst is a raise and a
// return), a whole card failing (NET-7.8), or its board reset. A scenario
// lists them under `events:`, `lqemu board --event` adds one, and GDB's
// `monitor` command applies one at once. This is their text form:
//
//   TIME link cut|repair NODE PORT
//   TIME lane fail|repair NODE PORT LANE
//   TIME ber NODE PORT RATE
//   TIME node fail NODE
//   TIME node reset NODE
//
// with TIME a number and a unit (ns, us, ms, s), left out for `monitor`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/result.h"

namespace lq::phy {

struct FaultCommand {
  enum class Action {
    kLinkCut,
    kLinkRepair,
    kLaneFail,
    kLaneRepair,
    kBer,
    kNodeFail,
    kNodeReset,
  };
  Action action = Action::kLinkCut;
  uint32_t node = 0;
  uint32_t port = 0;  // not for node actions
  uint32_t lane = 0;  // lane actions only
  double ber = 0;     // kBer only: in [0, kMostBer]

  bool lane_action() const {
    return action == Action::kLaneFail || action == Action::kLaneRepair;
  }
  bool node_action() const {
    return action == Action::kNodeFail || action == Action::kNodeReset;
  }
  // "link cut node 0 port 2", "lane fail node 1 port 0 lane 3", "ber node
  // 0 port 2 to 1e-05", "node 3 fails", "node 3 resets".
  std::string Describe() const;
};

// The highest BER a fault may set (the scenario key link.ber's bound).
constexpr double kMostBer = 1e-2;

struct TimedFault {
  double at_ns = 0;
  FaultCommand command;
};

// "link cut 0 2": fails with the reason and the expected form.
Result<FaultCommand> ParseFaultCommand(std::string_view text);
// "13ms link cut 0 2".
Result<TimedFault> ParseTimedFault(std::string_view text);
// Entries separated by ';' (the scenario key `events`), in the order
// given; an empty text is no event.
Result<std::vector<TimedFault>> ParseTimedFaults(std::string_view text);

}  // namespace lq::phy
