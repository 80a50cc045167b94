// SPDX-License-Identifier: Apache-2.0
// PauseLog: pauses opened and closed as the flow control reports them,
// gathered by node.
#include "systemc/app/pause_log.h"

#include <algorithm>
#include <tuple>

#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {

void PauseLog::Attach(const std::vector<NodeParts>& nodes) {
  by_node_.resize(nodes.size());
  watched_.resize(nodes.size());
  for (unsigned n = 0; n < nodes.size(); ++n) {
    watched_[n] = nodes[n].router != nullptr;
    if (!nodes[n].flow) {
      continue;
    }
    nodes[n].flow->set_pause_observer(
        [this, n](unsigned port, uint8_t tc, bool paused, uint64_t at_ps) {
          if (tc != kDataPriority) {
            return;
          }
          const double at_ns = static_cast<double>(at_ps) / 1000;
          if (paused) {
            open_.emplace(std::make_pair(n, port), at_ns);
          } else {
            Close(n, port, at_ns);
          }
        });
  }
}

void PauseLog::Finish(double end_ns) {
  while (!open_.empty()) {
    Close(open_.begin()->first.first, open_.begin()->first.second, end_ns);
  }
  parallel::AbsorbOtherRanksNodes(
      parallel::RankWorld::Get(), static_cast<unsigned>(by_node_.size()),
      [this](unsigned n) { return watched_[n]; },
      [this](unsigned n, Bytes& out) {
        parallel::WireWriter writer(out);
        for (const Interval& i : by_node_[n]) {
          writer.U32(i.port);
          writer.F64(i.start_ns);
          writer.F64(i.end_ns);
        }
      },
      [this](unsigned n, ByteView packed) {
        parallel::WireReader reader(packed);
        while (!reader.done()) {
          Interval i;
          i.port = reader.U32();
          i.start_ns = reader.F64();
          i.end_ns = reader.F64();
          by_node_[n].push_back(i);
        }
      });
}

nlohmann::ordered_json PauseLog::Json() const {
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (unsigned n = 0; n < by_node_.size(); ++n) {
    std::vector<Interval> intervals = by_node_[n];
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) {
                return std::tie(a.start_ns, a.port, a.end_ns) <
                       std::tie(b.start_ns, b.port, b.end_ns);
              });
    for (const Interval& i : intervals) {
      json.push_back({{"node", n},
                      {"port", i.port},
                      {"start_ns", i.start_ns},
                      {"end_ns", i.end_ns}});
    }
  }
  return json;
}

void PauseLog::Close(unsigned node, unsigned port, double at_ns) {
  const auto it = open_.find({node, port});
  if (it != open_.end()) {
    by_node_[node].push_back({port, it->second, at_ns});
    open_.erase(it);
  }
}

}  // namespace lq::app
