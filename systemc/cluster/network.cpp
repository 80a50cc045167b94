// Network: the study's cards from a Cluster, and its fabric manager and
// failures.
#include "systemc/cluster/network.h"

#include <stdexcept>
#include <string>

#include "systemc/network/out_of_band_channel.h"
#include "systemc/network/router_registers.h"

namespace lq::cluster {

ClusterConfig Network::CardsOf(
    std::shared_ptr<const topo::RoutingFunction> routing,
    std::shared_ptr<const net::TrafficPattern> pattern,
    const net::NetworkConfig& config) {
  ClusterConfig cards =
      IdealCards(std::move(routing), config.router, config.interface);
  cards.port.ideal_latency = config.link_latency;
  cards.network.traffic = config.traffic;
  cards.network.pattern = std::move(pattern);
  cards.network.interface_latency = config.interface_latency;
  return cards;
}

Network::Network(const sc_core::sc_module_name& name,
                 std::shared_ptr<const topo::Topology> topology,
                 std::shared_ptr<const topo::RoutingFunction> routing,
                 std::shared_ptr<const net::TrafficPattern> pattern,
                 const net::NetworkConfig& config)
    : sc_module(name),
      topology_(topology),
      flush_(config.link_latency +
             sc_core::sc_time(config.router.clock_ns, sc_core::SC_NS) *
                 (config.router.sa_cycles + config.router.st_cycles + 1)),
      cluster_("cluster", CardsOf(routing, std::move(pattern), config),
               topology) {
  if (config.watchdog_window > sc_core::SC_ZERO_TIME) {
    std::vector<net::Router*> routers;
    for (unsigned n = 0; n < cluster_.node_count(); ++n) {
      routers.push_back(&router(n));
    }
    watchdog_ = std::make_unique<net::DeadlockWatchdog>(
        "watchdog", std::move(routers), topology, config.watchdog_window,
        [this] {
          for (unsigned n = 0; n < nodes(); ++n) {
            if (!source(n).finished()) {
              return true;
            }
          }
          return false;
        },
        config.stop_on_deadlock);
  }
  if (config.fabric_manager && config.fabric_manager->node) {
    BuildInBandManagement(config, routing);
  } else if (config.fabric_manager) {
    std::vector<net::Router*> routers;
    std::vector<net::NetworkInterface*> interfaces;
    for (topo::NodeId n = 0; n < cluster_.node_count(); ++n) {
      routers.push_back(&router(n));
      interfaces.push_back(cluster_.node(n).interface());
    }
    fabric_manager_ = std::make_unique<net::FabricManager>(
        "fabric_manager", topology, routing,
        std::make_unique<net::OutOfBandChannel>(
            std::move(routers), std::move(interfaces),
            config.fabric_manager->oob_latency),
        *config.fabric_manager);
  }
}

std::vector<net::TrafficSource*> Network::sources() {
  std::vector<net::TrafficSource*> sources;
  for (unsigned n = 0; n < nodes(); ++n) {
    sources.push_back(&source(n));
  }
  return sources;
}

net::TrafficSource& Network::source(unsigned node) {
  net::TrafficSource* source =
      node < nodes() ? cluster_.node(node).source() : nullptr;
  if (source == nullptr) {
    throw std::out_of_range("no endpoint " + std::to_string(node));
  }
  return *source;
}

// The builder presets the management tree, as it presets the routes; the
// manager rewrites it after each failure (NET-7.7 step 1).
void Network::BuildInBandManagement(
    const net::NetworkConfig& network,
    std::shared_ptr<const topo::RoutingFunction> routing) {
  const net::FabricManagerConfig& config = *network.fabric_manager;
  const topo::NodeId manager = *config.node;
  if (topology_->EndpointCount() != topology_->NodeCount()) {
    throw std::invalid_argument(
        "an in-band fabric manager needs a topology without switches "
        "(NET-7.4: a switch has no local port to hear it)");
  }
  if (manager >= nodes()) {
    throw std::invalid_argument("fm.placement: no endpoint " +
                                std::to_string(manager) + " in " +
                                topology_->Describe());
  }
  if (network.interface.vc_sets < 2) {
    throw std::invalid_argument(
        "an in-band fabric manager needs net.vc_sets >= 2: set S-1 carries "
        "MGMT packets only (NET-3.5)");
  }
  auto tree = topo::ManagementTree::Compute(*topology_, manager);
  if (!tree) {
    throw std::invalid_argument(tree.error().reason);
  }
  const auto shared_tree =
      std::make_shared<const topo::ManagementTree>(std::move(tree).value());
  manager_ = manager;
  net::NetworkInterface& local = source(manager).interface();
  for (topo::NodeId n = 0; n < nodes(); ++n) {
    router(n).SetMgmtParentPort(
        static_cast<uint8_t>(shared_tree->ParentPort(n)));
    net::NetworkInterface& here = source(n).interface();
    agents_.push_back(std::make_unique<net::ManagementAgent>(
        ("agent" + std::to_string(n)).c_str(), n, config.timers,
        [this, n, manager, &here](const net::MgmtMessage& message) {
          if (n == manager) {
            in_band_->Receive(message);
          } else {
            here.SendMgmt(static_cast<uint16_t>(manager),
                          net::EncodeMgmt(message));
          }
        }));
    agents_.back()->bus().socket.bind(router(n).csr());
  }
  std::vector<net::ManagementAgent*> agents;
  for (const auto& agent : agents_) {
    agents.push_back(agent.get());
  }
  auto channel = std::make_unique<net::InBandChannel>(
      manager, local, std::move(agents), config.timers,
      network.interface.max_payload, shared_tree,
      [this](topo::NodeId node, topo::PortId port, bool up) {
        if (up) {
          fabric_manager_->ReportLinkUp(node, port);
        } else {
          fabric_manager_->ReportLinkDown(node, port);
        }
      });
  in_band_ = channel.get();
  for (topo::NodeId n = 0; n < nodes(); ++n) {
    net::ManagementAgent& agent = *agents_[n];
    source(n).interface().SetMgmtHandler(
        [this, n, manager, &agent](net::Delivered delivered) {
          if (n != manager) {
            agent.ReceivePayload(delivered.payload);
            return;
          }
          Result<net::MgmtMessage> message = net::DecodeMgmt(delivered.payload);
          if (message) {
            in_band_->Receive(*message);
          }
        });
  }
  fabric_manager_ = std::make_unique<net::FabricManager>(
      "fabric_manager", topology_, routing, std::move(channel), config);
}

void Network::ReportLink(topo::NodeId node, topo::PortId port, bool up) {
  if (!agents_.empty()) {
    agents_.at(node)->OnLinkEvent(port, up);
  } else if (fabric_manager_ && up) {
    fabric_manager_->ReportLinkUp(node, port);
  } else if (fabric_manager_) {
    fabric_manager_->ReportLinkDown(node, port);
  }
}

void Network::FailNode(topo::NodeId node) {
  if (node >= nodes()) {
    throw std::invalid_argument("no endpoint " + std::to_string(node));
  }
  net::TrafficSource& source = this->source(node);
  net::Router& failed = router(node);
  if (manager_ == node) {
    throw std::invalid_argument(
        "node " + std::to_string(node) +
        " is the in-band fabric manager's: nothing would repair its failure");
  }
  if (!agents_.empty()) {
    agents_[node]->Fail();
  }
  source.Stop();
  const uint64_t handed_over = source.interface().injected();
  const uint64_t never_admitted = source.interface().Fail();
  failed.Fail(handed_over, never_admitted);
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    const auto far = topology_->Neighbour(node, p);
    if (!far) {
      continue;
    }
    router(far->node).SetPortDown(far->port, flush_);
    ReportLink(far->node, far->port, false);
  }
}

void Network::RestoreNode(topo::NodeId node) {
  if (node >= nodes() || !router(node).failed()) {
    throw std::invalid_argument("no failed endpoint " + std::to_string(node) +
                                " to restore");
  }
  net::TrafficSource& source = this->source(node);
  net::Router& restored = router(node);
  restored.Restore();
  source.interface().Restore();
  restored.SetPortUp(restored.local_port());
  if (!agents_.empty()) {
    agents_[node]->Restore();
  }
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    if (topology_->Neighbour(node, p)) {
      RestoreLink(node, p);  // Fail() took every port down
    }
  }
  source.Resume();
}

void Network::CutLink(topo::NodeId node, topo::PortId port) {
  const auto far =
      node < routers() ? topology_->Neighbour(node, port) : std::nullopt;
  if (!far) {
    throw std::invalid_argument("no cable on node " + std::to_string(node) +
                                " port " + std::to_string(port));
  }
  router(node).SetPortDown(port, flush_);
  router(far->node).SetPortDown(far->port, flush_);
  ReportLink(node, port, false);
  ReportLink(far->node, far->port, false);
}

void Network::RestoreLink(topo::NodeId node, topo::PortId port) {
  const auto far =
      node < routers() ? topology_->Neighbour(node, port) : std::nullopt;
  if (!far || !router(node).port_down(port)) {
    throw std::invalid_argument("node " + std::to_string(node) + " port " +
                                std::to_string(port) +
                                " has no cut link to restore");
  }
  router(node).SetPortUp(port);
  router(far->node).SetPortUp(far->port);
  ReportLink(node, port, true);
  ReportLink(far->node, far->port, true);
}

}  // namespace lq::cluster
