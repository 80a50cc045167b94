// SPDX-License-Identifier: Apache-2.0
// BoardInfo: the board information block (rtl/regs/board.regs.json,
// docs/registers/board.md): what firmware needs to know about the board it
// runs on, and a scratch register.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "systemc/common/register_bank.h"

namespace lq::board {

struct BoardFacts {
  uint32_t node_id = 0;
  uint32_t ports = 0;
  uint32_t cpu_khz = 100000;
  uint32_t mtime_hz = 10000000;
  bool router = false;        // DEVICES.ROUTER
  bool transport = false;     // DEVICES.TRANSPORT
  bool logical = false;       // DEVICES.LOGICAL
  uint32_t cabled_ports = 0;  // CABLED.PORTS: bit p, port p has a cable
};

class BoardInfo : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BoardInfo> socket;

  BoardInfo(const sc_core::sc_module_name& name, const BoardFacts& facts);

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);

  RegisterBank regs_;
};

}  // namespace lq::board
