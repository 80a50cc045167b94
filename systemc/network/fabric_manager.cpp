// FabricManager: reports in, one route update per burst, NET-7.7's steps.
#include "systemc/network/fabric_manager.h"

#include <algorithm>
#include <set>

#include "models/topology/table_routing.h"

namespace lq::net {

FabricManager::FabricManager(const sc_core::sc_module_name& name,
                             std::shared_ptr<const topo::Topology> topology,
                             std::vector<Router*> routers,
                             std::vector<NetworkInterface*> interfaces,
                             const FabricManagerConfig& config)
    : sc_module(name),
      topology_(std::move(topology)),
      routers_(std::move(routers)),
      interfaces_(std::move(interfaces)),
      config_(config),
      node_failed_(topology_->NodeCount(), false) {
  SC_HAS_PROCESS(FabricManager);
  SC_THREAD(Run);
}

void FabricManager::ReportLinkDown(topo::NodeId node, topo::PortId port) {
  reports_.push_back(
      {sc_core::sc_time_stamp() + config_.oob_latency, {node, port}, false});
  report_arrived_.notify(config_.oob_latency);
}

void FabricManager::ReportLinkUp(topo::NodeId node, topo::PortId port) {
  reports_.push_back(
      {sc_core::sc_time_stamp() + config_.oob_latency, {node, port}, true});
  report_arrived_.notify(config_.oob_latency);
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
    if (report.up) {
      coming_up_.insert(link);
      last_up_ = report.arrives;
      continue;
    }
    coming_up_.erase(link);  // down again: its restore is off
    bool failed = false;
    for (const topo::PortRef& end : failures_.links) {
      failed = failed || LinkOf(end) == link;
    }
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
    if (!going_down_.empty()) {
      if (first_down_ + config_.holdoff > now) {
        wait(first_down_ + config_.holdoff - now);
        continue;
      }
      update.first_event = first_down_;
      for (const auto& [node, port] : going_down_) {
        failures_.links.push_back({node, port});
      }
      going_down_.clear();
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
        wait(reports_[taken_].arrives - now);
      } else {
        wait(report_arrived_);
      }
      continue;
    }
    Update(update);
    rejoining_.clear();
    updates_.push_back(update);
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
    bool all_down = !node_failed_[node];
    for (topo::PortId p = 0; all_down && p < topology_->PortCount(node); ++p) {
      all_down = !topology_->Neighbour(node, p) || down.count({node, p}) > 0;
    }
    if (all_down) {
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

uint8_t FabricManager::ClusterEpoch() const {
  for (topo::NodeId n = 0; n < routers_.size(); ++n) {
    if (Working(n) && !Rejoining(n)) {
      return routers_[n]->epoch();
    }
  }
  return 0;
}

size_t FabricManager::WorkingCount() const {
  size_t working = 0;
  for (topo::NodeId node = 0; node < routers_.size(); ++node) {
    working += Working(node);
  }
  return working;
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
  std::shared_ptr<const topo::RoutingFunction> next = std::move(tables).value();
  update.computed = sc_core::sc_time_stamp();
  std::set<std::pair<topo::NodeId, topo::PortId>> links;
  for (const topo::PortRef& end : failures_.links) {
    links.insert(LinkOf(end));
  }
  update.failed_links = static_cast<unsigned>(links.size());
  update.failed_nodes = static_cast<unsigned>(failures_.nodes.size());
  update.restored_nodes = static_cast<unsigned>(rejoining_.size());
  const size_t working = WorkingCount();

  // 2. Write: TABLE_WRITE only to the nodes whose routes change (direct
  // notification). Every shadow bank then holds the new tables: the others'
  // already equal them.
  update.changed_nodes = static_cast<unsigned>(ChangedNodes(*next).size());
  Exchange(update, update.changed_nodes,
           [&](topo::NodeId n) { routers_[n]->WriteShadowRouting(next); });
  // A rejoining node restarted in epoch 0 (NET-7.12): if the others are in
  // epoch 1 it switches once now, frozen and unreachable, and has its
  // shadow bank written again, so that step 5 flips it with them.
  const bool rejoining_behind = !rejoining_.empty() && ClusterEpoch() == 1;
  if (rejoining_behind) {
    Exchange(update, rejoining_.size(), [&](topo::NodeId n) {
      if (Rejoining(n)) {
        routers_[n]->SwitchRouting();
      }
    });
    Exchange(update, rejoining_.size(), [&](topo::NodeId n) {
      if (Rejoining(n)) {
        routers_[n]->WriteShadowRouting(next);
      }
    });
  }

  // 3. Freeze every working endpoint's injection.
  Exchange(update, working, [&](topo::NodeId n) {
    if (interfaces_[n] != nullptr) {
      interfaces_[n]->SetFrozen(true);
    }
  });
  update.frozen = sc_core::sc_time_stamp();

  // 4. Drain: count until every admitted packet is ejected or dropped.
  const sc_core::sc_time deadline =
      sc_core::sc_time_stamp() + config_.drain_timeout;
  for (;;) {
    Exchange(update, working, nullptr);  // COUNT_REQ, COUNT_REP
    ++update.drain_rounds;
    if (Drained()) {
      update.drained = true;
      break;
    }
    if (sc_core::sc_time_stamp() >= deadline) {
      break;
    }
  }

  // 5. Switch banks and epochs; 6. resume injection in the new epoch.
  Exchange(update, working, [&](topo::NodeId n) {
    routers_[n]->SwitchRouting();
    if (interfaces_[n] != nullptr) {
      interfaces_[n]->SetEpoch(routers_[n]->epoch());
    }
  });
  update.switched = sc_core::sc_time_stamp();
  Exchange(update, working, [&](topo::NodeId n) {
    if (interfaces_[n] != nullptr) {
      interfaces_[n]->SetFrozen(false);
    }
  });
  update.resumed = sc_core::sc_time_stamp();
}

void FabricManager::Exchange(
    RouteUpdate& update, size_t messages,
    const std::function<void(topo::NodeId)>& on_arrival) {
  wait(config_.oob_latency);
  if (on_arrival) {
    for (topo::NodeId n = 0; n < routers_.size(); ++n) {
      if (Working(n)) {
        on_arrival(n);
      }
    }
  }
  wait(config_.oob_latency);
  update.messages += 2 * messages;
}

std::vector<topo::NodeId> FabricManager::ChangedNodes(
    const topo::RoutingFunction& next) const {
  const auto& tables = static_cast<const topo::TableRouting&>(next);
  std::vector<topo::NodeId> changed;
  for (topo::NodeId node = 0; node < routers_.size(); ++node) {
    if (!Working(node)) {
      continue;
    }
    const auto* now =
        dynamic_cast<const topo::TableRouting*>(&routers_[node]->routing());
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

// NET-7.7 step 4's sums over the working nodes (the COUNT_REPs): packets
// injected against those ejected or dropped. Packets lost inside a failed
// node keep them apart until the drain times out, or until the node is
// back with its counts (NET-7.12).
bool FabricManager::Drained() const {
  uint64_t injected = 0, gone = 0;
  for (topo::NodeId n = 0; n < routers_.size(); ++n) {
    if (Working(n)) {
      injected += interfaces_[n] != nullptr ? interfaces_[n]->injected() : 0;
      gone +=
          routers_[n]->counters().ejected + routers_[n]->counters().Dropped();
    }
  }
  return injected == gone;
}

}  // namespace lq::net
