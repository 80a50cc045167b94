// Node: the board with its link ports and, on a fabric, its router.
#include "systemc/cluster/node.h"

#include "models/flit/dlp.h"
#include "systemc/network/router_registers.h"

namespace lq::cluster {
namespace {

board::BoardConfig WithRouter(board::BoardConfig board, bool router) {
  board.router = router;
  return board;
}

}  // namespace

Node::Node(const sc_core::sc_module_name& name, const board::BoardConfig& board,
           const LinkPortConfig& port,
           const std::optional<NodeNetworkConfig>& network)
    : sc_module(name), board_("board", WithRouter(board, network.has_value())) {
  for (unsigned p = 0; p < board.ports; ++p) {
    LinkPortConfig config = port;
    config.phy.seed = port.phy.seed * 64 + p;  // one error stream per port
    ports_.push_back(std::make_unique<LinkPort>(
        ("port" + std::to_string(p)).c_str(), config));
    board_.AttachLinkController(p, ports_.back()->controller.csr,
                                ports_.back()->irq);
  }
  if (!network) {
    for (unsigned p = 0; p < board.ports; ++p) {
      sinks_.push_back(std::make_unique<link::SlotSink>(
          ("sink" + std::to_string(p)).c_str(), flit::kLinkVcs,
          port.controller.tx_slots_per_vc));
      Connect(ports_[p]->controller.network, sinks_.back()->socket);
    }
    return;
  }
  net::RouterConfig router = network->router;
  router.network_ports = board.ports;
  router.local_port = true;
  router_ = std::make_unique<net::Router>("router", router);
  interface_ = std::make_unique<net::NetworkInterface>(
      "interface", network->interface, network->on_delivery);
  for (unsigned p = 0; p < board.ports; ++p) {
    Connect(ports_[p]->controller.network, router_->port(p));
  }
  Connect(router_->port(router_->local_port()), interface_->socket);
  router_->registers().SetHooks(net::LocalPortHooks(*interface_));
  board_.AttachRouter(router_->csr());
}

StatList Node::Stats() const {
  StatList stats = board_.Stats();
  if (router_) {
    for (Stat& stat : router_->Stats()) {
      stats.push_back(std::move(stat));
    }
  }
  return stats;
}

}  // namespace lq::cluster
