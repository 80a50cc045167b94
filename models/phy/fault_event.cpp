// SPDX-License-Identifier: Apache-2.0
// The text form of injected faults.
#include "models/phy/fault_event.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lq::phy {
namespace {

constexpr std::string_view kForms =
    "write 'link cut|repair NODE PORT', 'lane fail|repair NODE PORT LANE', "
    "'ber NODE PORT RATE' or 'node fail|reset NODE'";

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (at < text.size()) {
    const size_t start = text.find_first_not_of(" \t", at);
    if (start == std::string_view::npos) {
      break;
    }
    const size_t end = std::min(text.find_first_of(" \t", start), text.size());
    words.push_back(text.substr(start, end - start));
    at = end;
  }
  return words;
}

// A decimal number of at most nine digits: node, port and lane numbers.
bool ParseNumber(std::string_view word, uint32_t& value) {
  if (word.empty() || word.size() > 9) {
    return false;
  }
  value = 0;
  for (const char c : word) {
    if (c < '0' || c > '9') {
      return false;
    }
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  return true;
}

// SystemC counts time in 64 bits of its resolution (1 ps, about 213 days
// of simulated time); an event may come at most this late, well inside.
constexpr double kLatestEventNs = 1e15;  // 11.6 days

// "13ms", "0.5us": nanoseconds, not negative, at most kLatestEventNs.
bool ParseTime(std::string_view word, double& ns) {
  struct Unit {
    std::string_view name;
    double ns;
  };
  for (const Unit unit :
       {Unit{"ns", 1}, Unit{"us", 1e3}, Unit{"ms", 1e6}, Unit{"s", 1e9}}) {
    if (word.size() <= unit.name.size() ||
        word.substr(word.size() - unit.name.size()) != unit.name) {
      continue;
    }
    const std::string number(word.substr(0, word.size() - unit.name.size()));
    if (number.find_first_not_of("0123456789.") != std::string::npos) {
      return false;
    }
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !std::isfinite(value)) {
      return false;
    }
    ns = value * unit.ns;
    return ns <= kLatestEventNs;
  }
  return false;
}

// A rate in [0, kMostBer]: "1e-5", "0.001".
bool ParseRate(std::string_view word, double& rate) {
  const std::string text(word);
  if (text.empty() ||
      text.find_first_not_of("0123456789.eE-+") != std::string::npos) {
    return false;
  }
  char* end = nullptr;
  rate = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && rate >= 0 && rate <= kMostBer;
}

Result<FaultCommand> ParseWords(const std::vector<std::string_view>& words,
                                std::string_view text) {
  const auto fail = [text](std::string_view why) {
    return Fail("'" + std::string(text) + "': " + std::string(why) + "; " +
                std::string(kForms));
  };
  if (words.size() < 2) {
    return fail("too short");
  }
  FaultCommand command;
  using Action = FaultCommand::Action;
  size_t at = 2;  // the first argument
  if (words[0] == "ber") {
    command.action = Action::kBer;
    at = 1;
  } else if (words[0] == "link" && words[1] == "cut") {
    command.action = Action::kLinkCut;
  } else if (words[0] == "link" && words[1] == "repair") {
    command.action = Action::kLinkRepair;
  } else if (words[0] == "lane" && words[1] == "fail") {
    command.action = Action::kLaneFail;
  } else if (words[0] == "lane" && words[1] == "repair") {
    command.action = Action::kLaneRepair;
  } else if (words[0] == "node" && words[1] == "fail") {
    command.action = Action::kNodeFail;
  } else if (words[0] == "node" && words[1] == "reset") {
    command.action = Action::kNodeReset;
  } else {
    return fail("no such fault");
  }
  if (command.node_action()) {
    if (words.size() != at + 1 || !ParseNumber(words[at], command.node)) {
      return fail("a node fault names the node, a number");
    }
    return command;
  }
  const bool ber = command.action == Action::kBer;
  // Node and port, then a lane or a rate.
  const bool third = ber || command.lane_action();
  if (words.size() != at + (third ? 3 : 2)) {
    return fail(ber ? "a BER change names node, port and rate"
                : command.lane_action()
                    ? "a lane fault names node, port and lane"
                    : "a link fault names node and port");
  }
  if (!ParseNumber(words[at], command.node) ||
      !ParseNumber(words[at + 1], command.port) ||
      (command.lane_action() && !ParseNumber(words[at + 2], command.lane))) {
    return fail(command.lane_action() ? "node, port and lane are numbers"
                                      : "node and port are numbers");
  }
  if (ber && !ParseRate(words[at + 2], command.ber)) {
    return fail("the rate is a number from 0 to 1e-2");
  }
  return command;
}

}  // namespace

std::string FaultCommand::Describe() const {
  if (node_action()) {
    return "node " + std::to_string(node) +
           (action == Action::kNodeFail ? " fails" : " resets");
  }
  static constexpr const char* kNames[] = {"link cut", "link repair",
                                           "lane fail", "lane repair", "ber"};
  std::string text = std::string(kNames[static_cast<int>(action)]) + " node " +
                     std::to_string(node) + " port " + std::to_string(port);
  if (lane_action()) {
    text += " lane " + std::to_string(lane);
  }
  if (action == Action::kBer) {
    char rate[32];
    std::snprintf(rate, sizeof rate, " to %g", ber);
    text += rate;
  }
  return text;
}

Result<FaultCommand> ParseFaultCommand(std::string_view text) {
  return ParseWords(Words(text), text);
}

Result<TimedFault> ParseTimedFault(std::string_view text) {
  std::vector<std::string_view> words = Words(text);
  TimedFault fault;
  if (words.empty() || !ParseTime(words[0], fault.at_ns)) {
    return Fail("'" + std::string(text) +
                "': an event starts with its simulated time, e.g. '13ms "
                "link cut 0 2' (units ns, us, ms, s; at most 1e6 s)");
  }
  words.erase(words.begin());
  auto command = ParseWords(words, text);
  if (!command) {
    return command.error();
  }
  fault.command = *command;
  return fault;
}

Result<std::vector<TimedFault>> ParseTimedFaults(std::string_view text) {
  std::vector<TimedFault> faults;
  while (!text.empty()) {
    const size_t end = std::min(text.find(';'), text.size());
    const std::string_view entry = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (entry.find_first_not_of(" \t") == std::string_view::npos) {
      continue;
    }
    auto fault = ParseTimedFault(entry);
    if (!fault) {
      return fault.error();
    }
    faults.push_back(*fault);
  }
  return faults;
}

}  // namespace lq::phy
