// SPDX-License-Identifier: Apache-2.0
// Cluster: the nodes of a topology, each a Node running firmware on its
// board or, in a fabric without boards, a card of routers, transport
// engines and logical units, cabled port to port as the topology says:
// through link controllers and PHYs, or with ideal ports router to router
// (link.fidelity ideal); or, for a card on a bench, one node whose ports
// face partner link ports that train by themselves (their CTRL.ENABLE
// resets to 1). A run of boards ends when every board's firmware has
// finished.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/elf/elf_image.h"
#include "models/network/packet_pool.h"
#include "models/network/router_workspace.h"
#include "models/topology/partition.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/cluster/node.h"
#include "systemc/network/port_cap.h"
#include "systemc/network/router_clock.h"
#include "systemc/parallel/cut_cable.h"
#include "systemc/parallel/cut_slot_link.h"
#include "systemc/parallel/window_sync.h"
#include "systemc/phy/no_cable.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::cluster {

// A parallel run's share of a cluster (decision 0050): only the nodes
// `partition` gives this rank (sync->world().rank()) are built, and each
// cable to another rank's node ends in a parallel::CutSlotLink (ideal
// ports) or a parallel::CutCable (link ports), whichever controller,
// TL or RTL, drives it. So far a cluster without logical units.
struct ClusterShare {
  std::shared_ptr<const topo::Partition> partition;  // none: every node
  parallel::WindowSync* sync = nullptr;
  // Whether `node` is this rank's.
  bool Builds(topo::NodeId node) const {
    return !partition || partition->rank_of.at(node) == sync->world().rank();
  }
};

struct ClusterConfig {
  // Every board's configuration; node_id, ports and the callbacks are set
  // per node by the cluster.
  board::BoardConfig board;
  // False: a fabric's cards have no board (no firmware): their link
  // controllers train by themselves, and their routers route by `routing`,
  // which no firmware has to program (a topology's cluster only).
  bool boards = true;
  std::shared_ptr<const topo::RoutingFunction> routing;
  LinkPortConfig port;
  // Ports whose link controller is the Verilated RTL rather than the TL
  // model, by (node index, port), each with its settings (DESIGN §2:
  // fidelity is chosen per link controller). The rest take `port`, but a
  // port cabled to an RTL one trains at the RTL build's LTSSM time scale
  // (link::kLcRtlLtssmTimeScale), as its far end does (DLL-6.2).
  std::map<std::pair<unsigned, unsigned>, link::RtlLinkControllerConfig>
      rtl_ports;
  // A fabric's nodes: router and interface settings (node, ports, sizes and
  // the initial routing are set per node), and where each node's interface
  // hands up what it receives.
  NodeNetworkConfig network;
  std::function<void(unsigned node, net::Delivered)> on_delivery;
  // Console lines of the node named `node` (e.g. "node12").
  std::function<void(const std::string& node, const std::string& line)>
      on_console_line;
  // Events the CPU of the node named `node` logs, at the CPU's time
  // (board.cpu.log says which).
  std::function<void(const std::string& node, const sc_core::sc_time& at,
                     const std::string& event)>
      on_cpu_log;
  // LTSSM state changes of port `port` of the node named `node`, with the
  // time in ps (for traces).
  std::function<void(const std::string& node, unsigned port,
                     link::LtssmState state, uint64_t at_ps)>
      on_link_state;
  // A parallel run's share of the cluster; unset, every node.
  ClusterShare share;
  // A run of boards ends (sc_stop) once every board has finished or
  // failed. False: its runner asks boards_ended() at each window's end
  // instead (decision 0050), since one rank's sc_stop ends every rank's
  // run.
  bool stop_when_boards_end = true;
};

// Nodes without boards on ideal ports, routed by `routing`, their routers
// and local interfaces set as `router` and `interface` say; the caller
// says what sits at each local port.
ClusterConfig IdealCards(std::shared_ptr<const topo::RoutingFunction> routing,
                         const net::RouterConfig& router,
                         const net::NetworkInterfaceConfig& interface);

// Those cards each with a transport engine, and per `fabric` PFC and ECN
// marking and delivery faults: the stack's cards, the logical fabric's,
// the transport tests'. A caller may then give the ports link controllers.
ClusterConfig EngineCards(std::shared_ptr<const topo::RoutingFunction> routing,
                          const transport::EngineFabricConfig& fabric);

class Cluster : public sc_core::sc_module {
 public:
  // One node per node of `topology`, endpoints first, each with a router
  // whose table is empty until firmware switches in routes (the shadow
  // bank is preset to the fabric's fixed function, e.g. dor on a torus);
  // without boards, a router that routes by `config.routing`. A switch is
  // a router alone (NET-1). Throws std::invalid_argument if the endpoints
  // do not come first, boards come with switches or ideal ports, a node
  // with a board has more ports than a board, boards are off without a
  // routing function, or `rtl_ports` names a port the cluster lacks or an
  // ideal one.
  Cluster(const sc_core::sc_module_name& name, const ClusterConfig& config,
          std::shared_ptr<const topo::Topology> topology);
  // One node ("node0") with `ports` ports, each cabled to a partner port.
  Cluster(const sc_core::sc_module_name& name, const ClusterConfig& config,
          unsigned ports);

  // Loads `image` into every board, or the board's own image in `per_node`
  // (by node index); the first failure's reason.
  Result<uint32_t> Load(const elf::ElfImage& image,
                        const std::map<uint32_t, elf::ElfImage>& per_node = {});

  // Every node, the endpoints' (0..E-1) and then any switches'.
  unsigned node_count() const { return static_cast<unsigned>(nodes_.size()); }
  const ClusterConfig& config() const { return config_; }
  // Whether node `index` is built here: every node, but in a parallel run
  // only this rank's.
  bool built(unsigned index) const { return nodes_.at(index) != nullptr; }
  // Throws std::out_of_range for a node not built here.
  Node& node(unsigned index);
  // Bench mode: the partner port cabled to node0's port `index`.
  LinkPort& partner(unsigned index) { return *partners_.at(index); }
  // The boards built here that have finished, and those an injected
  // failure stopped before they did.
  unsigned finished_nodes() const { return finished_; }
  unsigned failed_nodes() const { return failed_; }
  // Whether every board built here has finished or failed.
  bool boards_ended() const { return finished_ + failed_ == built_; }
  // Every lane of both ends of the cable on node `node`'s port `port`
  // fails now (`cut`, PHY-5.6), or works again. Precondition: the port has
  // a cable between link ports (IsCabled). In a parallel run every rank
  // is told of every cut and acts on the ends it has.
  void CutCable(unsigned node, unsigned port, bool cut);
  // Node `index` fails now (an injected fault, NET-7.8): its board's CPU
  // stops, every cable it has loses its lanes at both ends (PHY-5.6), and
  // its router, if it has one, drops what it holds and moves nothing more.
  // A run of boards then ends when the others have finished. Failing a
  // failed node does nothing. In a parallel run every rank is told and
  // acts on what it has: the node, or the far ends of its cables.
  void FailNode(unsigned index);
  // Node `index`'s board is reset now (an injected fault, Board::Reset):
  // its firmware starts over, and a run of boards waits for it again.
  // False, doing nothing, if the node has failed or has no board; true,
  // doing nothing, on a rank that does not have the node.
  bool ResetNode(unsigned index);
  // The worst exit status of the boards built here: 0 only if every
  // finished board exited with 0.
  int worst_status() const;
  // Whether node `node`'s port `port` has a cable between link ports
  // (the far end on any rank, or a partner in bench mode).
  bool IsCabled(unsigned node, unsigned port) const;
  // The port at the far end of that cable (bench mode: the partner's,
  // whose node is 1).
  topo::PortRef FarPort(unsigned node, unsigned port) const;
  // The ports node `node` has, built here or not.
  unsigned PortCount(unsigned node) const;
  // The PHYs this rank holds of the two ends of that cable: both in one
  // process, one or none over MPI ranks.
  std::vector<phy::PhyPort*> CableEndsHere(unsigned node, unsigned port);
  // The link port at the far end of the cable on node `node`'s port
  // `port`: a neighbour's, or in bench mode the partner's; nullptr if the
  // port has no cable or either end is ideal.
  LinkPort* FarEnd(unsigned node, unsigned port);
  // Link ports in L0 across the cluster (both ends of a link count).
  unsigned ports_up();
  // Those of node `index`, built here.
  unsigned ports_up(unsigned index);
  // Node::SetProbe on every node.
  void SetProbe(PathProbe* probe);
  void FlushConsoles();

 private:
  // `cabled`: bit p, port p has a cable (NET-1.5); unset, every port.
  board::BoardConfig BoardFor(unsigned node_id, const std::string& node_name,
                              unsigned ports,
                              std::optional<uint32_t> cabled = std::nullopt);
  // `port`'s settings for each port of node `node_id`, with its RTL ports'.
  std::vector<LinkPortConfig> PortsFor(unsigned node_id, unsigned ports) const;
  void CheckRtlPorts() const;
  // Tells config_.on_link_state, if set, each LTSSM state of `node`'s
  // link ports.
  void ObserveLinkStates(Node& node, const std::string& node_name);
  NodeNetworkConfig NetworkFor(
      topo::NodeId node,
      const std::shared_ptr<const topo::Topology>& topology) const;
  void CableIdealPort(topo::NodeId id, topo::PortId port,
                      const std::optional<topo::PortRef>& far);
  // A link port's cable to a port on another rank (decision 0050).
  void CableToRank(topo::NodeId id, topo::PortId port, topo::PortRef far);
  void OnBoardExit();
  // Ends a run of boards once every board has finished or failed.
  void StopWhenBoardsEnd();
  void ConnectLogicalUnits();

  ClusterConfig config_;
  std::shared_ptr<const topo::Topology> topology_;  // none in bench mode
  // Runs every node's router (decision 0049); holds the packets crossing
  // its ideal links and the allocators' working state the routers share
  // (decision 0053).
  std::shared_ptr<net::RouterClock> router_clock_;
  std::shared_ptr<net::PacketPool> router_pool_;
  std::shared_ptr<net::RouterWorkspace> router_workspace_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<phy::NoCable>> no_cables_;  // NET-1.5
  std::vector<std::unique_ptr<net::PortCap>> caps_;       // ideal, NET-1.5
  std::vector<std::unique_ptr<parallel::CutSlotLink>> cut_links_;
  std::vector<std::unique_ptr<parallel::CutCable>> cut_cables_;
  std::vector<std::unique_ptr<LinkPort>> partners_;  // bench mode only
  std::vector<std::unique_ptr<link::SlotSink>> partner_sinks_;
  unsigned built_ = 0;             // nodes built here
  unsigned finished_ = 0;          // boards built here
  unsigned failed_ = 0;            // ... failed before their firmware finished
  std::vector<bool> node_failed_;  // every node's, by index
};

}  // namespace lq::cluster
