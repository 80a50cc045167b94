// SPDX-License-Identifier: Apache-2.0
// The per-phase sections of the supernode run's report.
#include "systemc/app/phase_report.h"

#include <cmath>

#include "systemc/app/supernode_headline.h"

namespace lq::app {
namespace {

using stats::Json;
using stats::Number;

// A time in ns, in ns below 10 us and in us from there.
std::string Time(double ns) {
  return ns < 10'000 ? Format("%.0f ns", ns) : Format("%.1f us", ns / 1000);
}

// "N what" for a count the stats hold at `path`, or nothing.
void AddCount(const Json& stats, std::initializer_list<const char*> path,
              const char* what, std::vector<std::string>& parts) {
  const double count = Number(stats, path);
  if (!std::isnan(count)) {
    parts.push_back(Format("%.0f %s", count, what));
  }
}

void AddLatency(const Json& stats, std::vector<std::string>& figures) {
  const double mean = Number(stats, {"latency_ns", "mean"});
  if (!std::isnan(mean) && mean > 0) {
    figures.push_back("latency mean " + Time(mean) + ", p99 " +
                      Time(Number(stats, {"latency_ns", "p99"})) + ", max " +
                      Time(Number(stats, {"latency_ns", "max"})));
  }
}

void AddTraffic(const Json& stats, std::vector<std::string>& figures) {
  const double hops = Number(stats, {"hops", "mean"});
  if (!std::isnan(hops) && hops > 0) {
    figures.push_back(Format("hops mean %.2f", hops));
  }
  const double accepted =
      Number(stats, {"network", "accepted_flits_per_node_cycle"});
  const double offered =
      Number(stats, {"network", "offered_flits_per_node_cycle"});
  if (!std::isnan(accepted) && offered > 0) {
    figures.push_back(Format("accepted %.4f of %.4f flits/node/cycle offered",
                             accepted, offered));
  }
  const double bandwidth = Number(stats, {"bandwidth", "aggregate_GBps"});
  if (!std::isnan(bandwidth) && bandwidth > 0) {
    figures.push_back(Format("%.1f GB/s delivered", bandwidth));
  }
}

void AddCollective(const Json& stats, std::vector<std::string>& figures) {
  const Json* collective = stats::Find(stats, {"collective"});
  if (collective == nullptr) {
    return;
  }
  std::string figure = Format(
      "%s of %.0f B per node on %.0f nodes: %s at %s, %.1f GB/s per node",
      collective->value("name", "").c_str(),
      Number(stats, {"collective", "buffer_bytes"}),
      Number(stats, {"collective", "nodes"}),
      collective->value("completed", false) ? "done" : "NOT done",
      Time(Number(stats, {"collective", "completed_ns"})).c_str(),
      Number(stats, {"collective", "algorithm_GBps_per_node"}));
  const double fraction = Number(stats, {"collective", "bounds", "fraction"});
  const Json* by = stats::Find(stats, {"collective", "bounds", "bound_by"});
  if (!std::isnan(fraction) && by != nullptr && by->is_string()) {
    figure += Format("; %.0f %% of its %s bound", 100 * fraction,
                     by->get<std::string>().c_str());
  }
  figures.push_back(figure);
}

void AddTransport(const Json& stats, std::vector<std::string>& figures) {
  if (stats::Find(stats, {"transport"}) == nullptr) {
    return;
  }
  std::vector<std::string> parts;
  AddCount(stats, {"transport", "ops"}, "operations", parts);
  AddCount(stats, {"transport", "retransmits"}, "retransmits", parts);
  AddCount(stats, {"transport", "pfc_pause_frames"}, "PFC messages", parts);
  AddCount(stats, {"transport", "xoff_frames"}, "XOFF", parts);
  const double pause_us = Number(stats, {"transport", "pause_us"});
  if (!std::isnan(pause_us)) {
    parts.push_back(Format("%.1f us paused", pause_us));
  }
  AddCount(stats, {"transport", "ecn_marked"}, "marked CE", parts);
  AddCount(stats, {"transport", "cnps"}, "CNPs", parts);
  figures.push_back("transport " + Joined(parts));
}

void AddLinks(const Json& stats, std::vector<std::string>& figures) {
  if (stats::Find(stats, {"link", "flits"}) == nullptr) {
    return;
  }
  std::vector<std::string> parts;
  AddCount(stats, {"link", "flits"}, "flits", parts);
  AddCount(stats, {"link", "crc_errors"}, "CRC errors", parts);
  AddCount(stats, {"link", "replays"}, "replays", parts);
  AddCount(stats, {"link", "fec_corrected"}, "FEC-corrected symbols", parts);
  figures.push_back("links " + Joined(parts));
}

void AddFaults(const Json& stats, std::vector<std::string>& figures) {
  const Json* faults = stats::Find(stats, {"faults"});
  if (faults == nullptr || !faults->is_array()) {
    return;
  }
  for (const Json& fault : *faults) {
    const std::string kind = fault.value("kind", "");
    std::string what = kind == "node"
                           ? Format("node %d fails", fault.value("node", 0))
                           : Format("link %d:%d cut", fault.value("node", 0),
                                    fault.value("port", 0));
    what += " at " + Time(fault.value("at_ns", 0.0));
    const Json recovered = fault.value("recovered_ns", Json());
    what += recovered.is_number()
                ? ", recovered in " + Time(recovered.get<double>())
                : ", not recovered";
    what += Format(", %d packets dropped", fault.value("dropped", 0));
    figures.push_back(what);
  }
}

void AddRemoteAccess(const Json& stats, std::vector<std::string>& figures) {
  if (stats::Find(stats, {"logical"}) == nullptr) {
    return;
  }
  std::vector<std::string> parts;
  AddCount(stats, {"logical", "remote_ops"}, "remote operations", parts);
  AddCount(stats, {"logical", "page_faults"}, "page faults", parts);
  figures.push_back("logical " + Joined(parts));
}

}  // namespace

std::vector<std::string> PhaseFigures(const nlohmann::ordered_json& stats) {
  std::vector<std::string> figures;
  AddLatency(stats, figures);
  AddTraffic(stats, figures);
  AddCollective(stats, figures);
  AddTransport(stats, figures);
  AddLinks(stats, figures);
  AddFaults(stats, figures);
  AddRemoteAccess(stats, figures);
  return figures;
}

IntegrityCounts IntegrityOf(const nlohmann::ordered_json& stats) {
  const auto count = [&stats](const char* key) {
    return static_cast<uint64_t>(stats::Count(stats, {"integrity", key}));
  };
  IntegrityCounts counts;
  counts.sent = count("sent");
  counts.delivered = count("delivered");
  counts.endpoint_failed = count("endpoint_failed");
  counts.lost = count("lost");
  counts.duplicated = count("duplicated");
  counts.corrupted = count("corrupted");
  return counts;
}

void PrintPhaseSections(const std::vector<PhaseSection>& sections,
                        std::FILE* out) {
  std::fprintf(out, "\n  phases\n");
  for (const PhaseSection& section : sections) {
    const PhaseResult& result = *section.result;
    const std::string group =
        section.group == result.name ? "" : " (" + section.group + ")";
    std::fprintf(out, "  %s%s, %.1f s wall: %s\n", result.name.c_str(),
                 group.c_str(), result.wall_s, section.layers.c_str());
    if (!result.Ok() || !result.stats) {
      std::fprintf(out, "    failed: %s\n", result.failure.c_str());
      continue;
    }
    const Json& stats = *result.stats;
    std::fprintf(out, "    %.0f nodes, %.0f links, %s simulated\n",
                 stats::Count(stats, {"nodes"}), stats::Count(stats, {"links"}),
                 Time(stats::Count(stats, {"sim_time_ns"})).c_str());
    for (const std::string& figure : PhaseFigures(stats)) {
      std::fprintf(out, "    %s\n", figure.c_str());
    }
    const IntegrityCounts integrity = IntegrityOf(stats);
    std::fprintf(out, "    integrity %s: %s\n", integrity.Line().c_str(),
                 integrity.Ok() ? "OK" : "FAILED");
  }
}

}  // namespace lq::app
