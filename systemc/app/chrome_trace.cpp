// SPDX-License-Identifier: Apache-2.0
// Chrome trace-event JSON: IDs for names, events, metadata.
#include "systemc/app/chrome_trace.h"

#include <algorithm>

namespace lq::app {
namespace {

// The format's timestamps are in microseconds.
double Us(double ns) { return ns / 1000; }

}  // namespace

std::pair<int, int> ChromeTrace::Ids(const std::string& process,
                                     const std::string& track) {
  const int pid =
      processes_.emplace(process, static_cast<int>(processes_.size()) + 1)
          .first->second;
  const int tid = tracks_
                      .emplace(std::make_pair(pid, track),
                               static_cast<int>(tracks_.size()) + 1)
                      .first->second;
  return {pid, tid};
}

void ChromeTrace::Span(const std::string& process, const std::string& track,
                       const std::string& name, double start_ns, double end_ns,
                       nlohmann::ordered_json args) {
  if (end_ns < window_start_ns_ || start_ns >= window_end_ns_) {
    return;
  }
  start_ns = std::max(start_ns, window_start_ns_);
  end_ns = std::min(end_ns, window_end_ns_);
  const auto [pid, tid] = Ids(process, track);
  events_.push_back({{"name", name},
                     {"cat", track},
                     {"ph", "X"},
                     {"ts", Us(start_ns)},
                     {"dur", Us(std::max(end_ns - start_ns, 0.0))},
                     {"pid", pid},
                     {"tid", tid},
                     {"args", std::move(args)}});
}

void ChromeTrace::Instant(const std::string& process, const std::string& track,
                          const std::string& name, double at_ns,
                          nlohmann::ordered_json args) {
  if (at_ns < window_start_ns_ || at_ns >= window_end_ns_) {
    return;
  }
  const auto [pid, tid] = Ids(process, track);
  events_.push_back({{"name", name},
                     {"cat", track},
                     {"ph", "i"},
                     {"s", "t"},
                     {"ts", Us(at_ns)},
                     {"pid", pid},
                     {"tid", tid},
                     {"args", std::move(args)}});
}

nlohmann::ordered_json ChromeTrace::Json() const {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const auto& [name, pid] : processes_) {
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"args", {{"name", name}}}});
  }
  for (const auto& [key, tid] : tracks_) {
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", key.first},
                      {"tid", tid},
                      {"args", {{"name", key.second}}}});
  }
  for (const auto& event : events_) {
    events.push_back(event);
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

}  // namespace lq::app
