// SPDX-License-Identifier: Apache-2.0
// The headline's rows: which phase measures each claim, the figure it
// reports and the claim's threshold.
#include "systemc/app/supernode_headline.h"

#include <cstdarg>
#include <cstdio>

#include "models/phy/link_profile.h"

namespace lq::app {
namespace {

using stats::Find;
using stats::Json;
using stats::Number;

// The row of a claim whose phase group `group` (child phases `names`)
// failed, was skipped or was left out by run.phases.
HeadlineRow NotRun(const std::string& claim, const std::string& group,
                   const Phases& phases,
                   const std::vector<std::string>& names) {
  if (const auto reason = phases.Skipped(names)) {
    return {claim, "not measured: " + *reason, group, std::nullopt};
  }
  return {claim,
          phases.AnyFailed(names) ? "not measured: the phase failed"
                                  : "not measured: left out by run.phases",
          group, std::nullopt};
}

// A numeric scenario key's value in a phase's stats; NAN if absent.
double Parameter(const Json& stats, const char* key) {
  return Number(stats, {"parameters", key});
}

// A row with its figure; without one if any of `figures` is not finite.
HeadlineRow Measured(const std::string& claim, const std::string& group,
                     std::initializer_list<double> figures, std::string text,
                     bool holds) {
  for (const double figure : figures) {
    if (!std::isfinite(figure)) {
      return {claim, "not measured: the phase gave no figure", group,
              std::nullopt};
    }
  }
  return {claim, std::move(text), group, holds};
}

HeadlineRow LinkRow(const Phases& phases, const ParamSet& params) {
  const std::string claim = "800 Gb/s per port";
  const Json* stats = phases.Stats("link");
  if (stats == nullptr) {
    return NotRun(claim, "link", phases, {"link"});
  }
  const double fct_us =
      Number(*stats, {"transport", "fct_us", "incast", "max"});
  const double kib = Parameter(*stats, "transport.flow_kib");
  const double gbps = kib * 1024 * 8 / (fct_us * 1000);
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  return Measured(claim, "link", {gbps},
                  Format("%.0f Gb/s of RDMA WRITE payload over one %s link "
                         "(%.0f after flit overheads, at most)",
                         gbps, profile.name,
                         phy::PayloadGoodputGbps(profile, profile.max_lanes)),
                  gbps >= 800);
}

HeadlineRow RemoteAccessRow(const Phases& phases) {
  const std::string claim = "2.1 us end-to-end, software included";
  const Json* stats = phases.Stats("remote_access");
  if (stats == nullptr) {
    return NotRun(claim, "probe", phases, {"remote_access"});
  }
  // The figure of `access` to `target`, NAN if there is none.
  const Json* accesses = Find(*stats, {"remote_access", "accesses"});
  const auto latency = [accesses](const char* access, const char* target) {
    for (const auto& entry : accesses != nullptr && accesses->is_array()
                                 ? *accesses
                                 : Json::array()) {
      if (entry.value("access", "") == access &&
          entry.value("target", "") == target) {
        return Number(entry, {"latency_ns"});
      }
    }
    return static_cast<double>(NAN);
  };
  const double far = latency("load", "farthest");
  const double near = latency("load", "1 hop");
  const double fault = latency("fault", "farthest");
  return Measured(claim, "probe", {far, near, fault},
                  Format("%.0f ns load from the farthest card, %.0f ns from "
                         "a neighbour; %.1f us when the home's firmware "
                         "serves a page fault (no software on a load's path)",
                         far, near, fault / 1000),
                  far <= 2100);
}

HeadlineRow LatencyRow(const Phases& phases) {
  const std::string claim = "< 1.2 us average latency, 256 cards";
  const Json* stats = phases.Stats("uniform");
  if (stats == nullptr) {
    return NotRun(claim, "uniform", phases, {"uniform"});
  }
  const double mean = Number(*stats, {"latency_ns", "mean"});
  const double p99 = Number(*stats, {"latency_ns", "p99"});
  return Measured(claim, "uniform", {mean, p99},
                  Format("%.0f ns mean one-way (p99 %.0f), uniform random "
                         "messages on %.0f cards",
                         mean, p99, Number(*stats, {"nodes"})),
                  mean < 1200);
}

HeadlineRow BandwidthRow(const Phases& phases) {
  const std::string claim = "1.2 TB/s on 16 nodes";
  const Json* stats = phases.Stats("alltoall");
  if (stats == nullptr) {
    return NotRun(claim, "alltoall", phases, {"alltoall"});
  }
  const double gbps = Number(*stats, {"bandwidth", "aggregate_GBps"});
  const Json* dims = Find(*stats, {"parameters", "topology.dims"});
  const Json* bound_by = Find(*stats, {"collective", "bounds", "bound_by"});
  return Measured(
      claim, "alltoall",
      {gbps, Number(*stats, {"collective", "bounds", "bound_GBps"})},
      Format("%.2f TB/s aggregate payload, all-to-all (every pair at once) "
             "on %.0f nodes (%s "
             "torus): %.0f %% of the %.2f TB/s its %s allows",
             gbps / 1000, Number(*stats, {"nodes"}),
             dims != nullptr && dims->is_string()
                 ? dims->get<std::string>().c_str()
                 : "?",
             100 * Number(*stats, {"collective", "bounds", "fraction"}),
             Number(*stats, {"collective", "bounds", "bound_GBps"}) / 1000,
             bound_by != nullptr && *bound_by == "bisection"
                 ? "bisection"
                 : "cards' injection"),
      gbps >= 1200);
}

HeadlineRow FailoverRow(const Phases& phases) {
  const std::string claim = "< 50 ms node-level failover";
  const Json* cut = phases.Stats("link_cut");
  const Json* kill = phases.Stats("node_failure");
  if (cut == nullptr || kill == nullptr) {
    return NotRun(claim, "failover", phases, {"link_cut", "node_failure"});
  }
  const auto recovered_ms = [](const Json& stats) {
    const Json* faults = Find(stats, {"faults"});
    return faults != nullptr && !faults->empty()
               ? Number((*faults)[0], {"recovered_ns"}) / 1e6
               : NAN;
  };
  const double link_ms = recovered_ms(*cut), node_ms = recovered_ms(*kill);
  return Measured(claim, "failover", {link_ms, node_ms},
                  Format("%.2f ms after a link cut, %.2f ms after a node "
                         "failure (slowest affected connection, the "
                         "transport's resending included)",
                         link_ms, node_ms),
                  link_ms < 50 && node_ms < 50);
}

HeadlineRow PfcRow(const Phases& phases) {
  const std::string claim = "-70 % PFC triggering with congestion control";
  const Json* alone = phases.Stats("incast_pfc");
  const Json* dcqcn = phases.Stats("incast_dcqcn");
  const Json* lqcc = phases.Stats("incast_lqcc");
  if (alone == nullptr || dcqcn == nullptr || lqcc == nullptr) {
    return NotRun(claim, "incast", phases,
                  {"incast_pfc", "incast_dcqcn", "incast_lqcc"});
  }
  const double base = Number(*alone, {"transport", "xoff_frames"});
  if (base == 0) {
    return {claim, "not measured: PFC alone sent no XOFF, so nothing to cut",
            "incast", std::nullopt};
  }
  const auto cut = [base](const Json& stats) {
    return 100 * (1 - Number(stats, {"transport", "xoff_frames"}) / base);
  };
  const double by_dcqcn = cut(*dcqcn), by_lqcc = cut(*lqcc);
  return Measured(
      claim, "incast", {base, by_dcqcn, by_lqcc},
      Format("DCQCN %+.0f %%, LQCC %+.0f %% XOFF against PFC "
             "alone (%.0f), %.0f-to-1 incast",
             -by_dcqcn, -by_lqcc, base, Parameter(*alone, "transport.senders")),
      std::max(by_dcqcn, by_lqcc) >= 70);
}

HeadlineRow HopsRow(const Phases& phases) {
  const std::string claim = "~50 % fewer hops than a tree";
  const Json* torus = phases.Stats("torus_hops");
  const Json* tree = phases.Stats("fat_tree_hops");
  if (torus == nullptr || tree == nullptr) {
    return NotRun(claim, "hops", phases, {"torus_hops", "fat_tree_hops"});
  }
  const double on_torus = Number(*torus, {"hops", "mean"});
  const double on_tree = Number(*tree, {"hops", "mean"});
  const double fewer = 100 * (1 - on_torus / on_tree);
  return Measured(claim, "hops", {on_torus, on_tree, fewer},
                  Format("torus %.2f, fat-tree %.2f mean hops: %.0f %% fewer "
                         "(uniform traffic, 256 nodes; a network-only "
                         "comparison: hops are the routing's alone)",
                         on_torus, on_tree, fewer),
                  fewer >= 40);
}

HeadlineRow AllReduceRow(const Phases& phases) {
  const std::string claim = "hierarchical AllReduce: far fewer global syncs";
  const Json* ring = phases.Stats("ring_allreduce");
  const Json* tiered = phases.Stats("hierarchical_allreduce");
  if (ring == nullptr || tiered == nullptr) {
    return NotRun(claim, "allreduce", phases,
                  {"ring_allreduce", "hierarchical_allreduce"});
  }
  const double ring_steps = Number(*ring, {"collective", "steps"});
  const double tiered_steps = Number(*tiered, {"collective", "steps"});
  const double ring_us = Number(*ring, {"collective", "completed_ns"}) / 1000;
  const double tiered_us =
      Number(*tiered, {"collective", "completed_ns"}) / 1000;
  return Measured(claim, "allreduce",
                  {ring_steps, tiered_steps, ring_us, tiered_us},
                  Format("%.0f steps against the ring's %.0f; done in %.1f "
                         "us against %.1f (%.0f cards)",
                         tiered_steps, ring_steps, tiered_us, ring_us,
                         Number(*tiered, {"nodes"})),
                  tiered_steps < ring_steps);
}

}  // namespace

std::vector<HeadlineRow> Headline(const Phases& phases,
                                  const ParamSet& params) {
  return {LinkRow(phases, params), RemoteAccessRow(phases), LatencyRow(phases),
          BandwidthRow(phases),    FailoverRow(phases),     PfcRow(phases),
          HopsRow(phases),         AllReduceRow(phases)};
}

const char* Verdict(const HeadlineRow& row) {
  if (!row.holds) {
    return "-";
  }
  return *row.holds ? "holds" : "does not hold";
}

Json HeadlineJson(const std::vector<HeadlineRow>& rows) {
  Json json = Json::array();
  for (const auto& row : rows) {
    json.push_back({{"claim", row.claim},
                    {"measured", row.measured},
                    {"phase", row.phase},
                    {"holds", row.holds ? Json(*row.holds) : Json(nullptr)}});
  }
  return json;
}

// Sums the number at `path` over the phases' stats.

std::string Joined(const std::vector<std::string>& parts) {
  std::string line;
  for (const auto& part : parts) {
    line += (line.empty() ? "" : ", ") + part;
  }
  return line;
}

std::string Format(const char* format, ...) {
  char text[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return text;
}

}  // namespace lq::app
