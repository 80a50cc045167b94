// Network: a router per node, a source per endpoint, a channel per cable.
#include "systemc/network/network.h"

#include <stdexcept>
#include <string>

#include "systemc/network/out_of_band_channel.h"
#include "systemc/network/router_registers.h"

namespace lq::net {

Network::Network(const sc_core::sc_module_name& name,
                 std::shared_ptr<const topo::Topology> topology,
                 std::shared_ptr<const topo::RoutingFunction> routing,
                 std::shared_ptr<const TrafficPattern> pattern,
                 const NetworkConfig& config)
    : sc_module(name),
      topology_(topology),
      flush_(config.link_latency +
             sc_core::sc_time(config.router.clock_ns, sc_core::SC_NS) *
                 (config.router.sa_cycles + config.router.st_cycles + 1)) {
  const uint32_t nodes = topology->EndpointCount();
  for (topo::NodeId n = 0; n < topology->NodeCount(); ++n) {
    if (topology->IsEndpoint(n) != (n < nodes)) {
      throw std::invalid_argument(topology->Describe() +
                                  ": endpoints must come first (NET-1)");
    }
    RouterConfig router = config.router;
    router.node = n;
    router.network_ports = topology->PortCount(n);
    router.local_port = n < nodes;
    router.routing = routing;
    router.nodes = nodes;
    routers_.push_back(std::make_unique<Router>(
        ("router" + std::to_string(n)).c_str(), router));
    if (!router.local_port) {
      continue;  // a switch
    }
    NetworkInterfaceConfig interface = config.interface;
    interface.node = static_cast<uint16_t>(n);
    interface.nodes = nodes;
    TrafficConfig traffic = config.traffic;
    traffic.seed = config.traffic.seed + n;
    sources_.push_back(std::make_unique<TrafficSource>(
        ("source" + std::to_string(n)).c_str(), interface, traffic, pattern));
    link::SlotSocket& local =
        routers_.back()->port(routers_.back()->local_port());
    if (config.interface_latency > sc_core::SC_ZERO_TIME) {
      interface_channels_.push_back(std::make_unique<SlotChannel>(
          ("interface" + std::to_string(n)).c_str(), config.interface_latency));
      Connect(local, interface_channels_.back()->a);
      Connect(sources_.back()->socket(), interface_channels_.back()->b);
    } else {
      Connect(local, sources_.back()->socket());
    }
    routers_.back()->registers().SetHooks(
        LocalPortHooks(sources_.back()->interface()));
  }
  for (topo::NodeId n = 0; n < topology->NodeCount(); ++n) {
    for (unsigned p = 0; p < topology->PortCount(n); ++p) {
      const auto far = topology->Neighbour(n, p);
      if (!far) {  // a ring of one, a switch's empty host slot (NET-1.5)
        caps_.push_back(std::make_unique<PortCap>(
            ("cap" + std::to_string(caps_.size())).c_str()));
        Connect(routers_[n]->port(p), caps_.back()->socket);
        continue;
      }
      if (far->node > n || (far->node == n && far->port > p)) {
        channels_.push_back(std::make_unique<SlotChannel>(
            ("link" + std::to_string(channels_.size())).c_str(),
            config.link_latency));
        Connect(routers_[n]->port(p), channels_.back()->a);
        Connect(routers_[far->node]->port(far->port), channels_.back()->b);
      }
    }
  }
  if (config.watchdog_window > sc_core::SC_ZERO_TIME) {
    std::vector<Router*> routers;
    for (auto& router : routers_) {
      routers.push_back(router.get());
    }
    watchdog_ = std::make_unique<DeadlockWatchdog>(
        "watchdog", std::move(routers), topology, config.watchdog_window,
        [this] {
          for (const auto& source : sources_) {
            if (!source->finished()) {
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
    std::vector<Router*> routers;
    std::vector<NetworkInterface*> interfaces;
    for (topo::NodeId n = 0; n < routers_.size(); ++n) {
      routers.push_back(routers_[n].get());
      interfaces.push_back(n < nodes ? &sources_[n]->interface() : nullptr);
    }
    fabric_manager_ = std::make_unique<FabricManager>(
        "fabric_manager", topology, routing,
        std::make_unique<OutOfBandChannel>(std::move(routers),
                                           std::move(interfaces),
                                           config.fabric_manager->oob_latency),
        *config.fabric_manager);
  }
}

// The builder presets the management tree, as it presets the routes; the
// manager rewrites it after each failure (NET-7.7 step 1).
void Network::BuildInBandManagement(
    const NetworkConfig& network,
    std::shared_ptr<const topo::RoutingFunction> routing) {
  const FabricManagerConfig& config = *network.fabric_manager;
  const topo::NodeId manager = *config.node;
  if (topology_->EndpointCount() != topology_->NodeCount()) {
    throw std::invalid_argument(
        "an in-band fabric manager needs a topology without switches "
        "(NET-7.4: a switch has no local port to hear it)");
  }
  if (manager >= sources_.size()) {
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
  NetworkInterface& local = sources_[manager]->interface();
  for (topo::NodeId n = 0; n < sources_.size(); ++n) {
    routers_[n]->SetMgmtParentPort(
        static_cast<uint8_t>(shared_tree->ParentPort(n)));
    NetworkInterface& here = sources_[n]->interface();
    agents_.push_back(std::make_unique<ManagementAgent>(
        ("agent" + std::to_string(n)).c_str(), n, config.timers,
        [this, n, manager, &here](const MgmtMessage& message) {
          if (n == manager) {
            in_band_->Receive(message);
          } else {
            here.SendMgmt(static_cast<uint16_t>(manager), EncodeMgmt(message));
          }
        }));
    agents_.back()->bus().socket.bind(routers_[n]->csr());
  }
  std::vector<ManagementAgent*> agents;
  for (const auto& agent : agents_) {
    agents.push_back(agent.get());
  }
  auto channel = std::make_unique<InBandChannel>(
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
  for (topo::NodeId n = 0; n < sources_.size(); ++n) {
    ManagementAgent& agent = *agents_[n];
    sources_[n]->interface().SetMgmtHandler(
        [this, n, manager, &agent](Delivered delivered) {
          if (n != manager) {
            agent.ReceivePayload(delivered.payload);
            return;
          }
          Result<MgmtMessage> message = DecodeMgmt(delivered.payload);
          if (message) {
            in_band_->Receive(*message);
          }
        });
  }
  fabric_manager_ = std::make_unique<FabricManager>(
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
  if (node >= sources_.size()) {
    throw std::invalid_argument("no endpoint " + std::to_string(node));
  }
  TrafficSource& source = *sources_[node];
  Router& router = *routers_[node];
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
  router.Fail(handed_over, never_admitted);
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    const auto far = topology_->Neighbour(node, p);
    if (!far) {
      continue;
    }
    routers_[far->node]->SetPortDown(far->port, flush_);
    ReportLink(far->node, far->port, false);
  }
}

void Network::RestoreNode(topo::NodeId node) {
  if (node >= sources_.size() || !routers_[node]->failed()) {
    throw std::invalid_argument("no failed endpoint " + std::to_string(node) +
                                " to restore");
  }
  TrafficSource& source = *sources_[node];
  Router& router = *routers_[node];
  router.Restore();
  source.interface().Restore();
  router.SetPortUp(router.local_port());
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
      node < routers_.size() ? topology_->Neighbour(node, port) : std::nullopt;
  if (!far) {
    throw std::invalid_argument("no cable on node " + std::to_string(node) +
                                " port " + std::to_string(port));
  }
  routers_[node]->SetPortDown(port, flush_);
  routers_[far->node]->SetPortDown(far->port, flush_);
  ReportLink(node, port, false);
  ReportLink(far->node, far->port, false);
}

void Network::RestoreLink(topo::NodeId node, topo::PortId port) {
  const auto far =
      node < routers_.size() ? topology_->Neighbour(node, port) : std::nullopt;
  if (!far || !routers_[node]->port_down(port)) {
    throw std::invalid_argument("node " + std::to_string(node) + " port " +
                                std::to_string(port) +
                                " has no cut link to restore");
  }
  routers_[node]->SetPortUp(port);
  routers_[far->node]->SetPortUp(far->port);
  ReportLink(node, port, true);
  ReportLink(far->node, far->port, true);
}

}  // namespace lq::net
