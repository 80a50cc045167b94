// Cluster: declare the nodes, cable them, and end the run with the last
// board.
#include "systemc/cluster/cluster.h"

#include <cstdlib>
#include <stdexcept>

namespace lq::cluster {

board::BoardConfig Cluster::BoardFor(unsigned node_id,
                                     const std::string& node_name,
                                     unsigned ports) {
  board::BoardConfig board = config_.board;
  board.node_id = node_id;
  board.ports = ports;
  board.on_console_line = [this, node_name](const std::string& line) {
    config_.on_console_line(node_name, line);
  };
  board.on_exit = [this](int status) { OnBoardExit(status); };
  return board;
}

Cluster::Cluster(const sc_core::sc_module_name& name,
                 const ClusterConfig& config, const topo::Topology& topology)
    : sc_module(name), config_(config) {
  for (topo::NodeId id = 0; id < topology.EndpointCount(); ++id) {
    const std::string node_name = topology.NodeName(id);
    const unsigned ports = topology.PortCount(id);
    if (ports > board::AddressMap::kMaxPorts) {
      throw std::invalid_argument(node_name + " has " + std::to_string(ports) +
                                  " ports; a board maps at most 8");
    }
    nodes_.push_back(std::make_unique<Node>(
        node_name.c_str(), BoardFor(id, node_name, ports), config.port));
  }
  for (topo::NodeId id = 0; id < topology.EndpointCount(); ++id) {
    for (topo::PortId port = 0; port < topology.PortCount(id); ++port) {
      const auto far = topology.Neighbour(id, port);
      if (!far || !topology.IsEndpoint(far->node)) {
        throw std::invalid_argument(topology.PortName(id, port) +
                                    " is not cabled to another card");
      }
      // Each cable once, from its lower end.
      if (far->node > id || (far->node == id && far->port > port)) {
        Connect(nodes_[id]->port(port).cable(),
                nodes_[far->node]->port(far->port).cable());
      }
    }
  }
}

Cluster::Cluster(const sc_core::sc_module_name& name,
                 const ClusterConfig& config, unsigned ports)
    : sc_module(name), config_(config) {
  nodes_.push_back(std::make_unique<Node>("node0", BoardFor(0, "node0", ports),
                                          config.port));
  for (unsigned p = 0; p < ports; ++p) {
    LinkPortConfig partner = config.port;
    partner.phy.seed = config.port.phy.seed * 64 + 32 + p;
    partners_.push_back(std::make_unique<LinkPort>(
        ("partner" + std::to_string(p)).c_str(), partner));
    Connect(nodes_[0]->port(p).cable(), partners_.back()->cable());
    partner_csr_.push_back(
        std::make_unique<tlm_utils::simple_initiator_socket<Cluster>>(
            ("partner_csr" + std::to_string(p)).c_str()));
    partner_csr_.back()->bind(partners_.back()->controller.csr);
  }
}

Result<uint32_t> Cluster::Load(const elf::ElfImage& image) {
  uint32_t entry = 0;
  for (auto& node : nodes_) {
    auto loaded = node->board().Load(image);
    if (!loaded.ok()) {
      return loaded.error();
    }
    entry = *loaded;
  }
  return entry;
}

void Cluster::OnBoardExit(int status) {
  ++finished_;
  if (status != 0 && (worst_status_ == 0 || status > worst_status_)) {
    worst_status_ = status;
  }
  if (finished_ == nodes_.size()) {
    sc_core::sc_stop();
  }
}

unsigned Cluster::ports_up() {
  unsigned up = 0;
  for (auto& node : nodes_) {
    for (unsigned p = 0; p < node->port_count(); ++p) {
      if (node->port(p).controller.ltssm_state() == link::LtssmState::kL0) {
        ++up;
      }
    }
  }
  return up;
}

void Cluster::FlushConsoles() {
  for (auto& node : nodes_) {
    node->board().FlushConsole();
  }
}

}  // namespace lq::cluster
