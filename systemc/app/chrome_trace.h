// SPDX-License-Identifier: Apache-2.0
// A trace in Chrome's trace-event format (JSON; opens in Perfetto and
// chrome://tracing): named processes (one per node) holding named tracks,
// each with spans (complete events) and instants. Times are in ns.
#pragma once

#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace lq::app {

class ChromeTrace {
 public:
  // Keeps only what happens in [start_ns, end_ns): a span that crosses an
  // edge is cut there, an instant outside is left out (so that a large
  // run's trace stays affordable).
  void SetWindow(double start_ns, double end_ns) {
    window_start_ns_ = start_ns;
    window_end_ns_ = end_ns;
  }
  double window_start_ns() const { return window_start_ns_; }
  // Something that took from `start_ns` to `end_ns` on track `track` of
  // process `process`, e.g. ("node3", "port 2", "L0").
  void Span(const std::string& process, const std::string& track,
            const std::string& name, double start_ns, double end_ns,
            nlohmann::ordered_json args = nlohmann::ordered_json::object());
  // Something that happened at `at_ns`.
  void Instant(const std::string& process, const std::string& track,
               const std::string& name, double at_ns,
               nlohmann::ordered_json args = nlohmann::ordered_json::object());

  size_t size() const { return events_.size(); }
  // The whole trace: metadata naming every process and track, then the
  // events in the order they were added.
  nlohmann::ordered_json Json() const;

 private:
  // Process and track IDs, allocated in order of first use.
  std::pair<int, int> Ids(const std::string& process, const std::string& track);

  double window_start_ns_ = 0;
  double window_end_ns_ = std::numeric_limits<double>::infinity();
  std::map<std::string, int> processes_;
  std::map<std::pair<int, std::string>, int> tracks_;
  nlohmann::ordered_json events_ = nlohmann::ordered_json::array();
};

}  // namespace lq::app
