// SPDX-License-Identifier: Apache-2.0
// FabricManager: reports in, one route update per burst, NET-7.7's steps.
#include "systemc/network/fabric_manager.h"

#include <algorithm>
#include <cstddef>
#include <set>

#include "models/topology/table_routing.h"

namespace lq::net {

FabricManager::FabricManager(
    const sc_core::sc_module_name& name,
    std::shared_ptr<const topo::Topology> topology,
    std::shared_ptr<const topo::RoutingFunction> initial,
    std::unique_ptr<ManagementChannel> channel,
    const FabricManagerConfig& config)
    : sc_module(name),
      topology_(std::move(topology)),
      channel_(std::move(channel)),
      config_(config),
      installed_(std::dynamic_pointer_cast<const topo::TableRouting>(initial)),
      node_failed_(topology_->NodeCount(), false) {
  SC_HAS_PROCESS(FabricManager);
  SC_THREAD(Run);
}

void FabricManager::ReportLinkDown(topo::NodeId node, topo::PortId port) {
  AddReport(node, port, false,
            sc_core::sc_time_stamp() + channel_->report_latency());
}

void FabricManager::ReportLinkUp(topo::NodeId node, topo::PortId port) {
  AddReport(node, port, true,
            sc_core::sc_time_stamp() + channel_->report_latency());
}

void FabricManager::ReportArriving(topo::NodeId node, topo::PortId port,
                                   bool up, const sc_core::sc_time& arrives) {
  AddReport(node, port, up, arrives);
}

void FabricManager::AddReport(topo::NodeId node, topo::PortId port, bool up,
                              const sc_core::sc_time& arrives) {
  // A report from another rank comes in at a window's end, after reports
  // made here that arrive later than it.
  const auto at = std::upper_bound(
      reports_.begin() + static_cast<std::ptrdiff_t>(taken_), reports_.end(),
      arrives,
      [](const sc_core::sc_time& t, const Report& r) { return t < r.arrives; });
  reports_.insert(at, {arrives, {node, port}, up});
  report_arrived_.notify(arrives - sc_core::sc_time_stamp());
}

std::pair<topo::NodeId, topo::PortId> FabricManager::LinkOf(
    const topo::PortRef& end) const {
  const auto far = topology_->Neighbour(end.node, end.port);
  return std::min(std::make_pair(end.node, end.port),
                  std::make_pair(far->node, far->port));
}

void FabricManager::TakeArrivedReports() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (; taken_ < reports_.size() && reports_[taken_].arrives <= now;
       ++taken_) {
    const Report& report = reports_[taken_];
    const auto link = LinkOf(report.port);
    bool failed = false;
    for (const topo::PortRef& end : failures_.links) {
      failed = failed || LinkOf(end) == link;
    }
    if (report.up) {
      // One the tables in force already use, with no down pending (a late
      // or repeated report, in band), starts no update (NET-7.11).
      if (failed || going_down_.count(link) > 0) {
        coming_up_.insert(link);
        last_up_ = report.arrives;
      }
      continue;
    }
    coming_up_.erase(link);  // down again: its restore is off
    if (!failed) {
      if (going_down_.empty()) {
        first_down_ = report.arrives;
      }
      going_down_.insert(link);
    }
  }
}

// A burst of downs is taken fm.holdoff after its first report, so that the
// other end of the link (or a node's other links) are reported too
// (NET-7.6); reports that come in during an update start the next one.
// Links that come back up are taken back fm.restore_holdoff after the last
// up report, each new one putting that off (NET-7.11); downs go first.
void FabricManager::Run() {
  for (;;) {
    TakeArrivedReports();
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    RouteUpdate update;
    if (!going_down_.empty() || silent_pending_) {
      if (first_down_ + config_.holdoff > now) {
        wait(first_down_ + config_.holdoff - now);
        continue;
      }
      update.first_event = first_down_;
      for (const auto& [node, port] : going_down_) {
        failures_.links.push_back({node, port});
      }
      going_down_.clear();
      silent_pending_ = false;
      MarkFailedNodes();
    } else if (!coming_up_.empty()) {
      if (last_up_ + config_.restore_holdoff > now) {
        wait(last_up_ + config_.restore_holdoff - now, report_arrived_);
        continue;
      }
      update.first_event = last_up_;
      update.restore = true;
      auto& links = failures_.links;
      links.erase(std::remove_if(links.begin(), links.end(),
                                 [this](const topo::PortRef& end) {
                                   return coming_up_.count(LinkOf(end)) > 0;
                                 }),
                  links.end());
      coming_up_.clear();
      MarkRestoredNodes();
    } else {
      if (taken_ < reports_.size()) {
        // Or sooner, for a report from another rank that arrives sooner.
        wait(reports_[taken_].arrives - now, report_arrived_);
      } else {
        wait(report_arrived_);
      }
      continue;
    }
    Update(update);
    rejoining_.clear();
    TakeSilentNodes(update);
    updates_.push_back(update);
    updated_.notify(sc_core::SC_ZERO_TIME);
  }
}

void FabricManager::MarkFailedNodes() {
  std::set<std::pair<topo::NodeId, topo::PortId>> down;
  for (const topo::PortRef& end : failures_.links) {
    down.insert({end.node, end.port});
    const auto far = topology_->Neighbour(end.node, end.port);
    down.insert({far->node, far->port});
  }
  for (topo::NodeId node = 0; node < topology_->NodeCount(); ++node) {
    bool all_down = !node_failed_[node] || silent_.count(node) > 0;
    for (topo::PortId p = 0; all_down && p < topology_->PortCount(node); ++p) {
      all_down = !topology_->Neighbour(node, p) || down.count({node, p}) > 0;
    }
    if (all_down && silent_.count(node) > 0) {
      // Given up on, now failing for real: restored like any failed node
      // once its links come back (NET-7.12).
      silent_.erase(node);
    } else if (all_down) {
      node_failed_[node] = true;
      failures_.nodes.push_back(node);
    }
  }
}

void FabricManager::MarkRestoredNodes() {
  std::set<std::pair<topo::NodeId, topo::PortId>> down;
  for (const topo::PortRef& end : failures_.links) {
    down.insert(LinkOf(end));
  }
  auto& nodes = failures_.nodes;
  for (auto it = nodes.begin(); it != nodes.end();) {
    if (silent_.count(*it) > 0) {
      ++it;  // given up on: its links never went down
      continue;
    }
    bool back = false;
    for (topo::PortId p = 0; !back && p < topology_->PortCount(*it); ++p) {
      back = topology_->Neighbour(*it, p) && down.count(LinkOf({*it, p})) == 0;
    }
    if (back) {
      node_failed_[*it] = false;
      rejoining_.push_back(*it);
      it = nodes.erase(it);
    } else {
      ++it;
    }
  }
}

bool FabricManager::Rejoining(topo::NodeId node) const {
  return std::find(rejoining_.begin(), rejoining_.end(), node) !=
         rejoining_.end();
}

std::vector<topo::NodeId> FabricManager::WorkingNodes(
    bool endpoints_only) const {
  std::vector<topo::NodeId> nodes;
  for (topo::NodeId n = 0; n < topology_->NodeCount(); ++n) {
    if (Working(n) && (!endpoints_only || topology_->IsEndpoint(n))) {
      nodes.push_back(n);
    }
  }
  return nodes;
}

void FabricManager::TakeSilentNodes(RouteUpdate& update) {
  for (const topo::NodeId n : channel_->TakeSilent()) {
    if (Working(n)) {
      node_failed_[n] = true;
      failures_.nodes.push_back(n);
      silent_.insert(n);
      ++update.silent_nodes;
      if (!silent_pending_ && going_down_.empty()) {
        first_down_ = sc_core::sc_time_stamp();
      }
      silent_pending_ = true;
    }
  }
}

void FabricManager::Update(RouteUpdate& update) {
  wait(config_.compute_time);
  auto degraded = topo::DegradedTopology::Create(topology_, failures_);
  if (!degraded) {
    update.failure = degraded.error().reason;
    return;
  }
  auto tables =
      topo::TableRouting::Build(*degraded, config_.table_classes, std::nullopt);
  if (!tables) {
    update.failure = tables.error().reason;
    return;
  }
  std::shared_ptr<const topo::ManagementTree> tree;
  if (config_.node) {
    auto computed = topo::ManagementTree::Compute(**degraded, *config_.node);
    if (!computed) {
      update.failure = computed.error().reason;
      return;
    }
    tree = std::make_shared<const topo::ManagementTree>(
        std::move(computed).value());
  }
  const std::shared_ptr<const topo::TableRouting> next =
      std::move(tables).value();
  update.computed = sc_core::sc_time_stamp();
  std::set<std::pair<topo::NodeId, topo::PortId>> links;
  for (const topo::PortRef& end : failures_.links) {
    links.insert(LinkOf(end));
  }
  update.failed_links = static_cast<unsigned>(links.size());
  update.failed_nodes = static_cast<unsigned>(failures_.nodes.size());
  update.restored_nodes = static_cast<unsigned>(rejoining_.size());
  const std::vector<topo::NodeId> working = WorkingNodes(false);
  const std::vector<topo::NodeId> endpoints = WorkingNodes(true);

  // 1. Tree: new parents root outward (in band only).
  if (tree && !channel_->SetTree(update, tree)) {
    update.failure =
        "a node gave no answer while the management tree was rewritten; "
        "the next update routes around it";
    return;
  }
  // 2. Write: tables only to the nodes whose routes change (direct
  // notification).
  const std::vector<topo::NodeId> changed = ChangedNodes(*next);
  update.changed_nodes = static_cast<unsigned>(changed.size());
  channel_->WriteTables(update, changed, working, next);
  // A rejoining node restarted in epoch 0 (NET-7.12): if the others are in
  // epoch 1 it switches once now, frozen and unreachable, and has its
  // shadow bank written again, so that step 5 flips it with them.
  if (!rejoining_.empty() && epoch_ == 1) {
    channel_->Command(update, rejoining_, MgmtType::kSwitch);
    channel_->WriteTables(update, rejoining_, rejoining_, next);
  }

  // 3. Freeze every working endpoint's injection.
  channel_->Command(update, endpoints, MgmtType::kFreeze);
  update.frozen = sc_core::sc_time_stamp();

  // 4. Drain: count until every admitted packet is ejected or dropped.
  // Packets lost inside a failed node keep the sums apart until the drain
  // times out, or until the node is back with its counts (NET-7.12).
  const sc_core::sc_time deadline =
      sc_core::sc_time_stamp() + config_.drain_timeout;
  for (;;) {
    const sc_core::sc_time next_round =
        sc_core::sc_time_stamp() + config_.drain_interval;
    const CountRepBody sums = channel_->Count(update, working);
    ++update.drain_rounds;
    if (sums.injected == sums.ejected + sums.dropped) {
      update.drained = true;
      break;
    }
    if (sc_core::sc_time_stamp() >= deadline) {
      break;
    }
    if (next_round > sc_core::sc_time_stamp()) {
      wait(std::min(next_round, deadline) - sc_core::sc_time_stamp());
    }
  }

  // 5. Switch banks and epochs; 6. resume injection in the new epoch.
  channel_->Command(update, working, MgmtType::kSwitch);
  epoch_ ^= 1;
  installed_ = next;
  update.switched = sc_core::sc_time_stamp();
  channel_->Command(update, endpoints, MgmtType::kResume);
  update.resumed = sc_core::sc_time_stamp();
}

std::vector<topo::NodeId> FabricManager::ChangedNodes(
    const topo::TableRouting& tables) const {
  std::vector<topo::NodeId> changed;
  const topo::TableRouting* now = installed_.get();
  for (topo::NodeId node = 0; node < topology_->NodeCount(); ++node) {
    if (!Working(node)) {
      continue;
    }
    bool same = now != nullptr && now->VcClasses() == tables.VcClasses();
    for (topo::PortId p = 0; same && p < topology_->PortCount(node); ++p) {
      same = now->PortLeadsUp(node, p) == tables.PortLeadsUp(node, p);
    }
    for (topo::NodeId dst = 0; same && dst < topology_->NodeCount(); ++dst) {
      for (topo::VcClass vc = 0; same && vc < tables.VcClasses(); ++vc) {
        for (const auto phase : {topo::Phase::kUp, topo::Phase::kDown}) {
          same = same && now->Entry(node, dst, vc, phase).raw ==
                             tables.Entry(node, dst, vc, phase).raw;
        }
      }
    }
    if (!same || Rejoining(node)) {
      changed.push_back(node);  // a new ROUTE_MODE, tables or PORT_UP
    }
  }
  return changed;
}

}  // namespace lq::net
