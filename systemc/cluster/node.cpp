// Node: the board with its link ports attached.
#include "systemc/cluster/node.h"

namespace lq::cluster {

Node::Node(const sc_core::sc_module_name& name, const board::BoardConfig& board,
           const LinkPortConfig& port)
    : sc_module(name), board_("board", board) {
  for (unsigned p = 0; p < board.ports; ++p) {
    LinkPortConfig config = port;
    config.phy.seed = port.phy.seed * 64 + p;  // one error stream per port
    ports_.push_back(std::make_unique<LinkPort>(
        ("port" + std::to_string(p)).c_str(), config));
    board_.AttachLinkController(p, ports_.back()->controller.csr,
                                ports_.back()->irq);
  }
}

StatList Node::Stats() const { return board_.Stats(); }

}  // namespace lq::cluster
