// FabricManager: reports in, one route update per burst, NET-7.7's steps.
#include "systemc/network/fabric_manager.h"

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
      config_(config) {
  SC_HAS_PROCESS(FabricManager);
  SC_THREAD(Run);
}

void FabricManager::ReportLinkDown(topo::NodeId node, topo::PortId port) {
  reports_.push_back(
      {sc_core::sc_time_stamp() + config_.oob_latency, {node, port}});
  report_arrived_.notify(config_.oob_latency);
}

// After the first report of a burst, wait fm.holdoff so that the other end
// of the link (or a node's other links) are reported too (NET-7.6); reports
// that come in during an update start the next one.
void FabricManager::Run() {
  size_t included = 0;
  for (;;) {
    if (included == reports_.size()) {
      wait(report_arrived_);
      continue;
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (reports_[included].arrives > now) {
      wait(reports_[included].arrives - now);
    }
    RouteUpdate update;
    update.first_event = sc_core::sc_time_stamp();
    wait(config_.holdoff);
    while (included < reports_.size() &&
           reports_[included].arrives <= sc_core::sc_time_stamp()) {
      failures_.links.push_back(reports_[included].port);
      ++included;
    }
    Update(update);
    updates_.push_back(update);
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
  std::shared_ptr<const topo::RoutingFunction> next = std::move(tables).value();
  update.computed = sc_core::sc_time_stamp();
  std::set<std::pair<topo::NodeId, topo::PortId>> links;
  for (const topo::PortRef& end : failures_.links) {
    const auto far = topology_->Neighbour(end.node, end.port);
    links.insert(std::min(std::make_pair(end.node, end.port),
                          std::make_pair(far->node, far->port)));
  }
  update.failed_links = static_cast<unsigned>(links.size());

  // 2. Write: TABLE_WRITE only to the nodes whose routes change (direct
  // notification). Every shadow bank then holds the new tables: the others'
  // already equal them.
  update.changed_nodes = static_cast<unsigned>(ChangedNodes(*next).size());
  wait(config_.oob_latency);
  for (Router* router : routers_) {
    router->WriteShadowRouting(next);
  }
  wait(config_.oob_latency);
  update.messages += 2 * update.changed_nodes;

  // 3. Freeze every endpoint's injection.
  wait(config_.oob_latency);
  for (NetworkInterface* interface : interfaces_) {
    interface->SetFrozen(true);
  }
  wait(config_.oob_latency);
  update.messages += 2 * interfaces_.size();
  update.frozen = sc_core::sc_time_stamp();

  // 4. Drain: count until every admitted packet is ejected or dropped.
  const sc_core::sc_time deadline =
      sc_core::sc_time_stamp() + config_.drain_timeout;
  for (;;) {
    RoundTrip(update, routers_.size());
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
  wait(config_.oob_latency);
  for (size_t n = 0; n < routers_.size(); ++n) {
    routers_[n]->SwitchRouting();
    interfaces_[n]->SetEpoch(routers_[n]->epoch());
  }
  wait(config_.oob_latency);
  update.messages += 2 * routers_.size();
  update.switched = sc_core::sc_time_stamp();
  wait(config_.oob_latency);
  for (NetworkInterface* interface : interfaces_) {
    interface->SetFrozen(false);
  }
  wait(config_.oob_latency);
  update.messages += 2 * interfaces_.size();
  update.resumed = sc_core::sc_time_stamp();
}

void FabricManager::RoundTrip(RouteUpdate& update, size_t nodes) {
  wait(2 * config_.oob_latency);
  update.messages += 2 * nodes;
}

std::vector<topo::NodeId> FabricManager::ChangedNodes(
    const topo::RoutingFunction& next) const {
  const auto* now =
      dynamic_cast<const topo::TableRouting*>(&routers_.front()->routing());
  const auto& tables = static_cast<const topo::TableRouting&>(next);
  std::vector<topo::NodeId> changed;
  for (topo::NodeId node = 0; node < routers_.size(); ++node) {
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
    if (!same) {
      changed.push_back(node);  // a new ROUTE_MODE, tables or PORT_UP
    }
  }
  return changed;
}

// NET-7.7 step 4's sums: packets admitted at every local port against
// those ejected or dropped anywhere.
bool FabricManager::Drained() const {
  uint64_t admitted = 0, gone = 0;
  for (const NetworkInterface* interface : interfaces_) {
    admitted += interface->admitted();
  }
  for (const Router* router : routers_) {
    gone += router->counters().ejected + router->counters().Dropped();
  }
  return admitted == gone;
}

}  // namespace lq::net
