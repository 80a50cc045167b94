// SPDX-License-Identifier: Apache-2.0
// BoardInfo's register bank: read-only facts stored at construction.
#include "systemc/board/board_info.h"

#include "generated/cpp/board_regs.h"
#include "models/common/bytes.h"
#include "systemc/common/register_port.h"

namespace lq::board {

namespace regs = lq::regs::board;

BoardInfo::BoardInfo(const sc_core::sc_module_name& name,
                     const BoardFacts& facts)
    : sc_module(name), socket("socket"), regs_(regs::kRegisters) {
  regs_.Store(regs::kNodeIdOffset, facts.node_id);
  regs_.Store(regs::kPortsOffset, facts.ports);
  regs_.Store(regs::kCpuFreqOffset, facts.cpu_khz);
  regs_.Store(regs::kMtimeFreqOffset, facts.mtime_hz);
  regs_.Store(regs::kDevicesOffset,
              (facts.router ? regs::kDevicesRouter.Mask() : 0) |
                  (facts.transport ? regs::kDevicesTransport.Mask() : 0) |
                  (facts.logical ? regs::kDevicesLogical.Mask() : 0));
  regs_.Store(regs::kCabledOffset,
              regs::kCabledPorts.Place(facts.cabled_ports));
  socket.register_b_transport(this, &BoardInfo::BTransport);
  socket.register_transport_dbg(this, &BoardInfo::TransportDbg);
}

void BoardInfo::BTransport(tlm::tlm_generic_payload& trans,
                           sc_core::sc_time& delay) {
  ServeRegisterBank(trans, regs_);
  delay += sc_core::sc_time(10, sc_core::SC_NS);
}

// No register here has a read side effect; SCRATCH takes writes.
unsigned BoardInfo::TransportDbg(tlm::tlm_generic_payload& trans) {
  return ServeDebugBank(trans, regs_);
}

}  // namespace lq::board
