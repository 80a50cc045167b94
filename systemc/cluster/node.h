// Node: one card of a cluster as far as it is built today: its board (the
// MCU and its devices) and one LinkPort per network port, whose registers
// and interrupts the board maps (docs/board.md).
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/board/board.h"
#include "systemc/cluster/link_port.h"

namespace lq::cluster {

class Node : public sc_core::sc_module {
 public:
  // `board.ports` link ports are built, each from `port`.
  Node(const sc_core::sc_module_name& name, const board::BoardConfig& board,
       const LinkPortConfig& port);

  board::Board& board() { return board_; }
  LinkPort& port(unsigned index) { return *ports_.at(index); }
  unsigned port_count() const { return static_cast<unsigned>(ports_.size()); }
  StatList Stats() const;

 private:
  board::Board board_;
  std::vector<std::unique_ptr<LinkPort>> ports_;
};

}  // namespace lq::cluster
