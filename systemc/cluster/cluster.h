// Cluster: the nodes of a topology, each a Node running firmware on its
// board, cabled port to port as the topology says; or, for a card on a
// bench, one node whose ports face partner link ports that train by
// themselves (their CTRL.ENABLE resets to 1). The run ends when every
// board's firmware has finished.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/elf/elf_image.h"
#include "models/topology/topology.h"
#include "systemc/cluster/node.h"

namespace lq::cluster {

struct ClusterConfig {
  // Every board's configuration; node_id, ports and the callbacks are set
  // per node by the cluster.
  board::BoardConfig board;
  LinkPortConfig port;
  // Console lines of the node named `node` (e.g. "node12").
  std::function<void(const std::string& node, const std::string& line)>
      on_console_line;
};

class Cluster : public sc_core::sc_module {
 public:
  // One node per endpoint of `topology`. Throws std::invalid_argument if an
  // endpoint port is uncabled or a node has more ports than a board.
  Cluster(const sc_core::sc_module_name& name, const ClusterConfig& config,
          const topo::Topology& topology);
  // One node ("node0") with `ports` ports, each cabled to a partner port.
  Cluster(const sc_core::sc_module_name& name, const ClusterConfig& config,
          unsigned ports);

  // Loads the image into every board; the first failure's reason.
  Result<uint32_t> Load(const elf::ElfImage& image);

  unsigned node_count() const { return static_cast<unsigned>(nodes_.size()); }
  Node& node(unsigned index) { return *nodes_.at(index); }
  // Bench mode: the partner port cabled to node0's port `index`.
  LinkPort& partner(unsigned index) { return *partners_.at(index); }
  unsigned finished_nodes() const { return finished_; }
  // The worst exit status: 0 only if every finished board exited with 0.
  int worst_status() const { return worst_status_; }
  // Ports in L0 across the cluster (both ends of a link count).
  unsigned ports_up();
  void FlushConsoles();

 private:
  board::BoardConfig BoardFor(unsigned node_id, const std::string& node_name,
                              unsigned ports);
  void OnBoardExit(int status);

  ClusterConfig config_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<LinkPort>> partners_;  // bench mode only
  // Partners have no board; their register sockets still need a peer.
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Cluster>>>
      partner_csr_;
  unsigned finished_ = 0;
  int worst_status_ = 0;
};

}  // namespace lq::cluster
